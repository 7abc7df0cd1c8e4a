/**
 * VS Code's own file dialog in the browser (the "simple file dialog" a remote or web window shows
 * for showOpenDialog and showSaveDialog): a quick input titled as the dialog, its box holding a
 * path, its list the folder's entries. A folder is chosen by typing its path with a trailing `/`
 * (the dialog then lists that folder) and accepting the folder itself, a file by typing its path.
 */
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
   * extension runs on), once the dialog lists `child` in it (so the dialog is in that folder, not
   * on an entry of its parent); the dialog must then close.
   */
  async chooseFolder(title: string, folder: string, child: string): Promise<void> {
    const input = this.widget.locator('.quick-input-box input');
    const wanted = folder.endsWith('/') ? folder : `${folder}/`;
    await poll(
      `the file dialog "${title}" in ${wanted}, listing ${child}`,
      async () => {
        const s = await this.state();
        if (!s.open || s.title !== title) return s;
        // Typed as a user types it: the dialog follows what is typed, not a value set at once.
        if (s.value !== wanted) {
          await input.click();
          await this.page.keyboard.press('Control+A');
          await this.page.keyboard.type(wanted, { delay: 20 });
        } else if (!s.items.includes(child)) {
          // The dialog lists a folder once its path ends in "/" as typed; a "/" it took while
          // still listing the last one is typed again.
          await input.press('End');
          await this.page.keyboard.press('Backspace');
          await new Promise((r) => setTimeout(r, 200));
          await this.page.keyboard.type('/');
        }
        return this.state();
      },
      (s) => s.open && s.title === title && s.value === wanted && s.items.includes(child),
      { timeoutMs: 30_000 },
    );
    await this.page.keyboard.press('Enter');
    await poll(`the file dialog "${title}" to take ${wanted}`, () => this.state(), (s) => !s.open || s.title !== title, { timeoutMs: 30_000 });
  }
}
