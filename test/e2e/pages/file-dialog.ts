/**
 * VS Code's own file dialog in the browser (the "simple file dialog" a remote or web window shows
 * for showOpenDialog and showSaveDialog): a quick input titled as the dialog, its box holding a
 * path, its list the folder's entries (only folders where it chooses folders).
 */
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { poll } from '../support/poll';

export class FileDialog {
  constructor(private readonly page: Page) {}

  private get widget() {
    return this.page.locator('.quick-input-widget');
  }

  private async state(): Promise<{ open: boolean; title: string; value: string; items: string[]; message: string }> {
    if (!(await this.widget.isVisible())) return { open: false, title: '', value: '', items: [], message: '' };
    const text = async (selector: string) => ((await this.widget.locator(selector).first().textContent().catch(() => '')) ?? '').replace(/\u00a0/g, ' ').trim();
    const items = await this.widget.locator('.quick-input-list .monaco-list-row .label-name').evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\u00a0/g, ' ').trim()));
    return { open: true, title: await text('.quick-input-title'), value: await this.widget.locator('.quick-input-box input').inputValue().catch(() => ''), items, message: await text('.quick-input-message') };
  }

  /**
   * Answers the dialog titled `title` with the folder `folder` (absolute, on the machine the
   * extension runs on): its path typed without a trailing "/" (a character typed after a "/"
   * makes the dialog list that folder, here the parent; a "/" typed after a name the dialog
   * completed itself is taken for its own completion and lists nothing new), the folder's row
   * clicked (the dialog goes into it), then, once it shows the folder's path, Enter accepts the
   * folder itself. The dialog must then close.
   */
  async chooseFolder(title: string, folder: string): Promise<void> {
    const input = this.widget.locator('.quick-input-box input');
    const base = path.posix.basename(folder);
    await poll(
      `the file dialog "${title}" holding ${folder}, listing ${base}`,
      async () => {
        const s = await this.state();
        if (!s.open || s.title !== title) return s;
        if (s.value !== folder) {
          await input.click();
          await this.page.keyboard.press('Control+A');
          await this.page.keyboard.type(folder, { delay: 20 });
        }
        return this.state();
      },
      (s) => s.open && s.title === title && s.value === folder && s.items.includes(base),
      { timeoutMs: 30_000 },
    );
    await this.widget.locator('.quick-input-list .monaco-list-row').filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }) }).first().click();
    // (A dialog that chooses folders lists no files: the folder is known by the path it shows.)
    await poll(`the file dialog "${title}" in ${folder}`, () => this.state(), (s) => s.open && s.title === title && s.value === `${folder}/` && !s.items.includes(base), { timeoutMs: 30_000 });
    await this.page.keyboard.press('Enter');
    await poll(`the file dialog "${title}" to take ${folder}`, () => this.state(), (s) => !s.open || s.title !== title, { timeoutMs: 30_000 });
  }
}
