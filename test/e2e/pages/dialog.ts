/** A modal dialog of the workbench (showInformationMessage with `modal: true`, and friends). */
import type { Locator, Page } from 'playwright-core';

export interface DialogView {
  message: string;
  /** The detail text, one entry per line. */
  detail: string[];
  buttons: string[];
}

export class Dialog {
  constructor(private readonly page: Page) {}

  get box(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  async waitUntilOpen(timeoutMs = 20_000): Promise<DialogView> {
    await this.box.waitFor({ state: 'visible', timeout: timeoutMs });
    return this.read();
  }

  async read(): Promise<DialogView> {
    // (No named functions inside: the test runner's transpiler would wrap them in a helper the page lacks.)
    return this.box.evaluate((box) => ({
      message: ((box.querySelector('.dialog-message-text')?.innerText as string | undefined) ?? '').replace(/\u00a0/g, ' ').trim(),
      detail: ((box.querySelector('.dialog-message-detail')?.innerText as string | undefined) ?? '')
        .replace(/\u00a0/g, ' ')
        .split('\n')
        .map((l: string) => l.trim())
        .filter((l: string) => l !== ''),
      buttons: [...box.querySelectorAll('.dialog-buttons .monaco-button')].map((b) => ((b.innerText as string | undefined) ?? '').replace(/\u00a0/g, ' ').trim()),
    }));
  }

  /** The detail line `Name: value` as a map of name to value. */
  static fields(view: DialogView): Map<string, string> {
    const map = new Map<string, string>();
    for (const line of view.detail) {
      const m = /^([^:]+):\s+(.*)$/.exec(line);
      if (m) map.set(m[1].trim(), m[2].trim());
    }
    return map;
  }

  async close(): Promise<void> {
    if (!(await this.box.isVisible())) return;
    await this.page.keyboard.press('Escape');
    await this.box.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}
