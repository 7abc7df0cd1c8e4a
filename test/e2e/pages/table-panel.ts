/**
 * A resource table (Open as Table): its page lives two iframes deep like every webview's; it is
 * found among the page's frames by its grid. Everything is read from the page's DOM: the toolbar,
 * the banner, the header cells, the rows of the window drawn now (each with its key, cells and
 * marks), the grid's ARIA counts and its active descendant (the focused cell).
 */
import type { Frame, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export interface TableRowView {
  key: string;
  /** 1-based, the header being row 1. */
  rowIndex: number;
  cells: string[];
  classes: string;
  /** The row's `data-vscode-context` (JSON). */
  context: string;
  flashing: number[];
}

export interface TableView {
  title: string;
  count: string;
  filter: string;
  banner: string;
  problem: string;
  headers: string[];
  rows: TableRowView[];
  total: number;
  serial: number;
  role: string;
  rowCount: string;
  colCount: string;
  /** The focused cell's id and accessible name (aria-label). */
  activeDescendant: string;
  focusedLabel: string;
  live: string;
  /** Every cell the page flashed (`rowKey|HEADER`), the last 50. */
  flashes: string[];
}

/** Runs in the page: the focused element's id. */
const ACTIVE_ID = new Function('return (document.activeElement && document.activeElement.id) || "";') as () => string;

export class TablePanel {
  constructor(private readonly page: Page) {}

  /** The editor tab whose title starts with `title` (`pods`, `deployments.apps`). */
  tab(title: string) {
    return this.page.locator('.tabs-container .tab').filter({ hasText: title });
  }

  private async frame(): Promise<Frame> {
    for (const frame of this.page.frames()) {
      if (frame.isDetached()) continue;
      const ours = await frame
        .locator('body #grid[role=grid]')
        .count()
        .then((n) => n === 1)
        .catch(() => false);
      if (ours && (await frame.locator('body').evaluate((b) => b.getAttribute('data-serial') !== null).catch(() => false))) return frame;
    }
    throw new Error(`no table page among the ${this.page.frames().length} frames`);
  }

  async read(): Promise<TableView> {
    const frame = await this.frame();
    // No named helper functions inside: tsx would wrap them in `__name`, unknown to the page.
    return frame.locator('body').evaluate((body) => {
      const grid = body.querySelector('#grid')!;
      const active = grid.getAttribute('aria-activedescendant') ?? '';
      return {
        title: body.querySelector('#title')?.textContent ?? '',
        count: body.querySelector('#count')?.textContent ?? '',
        filter: (body.querySelector('#filter') as unknown as { value: string }).value,
        banner: body.querySelector('#banner')?.hasAttribute('hidden') ? '' : (body.querySelector('#banner')?.textContent ?? ''),
        problem: body.querySelector('#problem')?.hasAttribute('hidden') ? '' : (body.querySelector('#problem')?.textContent ?? ''),
        headers: [...body.querySelectorAll('#head [role=columnheader]')].map((h) => (h.textContent ?? '').replace(/ [▲▼]$/, '')),
        rows: [...body.querySelectorAll('#rows [role=row]')].map((r) => ({
          key: r.getAttribute('data-key') ?? '',
          rowIndex: Number(r.getAttribute('aria-rowindex')),
          cells: [...r.querySelectorAll('[role=gridcell]')].map((c) => (c.textContent ?? '').replace(/^⚠ /, '')),
          classes: r.className,
          context: r.getAttribute('data-vscode-context') ?? '',
          flashing: [...r.querySelectorAll('[role=gridcell]')].flatMap((c, i) => (c.classList.contains('flash') ? [i] : [])),
        })),
        total: Number(body.getAttribute('data-total') ?? -1),
        serial: Number(body.getAttribute('data-serial') ?? 0),
        role: grid.getAttribute('role') ?? '',
        rowCount: grid.getAttribute('aria-rowcount') ?? '',
        colCount: grid.getAttribute('aria-colcount') ?? '',
        activeDescendant: active,
        focusedLabel: active ? (body.querySelector(`#${active}`)?.getAttribute('aria-label') ?? '') : '',
        live: body.querySelector('#live')?.textContent ?? '',
        flashes: (body.getAttribute('data-flashes') ?? '').split('\n').filter((f: string) => f !== ''),
      };
    });
  }

  async waitFor(what: string, accept: (view: TableView) => boolean, opts: PollOptions = { timeoutMs: 30_000 }): Promise<TableView> {
    return poll(`the table: ${what}`, () => this.read().catch(() => undefined as unknown as TableView), (v) => v !== undefined && accept(v), opts);
  }

  /** Focuses the grid (a click on its header's empty area would sort: the grid itself is focused). */
  async focusGrid(): Promise<void> {
    const frame = await this.frame();
    // A click (on the title, which does nothing) gives the webview the workbench's focus; then the grid takes it.
    await frame.locator('#title').click();
    await poll(
      'the grid focused',
      async () => {
        await frame.locator('#grid').focus();
        return frame.evaluate(ACTIVE_ID);
      },
      (id) => id === 'grid',
      { timeoutMs: 10_000 },
    );
  }

  /** Keys pressed with the focus in the page (the grid, the filter box, a dialog). */
  async press(...keys: string[]): Promise<void> {
    for (const key of keys) await this.page.keyboard.press(key);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  /** The id of the page's focused element ('' for none). */
  async activeId(): Promise<string> {
    const frame = await this.frame();
    return frame.evaluate(ACTIVE_ID);
  }

  /** Replaces the filter box's text, key by key, the keys sent to the box itself (it has the focus: `/` gave it). */
  async typeInFilter(text: string): Promise<void> {
    const box = (await this.frame()).locator('#filter');
    await box.press('Control+A');
    await box.press('Backspace');
    if (text) await box.pressSequentially(text);
  }

  /** Clicks a column header (sorts by it). */
  async clickHeader(header: string): Promise<void> {
    const frame = await this.frame();
    await frame.locator('#head [role=columnheader]').filter({ hasText: new RegExp(`^${header}( [▲▼])?$`) }).click();
  }

  /** Right-clicks the row of `key` (VS Code's webview context menu). */
  async rightClickRow(name: string): Promise<void> {
    const frame = await this.frame();
    await frame.locator('#rows [role=row]').filter({ hasText: name }).first().click({ button: 'right' });
  }

  /** Clicks the row showing `name`, which focuses it. */
  async clickRow(name: string): Promise<void> {
    const frame = await this.frame();
    await frame.locator('#rows [role=row]').filter({ hasText: name }).first().locator('[role=gridcell]').nth(1).click();
  }
}
