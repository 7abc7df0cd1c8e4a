/**
 * A tree view in the side bar, such as Kube Watch's "Watched Resources". Rows are addressed by
 * their path of labels from the root (`['pods', 'shop', 'web-7d9f8b6c4-2xkqp']`), since a label
 * alone repeats (namespaces appear under every resource type). Only rendered rows can be read:
 * the tree is virtualised, so a row of a collapsed parent, or far below the fold, is not found.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';
import { cssString } from './activity-bar';

export interface TreeRow {
  /** Labels from the root to this row. */
  path: string[];
  label: string;
  description: string;
  /** 1 for the roots. */
  level: number;
  /** undefined for a leaf. */
  expanded?: boolean;
  /** The codicon of the row's icon (`eye`, `sync~spin`, `pass`, ...), as `name` or `name~spin`. */
  icon?: string;
  /** The row's index in the list (its `data-index`). */
  index: number;
}

/** The label of the row after a context's watch rows that lists every type the server offers. */
export const CATALOG = 'All resources';
/** The events feed's row of a context (issue 33), after its watch rows. */
export const EVENTS_ROW = 'Events';
export const WORKSPACE_ROW = 'Workspace';

export class SidebarTree {
  constructor(
    private readonly page: Page,
    /** The view's name, as its tree's aria-label ("Resources"). */
    readonly viewName: string,
  ) {}

  get list(): Locator {
    return this.page.locator(`.monaco-workbench .part.sidebar .monaco-list[role="tree"][aria-label="${cssString(this.viewName)}"]`);
  }

  /** The message above the tree, or '' when none is shown. */
  async message(): Promise<string> {
    const el = this.page.locator('.monaco-workbench .part.sidebar .message:not(.hide)').first();
    if (!(await el.isVisible().catch(() => false))) return '';
    return ((await el.innerText()) ?? '').replace(/\u00a0/g, ' ').trim();
  }

  /** The welcome content on screen (shown when the tree is empty): its text and its buttons' labels. */
  async welcome(): Promise<{ text: string; buttons: string[] }> {
    const content = this.page.locator('.monaco-workbench .part.sidebar .welcome-view-content').first();
    if (!(await content.isVisible().catch(() => false))) return { text: '', buttons: [] };
    const text = ((await content.innerText()) ?? '').replace(/\u00a0/g, ' ').trim();
    const buttons = await content.locator('.monaco-button').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').trim()));
    return { text, buttons };
  }

  /** Clicks the welcome content's button labelled `label`. */
  async clickWelcomeButton(label: string): Promise<void> {
    await this.page.locator('.monaco-workbench .part.sidebar .welcome-view-content .monaco-button').getByText(label, { exact: true }).first().click();
  }

