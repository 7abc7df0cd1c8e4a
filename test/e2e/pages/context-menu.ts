/**
 * A tree row's context menu: opened on the row at a path (and checked to be that row's), its
 * items read, one chosen. VS Code's menu is a snapshot of the row's context value when it opened:
 * an item that depends on an answer still to come (the access reviews behind a write action) is
 * waited for by opening the menu again (`openOffering`), never by waiting on an open menu.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';
import { QuickPick } from './quick-pick';
import type { SidebarTree } from './sidebar-tree';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The picker a row's command shows when VS Code gave it no row (`Rollout Restart: pick an object`, `Open Shell: pick a pod`). */
const ROW_PICKER = /: pick (an object|a pod)(, a service or a workload| or a workload)?$/;

export class ContextMenu {
  /** The row whose menu was opened last: the one a chosen item acts on. */
  private openedOn: readonly string[] | undefined;
  private readonly picker: QuickPick;

  constructor(
    private readonly page: Page,
    private readonly tree: SidebarTree,
  ) {
    this.picker = new QuickPick(page);
  }

  get menu(): Locator {
    return this.page.locator('.context-view .monaco-menu');
  }

  /**
   * Right-clicks the row at `path` and returns the labels of its menu's items. The row is looked
   * up by its path and the menu is the one VS Code opened on it (the tree focuses the row it opens
   * a menu on): rows move while objects come and go, so a right-click that landed on another row
   * (its index taken a moment before) is made again.
   */
  async open(path: readonly string[]): Promise<string[]> {
    return poll(
      `the context menu of ${path.join(' › ')}`,
      async () => {
        await this.close();
        const row = await this.tree.waitForRow(path);
        await this.tree.list.locator(`.monaco-list-row[data-index="${row.index}"]`).click({ button: 'right' });
        await this.menu.first().waitFor({ state: 'visible', timeout: 30_000 });
        const on = await this.tree.focusedPath();
        if (!samePath(on, path)) {
          await this.close();
          throw new Error(`the menu opened on ${on?.join(' › ') ?? 'no row'}`);
        }
        this.openedOn = path;
        return this.items();
      },
      () => true,
      { timeoutMs: 60_000 },
    );
  }

  /**
   * Opens the menu of the row at `path` until it offers every one of `labels` (they may depend on
   * answers the extension is still waiting for) and returns its items, the menu left open.
   */
  async openOffering(path: readonly string[], labels: readonly string[], opts: PollOptions = { timeoutMs: 60_000 }): Promise<string[]> {
    return poll(
      `the context menu of ${path.join(' › ')} to offer ${labels.join(', ')}`,
      async () => {
        const items = await this.open(path);
        if (!labels.every((l) => items.includes(l))) await this.close();
        return items;
      },
      (items) => labels.every((l) => items.includes(l)),
      opts,
    );
  }

  /** Opens the menu of the row at `path` until it offers `label`, and chooses it. */
  async run(path: readonly string[], label: string): Promise<void> {
    await this.openOffering(path, [label]);
    await this.choose(label);
  }

  async items(): Promise<string[]> {
    return this.menu.locator('.action-menu-item .action-label').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()).filter((t) => t !== ''));
  }

  /**
   * Chooses the item labelled `label` of the open menu: the item is focused (the menu focuses the
   * item under the mouse), then Enter runs it, once. Not a click: VS Code's menu ignores the mouse
   * up of a click that comes within its first 100 ms (a timer that is late on a busy machine), and
   * a click repeated with Enter in case it was lost could run the action twice.
   *
   * VS Code forgets the rows under a row it redraws until it has their children again, one round
   * trip later; an item chosen in between runs without its row, and the command asks for the object
   * with a picker. The extension redraws a parent only when it reads differently (a resource row's
   * resourceVersion moves with the watch: see src/ui/tree/drawn-rows.ts), so this is rare but not
   * impossible on a live tree. Then the picker is answered with the row's object, as a user would.
   */
  async choose(label: string): Promise<void> {
    const item = this.menu.locator('.action-item', { has: this.page.locator('.action-label', { hasText: new RegExp(`^${escape(label)}$`) }) }).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await poll(
      `the menu item "${label}" to be focused`,
      async () => {
        await item.hover();
        return item.evaluate((el) => el.classList.contains('focused'));
      },
      (focused) => focused,
      { timeoutMs: 20_000 },
    );
    await this.page.keyboard.press('Enter');
    await this.menu.first().waitFor({ state: 'hidden', timeout: 20_000 });
    await this.answerRowPicker();
  }

  /**
   * Waits a moment for what the chosen item opens: a dialog or an input of its own ends the wait
   * at once; the picker of a command that got no row is answered with the object of the row.
   */
  private async answerRowPicker(): Promise<void> {
    const row = this.openedOn;
    if (!row) return;
    const shown = await poll(
      'what the chosen item opens',
      async () => {
        if (await this.page.locator('.monaco-dialog-box').isVisible().catch(() => false)) return 'dialog';
        if (!(await this.picker.isOpen().catch(() => false))) return undefined;
        return ROW_PICKER.test(await this.picker.title()) ? 'row picker' : 'input';
      },
      (s) => s !== undefined,
      { timeoutMs: 5_000, intervalMs: 100 },
    ).catch(() => undefined);
    if (shown !== 'row picker') return;
    const title = row[row.length - 1];
    const namespace = row.length >= 3 ? row[row.length - 2] : undefined;
    // A pod's row title leaves its generated parts out (`api…5qblg`): its name starts and ends so.
    const [start, end = ''] = title.split('…');
    const items = await this.picker.items();
    const item = items.find((i) => (title.includes('…') ? i.label.startsWith(start) && i.label.endsWith(end) : i.label === title) && (!namespace || i.description.split(' · ').includes(namespace)));
    if (!item) throw new Error(`the row ${row.join(' › ')} was redrawn as its item ran, and its picker (${await this.picker.title()}) has no such object: ${items.map((i) => `${i.label} (${i.description})`).join(', ')}`);
    // The list is drawn a screenful at a time: the name typed, its item shows.
    await this.picker.input.fill(item.label);
    await this.picker.pick(item.label);
  }

  async close(): Promise<void> {
    if (await this.menu.first().isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
    await this.menu.first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
  }
}

function samePath(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);
}
