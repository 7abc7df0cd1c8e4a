/**
 * An editable object document (`kubewatch-edit:`) in the active editor: the lenses above its
 * first line, replacing text with the editor's own Replace widget, saving, its dirty state, and
 * the Problems panel. Everything is read from the screen, as a person would.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export interface ProblemRow {
  text: string;
}

export class EditDocument {
  constructor(private readonly page: Page) {}

  private get group(): Locator {
    return this.page.locator('.monaco-workbench .part.editor .editor-group-container.active');
  }

  get editor(): Locator {
    return this.group.locator('.editor-container .monaco-editor').first();
  }

  /** The texts of the CodeLenses in view (each lens on its own). */
  async lenses(): Promise<string[]> {
    return this.editor.locator('.codelens-decoration > span, .codelens-decoration > a').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()).filter((t) => t !== ''));
  }

  /**
   * Polls the lenses (from the top of the document, where they are) until `accept` holds. It goes
   * to the top at most every 5 s and only reads in between: a click and Ctrl+Home on every poll
   * kept VS Code putting off drawing the lenses, so that none showed for as long as it polled.
   */
  async waitForLens(what: string, accept: (lenses: string[]) => boolean, opts?: PollOptions): Promise<string[]> {
    let toppedAt = Number.NEGATIVE_INFINITY;
    return poll(
      what,
      async () => {
        if (Date.now() - toppedAt >= 5000) {
          await this.toTop();
          toppedAt = Date.now();
        }
        return this.lenses();
      },
      accept,
      { timeoutMs: 60_000, ...opts },
    );
  }

  /** Scrolls to the first line (the lenses sit above it), moving the cursor there. */
  async toTop(): Promise<void> {
    await this.group.locator('.tab.active').first().click();
    // The editor takes the focus from the tab a moment after the click.
    await poll('the editor focused', () => this.editor.evaluate((el) => el.classList.contains('focused')), (f) => f, { timeoutMs: 10_000 }).catch(() => undefined);
    await this.page.keyboard.press('Control+Home');
  }

  /**
   * The status drawn after the first line (a decoration: CSS `::after` content, never text of the
   * document), or '' without one.
   */
  async status(): Promise<string> {
    await this.toTop();
    return this.editor.locator('.view-lines .view-line span').evaluateAll((els) => {
      // The page's own getComputedStyle (these test files are type-checked without the DOM library).
      const page = globalThis as unknown as { getComputedStyle(el: unknown, pseudo: string): { content: string } };
      for (const el of els) {
        const content = page.getComputedStyle(el, '::after').content;
        if (content && content !== 'none' && content !== 'normal' && content.length > 2) return (JSON.parse(content) as string).replace(/\u00a0/g, ' ');
      }
      return '';
    });
  }

  /** Polls the status until `accept` holds. */
  async waitForStatus(what: string, accept: (status: string) => boolean, opts?: PollOptions): Promise<string> {
    return poll(what, () => this.status(), accept, { timeoutMs: 60_000, ...opts });
  }

  /** Clicks the lens whose text is `text`. */
  async clickLens(text: string): Promise<void> {
    await this.editor.locator('.codelens-decoration a', { hasText: text }).first().click();
  }

  /** True while the active tab shows unsaved changes. */
  async isDirty(): Promise<boolean> {
    const cls = (await this.group.locator('.tab.active').first().getAttribute('class')) ?? '';
    return /\bdirty\b/.test(cls);
  }

  /** Focuses the editor's text (through its active tab, as TextEditor does). */
  async focus(): Promise<void> {
    // The tab, never the text: a click at the top of the text could land on a lens and run it.
    await this.group.locator('.tab.active').first().click();
  }

  /**
   * Replaces `find` with `replacement` in the first line that holds it, as a person would: go to
   * the line, select it whole, type it anew (the Replace widget's buttons move as it lays out).
   */
  async replace(find: string, replacement: string): Promise<void> {
    const index = await this.goToLineWith(find);
    const line = (await this.text())[index];
    await this.goToLine(index + 1);
    await this.page.keyboard.press('End');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.type(line.replace(find, replacement));
  }

  /** The index of the first line holding `text`, waiting for it to be there. */
  private async goToLineWith(text: string): Promise<number> {
    const lines = await poll(`a line with ${JSON.stringify(text)}`, () => this.text(), (l) => l.some((x) => x.includes(text)), { timeoutMs: 15_000 });
    return lines.findIndex((l) => l.includes(text));
  }

  /** Moves the cursor to the start of line `n` (1-based): from the top, down a line at a time (no picker to race). */
  private async goToLine(n: number): Promise<void> {
    // Keys pressed before the editor has the focus go elsewhere: check the cursor's line in the
    // status bar (`Ln 9, Col 1`), and start over when it is not where it should be.
    for (let attempt = 1; ; attempt++) {
      await this.toTop();
      for (let i = 1; i < n; i++) await this.page.keyboard.press('ArrowDown');
      await this.page.keyboard.press('Home');
      const at = await poll(`the cursor on line ${n}`, () => this.cursorLine(), (l) => l === n, { timeoutMs: 3_000 }).then(() => true, () => false);
      if (at) return;
      if (attempt === 3) throw new Error(`the cursor did not reach line ${n} (it is on line ${await this.cursorLine()})`);
    }
  }

  /** The cursor's line as the status bar shows it (`Ln 9, Col 1`), 0 when not shown. */
  private async cursorLine(): Promise<number> {
    const texts = await this.page.locator('.monaco-workbench .part.statusbar .statusbar-item').allInnerTexts();
    const m = texts.map((t) => /Ln (\d+), Col \d+/.exec(t)).find((x) => x !== null);
    return m ? Number(m[1]) : 0;
  }

  /** Types `text` on a new line below the first line that contains `after` (found in the text from the top). */
  async insertLineAfter(after: string, text: string): Promise<void> {
    const index = await this.goToLineWith(after);
    await this.goToLine(index + 1);
    // The line's end, a new line; the indentation the editor adds is replaced.
    await this.page.keyboard.press('End');
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.type(text);
  }

  async save(): Promise<void> {
    await this.focus();
    await this.page.keyboard.press('Control+S');
  }

  /** The Problems panel's rows (opened with Ctrl+Shift+M). */
  async problems(): Promise<string[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible().catch(() => false))) {
      await this.page.keyboard.press('Control+Shift+M');
      await panel.waitFor({ state: 'visible', timeout: 15_000 });
    }
    return panel.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => ((r as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim()));
  }

  /** The whole text of the document as rendered from the top (a short one fits in view). */
  async text(): Promise<string[]> {
    await this.toTop();
    const lines = await this.editor.locator('.view-lines .view-line').evaluateAll((els) =>
      els.map((el) => ({ top: parseFloat((el as unknown as { style: { top: string } }).style.top || '0'), text: (el.textContent ?? '').replace(/\u00a0/g, ' ') })),
    );
    return lines.sort((a, b) => a.top - b.top).map((l) => l.text);
  }
}
