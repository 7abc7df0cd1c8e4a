/**
 * The quick input at the top of the workbench: the command palette and the pickers extensions
 * open with showQuickPick / createQuickPick. Items are found by their label (the text VS Code
 * shows, codicons left out); commands in the palette by their full title (`Kube Watch: Restart All Watches`).
 */
import type { Locator, Page } from 'playwright-core';
import { poll } from '../support/poll';
import { cssString } from './activity-bar';

export interface QuickPickItemView {
  label: string;
  description: string;
  /** The second line under the label, or '' without one. */
  detail: string;
  ariaLabel: string;
  focused: boolean;
}

export class QuickPick {
  constructor(private readonly page: Page) {}

  get widget(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  get input(): Locator {
    return this.widget.locator('.quick-input-box input');
  }

  async isOpen(): Promise<boolean> {
    return this.widget.isVisible();
  }

  /** Opens the command palette (F1), with `>` typed. */
  async openCommandPalette(): Promise<void> {
    if (await this.isOpen()) await this.close();
    // The keyboard goes to whatever has focus; the workbench takes F1 from anywhere in it.
    await this.page.keyboard.press('F1');
    await this.widget.waitFor({ state: 'visible', timeout: 15_000 });
    await poll('the command palette input', () => this.input.inputValue(), (v) => v.startsWith('>'), { timeoutMs: 10_000 });
  }

  /** Runs a command by its full title (`Category: Title`) from the command palette. */
  async runCommand(title: string): Promise<void> {
    await this.openCommandPalette();
    await this.input.fill(`>${title}`);
    // The row's aria-label is the title, plus ", <keybinding>" or ", similar commands" after it.
    const row = this.widget.locator(`.monaco-list-row[aria-label="${cssString(title)}"], .monaco-list-row[aria-label^="${cssString(title)},"]`).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    // The palette closes, or is replaced by the command's own picker.
    await poll(
      `the command palette to run "${title}"`,
      async () => ({ open: await this.isOpen(), value: await this.input.inputValue().catch(() => '') }),
      (s) => !s.open || !s.value.startsWith('>'),
      { timeoutMs: 15_000 },
    );
  }

  /** The picker's title, or '' without one. */
  async title(): Promise<string> {
    const t = this.widget.locator('.quick-input-title');
    return (await t.isVisible()) ? ((await t.textContent()) ?? '').replace(/\u00a0/g, ' ').trim() : '';
  }

  async placeholder(): Promise<string> {
    return (await this.input.getAttribute('placeholder')) ?? '';
  }

  /** The items shown (separators left out). */
  async items(): Promise<QuickPickItemView[]> {
    return this.widget.locator('.quick-input-list .monaco-list-row').evaluateAll((rows) =>
      rows
        .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
        .map((row) => ({
          label: (row.querySelector('.label-name')?.textContent ?? '').replace(/\u00a0/g, ' ').trim(),
          description: (row.querySelector('.label-description')?.textContent ?? '').replace(/\u00a0/g, ' ').trim(),
          detail: (row.querySelector('.quick-input-list-label-meta')?.textContent ?? '').replace(/\u00a0/g, ' ').trim(),
          ariaLabel: row.getAttribute('aria-label') ?? '',
          focused: row.classList.contains('focused'),
        }))
        .filter((item) => item.label !== '' || item.description !== ''),
    );
  }

  /** Waits for a picker titled `title` (or with `title` as its placeholder) to show. */
  async waitForPicker(title: string): Promise<void> {
    await poll(`a picker "${title}"`, async () => ({ open: await this.isOpen(), title: await this.title(), placeholder: await this.placeholder() }), (s) => s.open && (s.title === title || s.placeholder === title), { timeoutMs: 20_000 });
  }

  /**
   * Accepts the item whose label is exactly `label` (one click), and waits until the picker is
   * gone or another one took its place (another title, placeholder, or no such item), so that a click the picker did not take fails here, by
   * name, not later as something else that never came. Never clicked twice: a picker the
   * extension closes itself is still open while it hears of the accept, and a second click would
   * be a second accept.
   */
  async pick(label: string): Promise<void> {
    const row = this.widget.locator('.quick-input-list .monaco-list-row').filter({ has: this.page.locator('.label-name').getByText(label, { exact: true }) }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    const title = await this.title();
    const placeholder = await this.placeholder();
    await row.click();
    await poll(
      `the picker "${title || placeholder}" to take "${label}"`,
      async () => ({ open: await this.isOpen(), title: await this.title(), placeholder: await this.placeholder(), items: (await this.items()).map((i) => i.label) }),
      (s) => !s.open || s.title !== title || s.placeholder !== placeholder || !s.items.includes(label),
      { timeoutMs: 30_000 },
    );
  }

  async close(): Promise<void> {
    if (!(await this.isOpen())) return;
    await this.page.keyboard.press('Escape');
    await this.widget.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}
