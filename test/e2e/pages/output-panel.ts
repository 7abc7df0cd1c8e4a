/**
 * The Output panel: choose a channel ("Kube Watch"), filter it, and read its lines. The text is
 * read from the editor's rendered lines, so only what is on screen counts: use the filter to bring
 * the lines of interest into view. Wrapped lines are joined back: a log line starts with its
 * timestamp (`2026-11-22 10:39:11.496 [info] ...`).
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';
import type { QuickPick } from './quick-pick';

const LOG_LINE_START = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} /;

export interface LogLineView {
  raw: string;
  time: string;
  level: string;
  message: string;
}

export class OutputPanel {
  constructor(
    private readonly page: Page,
    private readonly quickPick: QuickPick,
  ) {}

  get part(): Locator {
    return this.page.locator('.monaco-workbench .part.panel');
  }

  private get view(): Locator {
    return this.part.locator('#workbench\\.panel\\.output');
  }

  private get channelSelect(): Locator {
    return this.part.locator('select[aria-label="Switch Output"]').filter({ visible: true }).first();
  }

  private get filterInput(): Locator {
    return this.part.locator('.viewpane-filter input').filter({ visible: true }).first();
  }

  /** Whether the Output view is on screen. */
  async isOpen(): Promise<boolean> {
    return this.view.isVisible();
  }

  /** Shows the Output panel (its view's own focus command). */
  async open(): Promise<void> {
    if (await this.isOpen()) return;
    await this.quickPick.runCommand('Output: Focus on Output View');
    await this.view.waitFor({ state: 'visible', timeout: 20_000 });
  }

  async channel(): Promise<string> {
    return this.channelSelect.inputValue();
  }

  async channels(): Promise<string[]> {
    return this.channelSelect.locator('option:not([disabled])').evaluateAll((options) => options.map((o) => (o as { value: string }).value));
  }

  /** Switches the panel to the channel `name` (opening the panel first). */
  async selectChannel(name: string): Promise<void> {
    await this.open();
    await poll(`an output channel "${name}"`, () => this.channels(), (names) => names.includes(name), { timeoutMs: 20_000 });
    if ((await this.channel()) !== name) await this.channelSelect.selectOption(name);
    await poll(`the output channel "${name}" to be shown`, () => this.channel(), (c) => c === name, { timeoutMs: 10_000 });
  }

  /**
   * Sets the panel's filter (`text`, `!exclude`, `a,b` for either; '' shows everything) and waits
   * until the lines on screen are filtered (the view applies a filter a moment after typing).
   */
  async filter(text: string): Promise<void> {
    await this.filterInput.fill(text);
    const terms = text.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== '');
    const include = terms.filter((t) => !t.startsWith('!'));
    const exclude = terms.filter((t) => t.startsWith('!')).map((t) => t.slice(1));
    if (terms.length === 0) return;
    await this.waitForLines(`only lines matching the filter "${text}"`, (lines) =>
      lines.every((l) => {
        const raw = l.raw.toLowerCase();
        return (include.length === 0 || include.some((t) => raw.includes(t))) && !exclude.some((t) => raw.includes(t));
      }),
    );
  }

  /** The log lines on screen, in order, wrapped lines joined. */
  async lines(): Promise<LogLineView[]> {
    const visual = await this.view.locator('.monaco-editor .view-lines .view-line').evaluateAll((elements) =>
      elements
        .map((el) => ({ top: parseFloat((el as { style: { top: string } }).style.top || '0'), text: (el.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
    // The top line on screen may be the wrapped tail of a line scrolled out of view: skip it.
    const first = visual.findIndex((text) => LOG_LINE_START.test(text));
    if (first > 0) visual.splice(0, first);
    const joined: string[] = [];
    for (const text of visual) {
      if (LOG_LINE_START.test(text) || joined.length === 0) joined.push(text);
      else joined[joined.length - 1] += text;
    }
    return joined
      .map((raw) => raw.trimEnd())
      .filter((raw) => raw !== '')
      .map((raw) => {
        const m = /^(\S+ \S+) \[(\w+)\] (.*)$/.exec(raw);
        return m ? { raw, time: m[1], level: m[2], message: m[3] } : { raw, time: '', level: '', message: raw };
      });
  }

  /** Waits until the lines on screen satisfy `accept`; returns them. */
  async waitForLines(what: string, accept: (lines: LogLineView[]) => boolean, opts?: PollOptions): Promise<LogLineView[]> {
    return poll(`output lines: ${what}`, () => this.lines(), accept, opts);
  }

  async isMaximized(): Promise<boolean> {
    return (await this.part.getByRole('button', { name: /^Restore Panel/ }).count()) > 0;
  }

  /** Gives the panel the editor area's height (the side bar stays). */
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

  /** Hides the panel. */
  async close(): Promise<void> {
    if (!(await this.part.isVisible())) return;
    await this.part.getByRole('button', { name: /^Hide Panel/ }).click();
    await this.part.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}