  async waitUntilVisible(timeoutMs = 60_000): Promise<void> {
    await this.list.waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** Every rendered row, in display order, with its path. */
  async rows(): Promise<TreeRow[]> {
    const raw = await this.list.locator('.monaco-list-row').evaluateAll((elements) =>
      elements.map((row) => {
        const icon = row.querySelector('.custom-view-tree-node-item-icon');
        const codicon = icon ? [...icon.classList].find((c) => c.startsWith('codicon-') && c !== 'codicon-colored' && !c.startsWith('codicon-modifier')) : undefined;
        const spinning = icon?.classList.contains('codicon-modifier-spin') ?? false;
        const expanded = row.getAttribute('aria-expanded');
        return {
          index: Number(row.getAttribute('data-index')),
          level: Number(row.getAttribute('aria-level')),
          label: (row.querySelector('.label-name')?.textContent ?? '').replace(/\u00a0/g, ' '),
          description: (row.querySelector('.label-description')?.textContent ?? '').replace(/\u00a0/g, ' '),
          expanded: expanded === null ? undefined : expanded === 'true',
          icon: codicon ? `${codicon.slice('codicon-'.length)}${spinning ? '~spin' : ''}` : undefined,
        };
      }),
    );
    raw.sort((a, b) => a.index - b.index);
    const stack: string[] = [];
    return raw.map((r) => {
      stack.length = r.level - 1;
      stack.push(r.label);
      return { ...r, path: [...stack] };
    });
  }

  /** The row at `path`, if rendered. */
  async row(path: readonly string[]): Promise<TreeRow | undefined> {
    return (await this.rows()).find((r) => samePath(r.path, path));
  }

  /**
   * The rendered children of `path`. For the roots ([]), the watch rows only: the "All resources"
   * catalog row after them, the "Events" feed row and the "Workspace" manifests row are no watches
   * (read them with `row([CATALOG])`, `row([EVENTS_ROW])`, `row([WORKSPACE_ROW])`).
   */
  async children(path: readonly string[] = []): Promise<TreeRow[]> {
    const rows = (await this.rows()).filter((r) => r.path.length === path.length + 1 && samePath(r.path.slice(0, -1), path));
    return path.length === 0 ? rows.filter((r) => r.label !== CATALOG && r.label !== EVENTS_ROW && r.label !== WORKSPACE_ROW) : rows;
  }

  /** Waits until the row at `path` is rendered and `accept` holds for it; returns it. */
  async waitForRow(path: readonly string[], accept: (row: TreeRow) => boolean = () => true, opts?: PollOptions): Promise<TreeRow> {
    const found = await poll(`the tree row ${path.join(' › ')}${accept.length ? ' to match' : ''}`, () => this.row(path), (r) => r !== undefined && accept(r), opts);
    return found!;
  }

  /** Waits until no row is rendered at `path`. */
  async waitForNoRow(path: readonly string[], opts?: PollOptions): Promise<void> {
    await poll(`no tree row at ${path.join(' › ')}`, () => this.rows(), (rows) => !rows.some((r) => samePath(r.path, path)), opts);
  }

  private rowElement(row: TreeRow): Locator {
    return this.list.locator(`.monaco-list-row[data-index="${row.index}"]`);
  }

  /** Expands each collapsed row along `path`, the last one included, waiting for each to open. */
  async expand(path: readonly string[]): Promise<void> {
    for (let depth = 1; depth <= path.length; depth++) {
      const prefix = path.slice(0, depth);
      const row = await this.waitForRow(prefix);
      if (row.expanded === false) await this.clickUntil(prefix, row, (r) => r.expanded === true);
    }
  }

  /**
   * Clicks a row's twistie until `done` holds. The list re-renders its rows while objects
   * change, so on a busy machine a click can land on a row element that was just replaced:
   * a click that changed nothing is repeated, with the row looked up again.
   */
  private async clickUntil(path: readonly string[], row: TreeRow, done: (r: TreeRow) => boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.rowElement(row).locator('.monaco-tl-twistie').click();
      try {
        await this.waitForRow(path, done, { timeoutMs: attempt < 4 ? 5_000 : 30_000 });
        return;
      } catch (err) {
        if (attempt >= 4) throw err;
        row = await this.waitForRow(path);
        if (done(row)) return;
      }
    }
  }

  /** Clicks the row itself (its label): runs the row's command (a YAML, a catalog type's watch). */
  async click(path: readonly string[]): Promise<void> {
    const row = await this.waitForRow(path);
    await this.rowElement(row).locator('.label-name').click();
  }

  /** Clicks one of the row's inline actions (shown on hover), by its title (`Stop Watching`). */
  async clickInlineAction(path: readonly string[], title: string): Promise<void> {
    const row = await this.waitForRow(path);
    const element = this.rowElement(row);
    await element.hover();
    await element.locator(`.actions .action-label[aria-label="${cssString(title)}"]`).click();
  }

  /** The paths of the selected rows. */
  async selected(): Promise<string[][]> {
    const selected = await this.list.locator('.monaco-list-row.selected').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-index'))));
    return (await this.rows()).filter((r) => selected.includes(r.index)).map((r) => r.path);
  }

  async collapse(path: readonly string[]): Promise<void> {
    const row = await this.waitForRow(path);
    if (row.expanded === true) await this.clickUntil(path, row, (r) => r.expanded === false);
  }

  /** The path of the focused row (the one a context menu was opened on), if one is focused and rendered. */
  async focusedPath(): Promise<string[] | undefined> {
    const focused = await this.list.locator('.monaco-list-row.focused').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-index'))));
    if (focused.length !== 1) return undefined;
    return (await this.rows()).find((r) => r.index === focused[0])?.path;
  }

  /** Collapses every root (the view's own "Collapse All" would do the same, when the view shows it). */
  async collapseAll(): Promise<void> {
    for (const root of (await this.rows()).filter((r) => r.level === 1)) if (root.expanded) await this.collapse(root.path);
  }

  /** Widens the side bar to about `width` pixels by dragging its edge. */
  async resizeSideBar(width: number): Promise<void> {
    const sidebar = this.page.locator('.monaco-workbench .part.sidebar');
    const box = await sidebar.boundingBox();
    if (!box || Math.abs(box.width - width) < 4) return;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width + 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width + 1, y, { steps: 8 });
    await this.page.mouse.up();
  }
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
