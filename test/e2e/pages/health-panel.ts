/**
 * The Watch Health webview panel. A webview's page lives two iframes deep (the workbench's
 * `iframe.webview`, then its `#active-frame`); everything is read from that page's DOM, which
 * carries the band's data: `body[data-now]` (the panel's clock at the last snapshot), and per
 * watch a `section.watch[data-watch-id]` with `.span[data-state][data-from][data-to]` and
 * `.marker[data-kind][data-at]`.
 */
import type { Frame, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export interface BandSpan {
  state: string;
  from: number;
  to: number;
  open: boolean;
  title: string;
}

export interface WatchBand {
  id: string;
  label: string;
  state: string;
  stateText: string;
  facts: string;
  spans: BandSpan[];
  markers: { kind: string; at: number; title: string }[];
  /** uPlot drew its canvas. */
  chart: boolean;
}

export interface HealthView {
  /** The panel's clock at its last snapshot (epoch ms), 0 before the first. */
  now: number;
  serial: number;
  watches: WatchBand[];
}

export class HealthPanel {
  constructor(private readonly page: Page) {}

  /** The editor tab of the panel. */
  get tab() {
    return this.page.locator('.tabs-container .tab').filter({ hasText: 'Watch Health' });
  }

  /** The frame whose page is the panel's (the one with `#watches`), among all the page's frames. */
  private async frame(): Promise<Frame> {
    for (const frame of this.page.frames()) {
      if (frame.isDetached()) continue;
      const ours = await frame
        .locator('body main#watches')
        .count()
        .then((n) => n === 1)
        .catch(() => false);
      if (ours) return frame;
    }
    throw new Error(`no Watch Health page among the ${this.page.frames().length} frames: ${this.page.frames().map((f) => f.url().slice(0, 80)).join(', ')}`);
  }

  /** The panel's page, for keyboard and accessibility checks. */
  frameOf(): Promise<Frame> {
    return this.frame();
  }

  async isOpen(): Promise<boolean> {
    return (await this.tab.count()) > 0;
  }

  async read(): Promise<HealthView> {
    const frame = await this.frame();
    // No named helper functions inside: tsx would wrap them in `__name`, unknown to the page.
    return frame.locator('body').evaluate((body) => ({
      now: Number(body.getAttribute('data-now') ?? 0),
      serial: Number(body.getAttribute('data-serial') ?? 0),
      watches: [...body.querySelectorAll('section.watch')].map((w) => ({
        id: w.getAttribute('data-watch-id') ?? '',
        label: w.querySelector('h2')?.textContent ?? '',
        state: w.getAttribute('data-state') ?? '',
        stateText: w.querySelector('.state')?.textContent ?? '',
        facts: w.querySelector('.facts')?.textContent ?? '',
        spans: [...w.querySelectorAll('.band .span')].map((s) => ({
          state: s.getAttribute('data-state') ?? '',
          from: Number(s.getAttribute('data-from')),
          to: Number(s.getAttribute('data-to')),
          open: s.getAttribute('data-open') === 'true',
          title: s.getAttribute('title') ?? '',
        })),
        markers: [...w.querySelectorAll('.band .marker')].map((m) => ({ kind: m.getAttribute('data-kind') ?? '', at: Number(m.getAttribute('data-at')), title: m.getAttribute('title') ?? '' })),
        chart: w.querySelector('.rate canvas') !== null,
      })),
    }));
  }

  /** Waits until the panel's page has drawn a snapshot and `accept` holds. */
  async waitFor(what: string, accept: (view: HealthView) => boolean, opts?: PollOptions): Promise<HealthView> {
    return poll(`the Watch Health panel to show ${what}`, () => this.read().catch((err: Error) => ({ now: 0, serial: 0, watches: [], error: err.message })), (v) => v.serial > 0 && accept(v), opts);
  }

  /** Closes the panel's editor tab. */
  async close(): Promise<void> {
    if (!(await this.isOpen())) return;
    await this.tab.hover();
    await this.tab.locator('.action-label.codicon-close, .codicon-close').first().click();
    await this.tab.waitFor({ state: 'detached', timeout: 15_000 });
  }
}
