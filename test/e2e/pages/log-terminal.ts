/**
 * A terminal in the panel, read from xterm's DOM rows (the profile sets
 * `terminal.integrated.gpuAcceleration: "off"`, so rows are DOM, not a canvas). Only the rows on
 * screen are in the DOM: maximize the panel to see more of them.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export class LogTerminal {
  constructor(private readonly page: Page) {}

  get part(): Locator {
    return this.page.locator('.monaco-workbench .part.panel');
  }

  /** The visible terminal's rows, top to bottom, trailing blanks removed. */
  async rows(): Promise<string[]> {
    const rows = await this.part
      .locator('.terminal-wrapper.active .xterm-rows > div, .terminal-wrapper:visible .xterm-rows > div')
      .evaluateAll((divs) => divs.filter((d) => (d as unknown as { offsetParent: unknown }).offsetParent !== null).map((d) => (d.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()));
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
    return rows;
  }

  /**
   * The runs of text drawn black on yellow (xterm's DOM renderer: `xterm-bg-3`), each with its
   * row's whole text: the log search's current match.
   */
  async highlighted(): Promise<Array<{ text: string; row: string }>> {
    return this.part
      .locator('.terminal-wrapper.active .xterm-rows > div, .terminal-wrapper:visible .xterm-rows > div')
      .evaluateAll((divs) =>
        divs
          .filter((d) => (d as unknown as { offsetParent: unknown }).offsetParent !== null)
          .flatMap((d) =>
            Array.from((d as unknown as { querySelectorAll(q: string): ArrayLike<{ className: string; textContent: string | null }> }).querySelectorAll('span'))
              .filter((s) => /(^|\s)xterm-bg-3(\s|$)/.test(s.className))
              .map((s) => ({ text: (s.textContent ?? '').replace(/\u00a0/g, ' '), row: (d.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd() })),
          ),
      );
  }

  async waitForRows(what: string, accept: (rows: string[]) => boolean, opts?: PollOptions): Promise<string[]> {
    return poll(`terminal rows: ${what}`, () => this.rows(), accept, opts);
  }

  /** Whether a terminal's rows are on screen. */
  async isOpen(): Promise<boolean> {
    return (await this.part.locator('.xterm-rows').filter({ visible: true }).count()) > 0;
  }

  async isMaximized(): Promise<boolean> {
    return (await this.part.getByRole('button', { name: /^Restore Panel/ }).count()) > 0;
  }

  async maximize(): Promise<void> {
    if (await this.isMaximized()) return;
    await this.part.getByRole('button', { name: /^Maximize Panel/ }).click();
    await poll('the panel to be maximized', () => this.isMaximized(), (m) => m, { timeoutMs: 10_000 });
  }

  async restore(): Promise<void> {
    if (!(await this.isMaximized())) return;
    await this.part.getByRole('button', { name: /^Restore Panel/ }).click();
    await poll('the panel to be restored', () => this.isMaximized(), (m) => !m, { timeoutMs: 10_000 });
  }
}
