/**
 * The active text editor of the workbench (a read-only Kube Watch document, say): its tab title
 * and its text. Monaco renders only the lines in view, so reading the end of a long document
 * moves the cursor there first (Ctrl+End), and the lines are put in order by their position.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export class TextEditor {
  constructor(private readonly page: Page) {}

  /** The active editor group's editor. */
  get editor(): Locator {
    return this.page.locator('.monaco-workbench .part.editor .editor-group-container.active .editor-container .monaco-editor').first();
  }

  async activeTabTitle(): Promise<string> {
    return ((await this.page.locator('.monaco-workbench .part.editor .editor-group-container.active .tab.active').first().textContent()) ?? '').trim();
  }

  /** The rendered lines, top to bottom, with the editor's non-breaking spaces as spaces. */
  async visibleLines(): Promise<string[]> {
    const lines = await this.editor.locator('.view-lines .view-line').evaluateAll((els) =>
      els.map((el) => ({ top: parseFloat((el as unknown as { style: { top: string } }).style.top || '0'), text: (el.textContent ?? '').replace(/\u00a0/g, ' ') })),
    );
    return lines.sort((a, b) => a.top - b.top).map((l) => l.text);
  }

  /** Moves to the top (`start`) or the end of the document and reads what is in view. */
  async linesAt(where: 'start' | 'end'): Promise<string[]> {
    // Clicking the active tab focuses its editor without a click into the text (which a hover may cover).
    await this.page.locator('.monaco-workbench .part.editor .editor-group-container.active .tab.active').first().click();
    await this.page.keyboard.press(where === 'end' ? 'Control+End' : 'Control+Home');
    return this.visibleLines();
  }

  /** Polls the end or start of the active editor until `accept` holds. */
  async waitForLines(what: string, where: 'start' | 'end', accept: (lines: string[]) => boolean, opts?: PollOptions): Promise<string[]> {
    return poll(what, () => this.linesAt(where), accept, opts);
  }

  /** A document link in view whose text is `text` (the editor decorates links as `.detected-link`). */
  link(text: string): Locator {
    return this.editor.locator('.view-lines .detected-link', { hasText: text }).first();
  }
}
