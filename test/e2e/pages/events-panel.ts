/**
 * The Events webview panel. Its page lives two iframes deep, as the Watch Health panel's; it is
 * found among the page's frames by its content (`tbody#rows` beside `#filter-text`) and read
 * from its DOM: the scope and memory lines, and per row its kind (`tr[data-kind]`: section,
 * group, gap, event) and cells.
 */
import type { Frame, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export interface EventsRow {
  kind: string;
  cells: string[];
  /** `warning` on a group with warnings. */
  warning: boolean;
}

export interface EventsView {
  scope: string;
  memory: string;
  problem: string;
  warnings: number;
  rows: EventsRow[];
}

export class EventsPanel {
  constructor(private readonly page: Page) {}

  tab(title = 'Events') {
    return this.page.locator('.tabs-container .tab').filter({ hasText: title });
  }

  private async frame(): Promise<Frame> {
    for (const frame of this.page.frames()) {
      if (frame.isDetached()) continue;
      const ours = await frame
        .locator('body tbody#rows')
        .count()
        .then((n) => n === 1)
        .catch(() => false);
      if (ours) return frame;
    }
    throw new Error(`no Events page among the ${this.page.frames().length} frames`);
  }

  frameOf(): Promise<Frame> {
    return this.frame();
  }

  async read(): Promise<EventsView> {
    const frame = await this.frame();
    // No named helper functions inside: tsx would wrap them in `__name`, unknown to the page.
    return frame.locator('body').evaluate((body) => ({
      scope: body.querySelector('#scope')?.textContent ?? '',
      memory: body.querySelector('#memory')?.textContent ?? '',
      problem: body.querySelector('#problem')?.textContent ?? '',
      warnings: Number(body.getAttribute('data-warnings') ?? -1),
      rows: [...body.querySelectorAll('tbody#rows tr')].map((tr) => ({
        kind: tr.getAttribute('data-kind') ?? '',
        cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
        warning: tr.classList.contains('warning'),
      })),
    }));
  }

  /** Waits until the panel drew a snapshot (its scope line is set) and `accept` holds. */
  async waitFor(what: string, accept: (view: EventsView) => boolean, opts?: PollOptions): Promise<EventsView> {
    return poll(`the Events panel to show ${what}`, () => this.read().catch((err: Error) => ({ scope: '', memory: '', problem: err.message, warnings: -1, rows: [] })), (v) => v.scope !== '' && accept(v), opts);
  }
}
