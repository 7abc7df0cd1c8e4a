/**
 * The activity bar: the column of view containers on the left (Explorer, Search, ..., Kube Watch).
 * Items are found by their title, as their aria-label starts (`Explorer (Ctrl+Shift+E)`, `Kube Watch`).
 */
import type { Locator, Page } from 'playwright-core';
import { poll } from '../support/poll';

export class ActivityBar {
  constructor(private readonly page: Page) {}

  private get part(): Locator {
    return this.page.locator('.monaco-workbench .part.activitybar');
  }

  /** The tab of a view container. */
  item(title: string): Locator {
    return this.part.locator('li.action-item[role="tab"]').filter({ has: this.page.locator(`a.action-label[aria-label^="${cssString(title)}"]`) });
  }

  /** Titles of every view container shown, top to bottom. */
  async titles(): Promise<string[]> {
    return this.part.locator('li.action-item[role="tab"] a.action-label').evaluateAll((links) =>
      links.map((a) => (a.getAttribute('aria-label') ?? '').replace(/\s*\([^)]*\)$/, '')),
    );
  }

  /** Waits until the container `title` is in the bar (extensions add theirs after the workbench is up). */
  async waitForItem(title: string, timeoutMs = 60_000): Promise<void> {
    await poll(`"${title}" in the activity bar`, () => this.titles(), (titles) => titles.includes(title), { timeoutMs });
  }

  async isActive(title: string): Promise<boolean> {
    return (await this.item(title).getAttribute('aria-selected')) === 'true';
  }

  /** Shows the view container (a click on an active item would hide the side bar, so only when it is not active). */
  async open(title: string): Promise<void> {
    const item = this.item(title);
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    if (!(await this.isActive(title)) || !(await this.page.locator('.monaco-workbench .part.sidebar').isVisible())) await item.click();
    await poll(`"${title}" to be the active view container`, () => this.isActive(title), (active) => active);
  }
}

/** A value for a CSS attribute selector in double quotes. */
export function cssString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
