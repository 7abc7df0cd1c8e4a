/**
 * The log terminal's view model: the lines received (a KeptLog, bounded), and how they are shown
 * (timestamps on or off in the user's time format, a filter that keeps only matching lines, a
 * search whose matches are highlighted, next/previous through them). Every operation returns the
 * bytes to write to the pseudoterminal (xterm): a new line as it arrives, or the whole screen
 * drawn again. Pure (no timers, no `vscode`), so what the reader sees is testable.
 *
 * Invariants: a line is kept at most once, in the order received, and at most `capacity` are
 * kept; the filter and the search act on the line's text (not its prefix or time); notes (gap
 * and outage lines, markers) are always shown and never match; while a match is shown (after
 * next/previous) lines that arrive are kept but not written, until `live()`.
 */
import { logTime, type TimeFormat } from '../../base/time-format';
import { KeptLog } from './kept-log';
import { matchRanges, matches, queryText, type LogQuery } from './log-query';
import { terminalLine } from './log-terminal-text';

/**
 * The lines a log terminal keeps for redrawing and saving, at most (about 10 MB of 200-character
 * lines). A terminal's own scrollback (`terminal.integrated.scrollback`) is usually smaller; this
 * bound is what Save Log As and a filter can reach back to.
 */
export const MAX_KEPT_LOG_LINES = 50_000;

/** Where a line came from, when several streams share a terminal: kubectl's `--prefix`, coloured. */
export interface LogSource {
  readonly prefix: string;
  readonly colourIndex: number;
}

/** What the view keeps: a log line, or a note already drawn as terminal text (markers, gap and outage lines, headings). */
export type LogEntry =
  | { readonly kind: 'line'; readonly text: string; readonly timestamp: string | undefined; readonly source?: LogSource }
  | { readonly kind: 'note'; readonly bytes: string };

export interface LogViewOptions {
  /** How many entries are kept; default MAX_KEPT_LOG_LINES. */
  readonly capacity?: number;
  /** At most this many lines are written by a redraw (the terminal's scrollback: more would scroll out of reach). */
  readonly screenLines: number;
  /** The time format of shown timestamps; default the one in force. */
  readonly timeFormat?: TimeFormat;
}

/** Where the search stands: how many matches, and which one is shown (1-based) while paused at one. */
export interface SearchStatus {
  readonly matches: number;
  readonly current: number | undefined;
}

const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const INVERSE = '\x1b[7m';
const INVERSE_OFF = '\x1b[27m';
const CURRENT = '\x1b[30;43m';
const CURRENT_OFF = '\x1b[39;49m';
/** Erase the screen and the scrollback, cursor home. */
const CLEAR = '\x1b[2J\x1b[3J\x1b[H';
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

interface Match {
  readonly seq: number;
  readonly occurrence: number;
}

/** Terminal text without its colours and line end. */
export function plainText(bytes: string): string {
  return bytes.replace(ANSI, '').replace(/\r?\n$/, '').replace(/\r\n/g, '\n');
}

export class LogView {
  private readonly kept: KeptLog<LogEntry>;
  private header: string[] = [];
  private timestamps = false;
  private filterQuery: LogQuery | undefined;
  private searchQuery: LogQuery | undefined;
  /** The match shown, while paused at one (after next/previous); undefined: live at the end. */
  private shown: Match | undefined;
  /** Lines that arrived while paused at a match (said in the status line). */
  private arrivedWhilePaused = 0;
  /** The terminal's height in rows (the shown match sits mid-screen). */
  rows = 24;

  constructor(private readonly options: LogViewOptions) {
    this.kept = new KeptLog(options.capacity ?? MAX_KEPT_LOG_LINES);
  }

  get showTimestamps(): boolean {
    return this.timestamps;
  }
  get filter(): LogQuery | undefined {
    return this.filterQuery;
  }
  get search(): LogQuery | undefined {
    return this.searchQuery;
  }
  /** True while a match is shown and new lines wait below. */
  get paused(): boolean {
    return this.shown !== undefined;
  }

  /** The lines drawn first on every redraw (what is followed, the keys); returns them to write. */
  setHeader(lines: readonly string[]): string {
    this.header = [...lines];
    return this.header.join('');
  }

  /** Keeps `entry`; returns what to write now ('' when the filter hides it, or while paused). */
  append(entry: LogEntry): string {
    this.kept.push(entry);
    if (this.shown) {
      if (entry.kind === 'line') this.arrivedWhilePaused++;
      return '';
    }
    return this.visible(entry) ? this.render(entry, undefined) : '';
  }

  /** Keeps `entry` without writing it (the caller already wrote it, e.g. an outage line ended). */
  record(entry: LogEntry): void {
    this.kept.push(entry);
  }

  /** Forgets every line (a new range reads the log again); the header stays. */
  clear(): string {
    this.kept.clear();
    this.shown = undefined;
    this.arrivedWhilePaused = 0;
    return this.redraw();
  }

  /** Timestamps on or off; the screen drawn again. */
  setTimestamps(on: boolean): string {
    this.timestamps = on;
    return this.redraw();
  }

  /** Keeps only the lines `query` matches (undefined: every line); the screen drawn again. */
  setFilter(query: LogQuery | undefined): string {
    this.filterQuery = query;
    this.shown = undefined;
    return this.redraw();
  }

  /**
   * Highlights what `query` matches (undefined: no search, back to the live end). With matches,
   * shows the newest one (paused there); with none, stays live and says so.
   */
  setSearch(query: LogQuery | undefined): string {
    this.searchQuery = query;
    this.shown = undefined;
    if (!query) return this.redraw();
    return this.step(-1);
  }

  /** The next (newer) match, wrapping to the oldest; '' without a search. */
  next(): string {
    return this.searchQuery ? this.step(1) : '';
  }

  /** The previous (older) match, wrapping to the newest; '' without a search. */
  previous(): string {
    return this.searchQuery ? this.step(-1) : '';
  }

  /** Back to the live end: every kept line the filter lets through, and new lines as they come. */
  live(): string {
    this.shown = undefined;
    return this.redraw();
  }

  /** How many matches the search has among the lines shown, and which is shown. */
  searchStatus(): SearchStatus {
    if (!this.searchQuery) return { matches: 0, current: undefined };
    const all = this.allMatches();
    const i = this.shown ? all.findIndex((m) => m.seq === this.shown!.seq && m.occurrence === this.shown!.occurrence) : -1;
    return { matches: all.length, current: i >= 0 ? i + 1 : undefined };
  }

  /** The whole screen again: the header, a status line, then the lines the filter lets through. */
  redraw(): string {
    const out = [CLEAR, ...this.header];
    const status = this.statusLine();
    if (status) out.push(`${DIM}── ${status} ──${RESET}\r\n`);
    const shown = this.shown;
    const visible: Array<[number, LogEntry]> = [];
    let after = 0;
    const context = Math.max(1, Math.floor(this.rows / 2) - 1);
    for (const [seq, entry] of this.kept.entries()) {
      if (!this.visible(entry)) continue;
      if (shown && seq > shown.seq && ++after > context) break;
      visible.push([seq, entry]);
    }
    for (const [seq, entry] of visible.slice(-this.options.screenLines)) out.push(this.render(entry, shown && shown.seq === seq ? shown.occurrence : undefined));
    if (shown) out.push(this.pausedLine(visible.length > 0 ? visible[visible.length - 1][0] : -1));
    return out.join('');
  }

  /**
   * The log as received, for Save Log As: every kept line and note (gap and outage lines
   * included; the filter does not apply), prefixed as shown, with the server's RFC3339
   * timestamps when timestamps are shown. Plain text, `\n` line ends.
   */
  savedText(): string {
    const out = this.header.map(plainText);
    if (this.kept.evicted > 0) out.push(`── the first ${this.kept.evicted.toLocaleString('en-US')} lines received are not kept (at most ${this.kept.capacity.toLocaleString('en-US')} are) ──`);
    for (const [, entry] of this.kept.entries()) {
      if (entry.kind === 'note') out.push(plainText(entry.bytes));
      else out.push(`${entry.source?.prefix ?? ''}${this.timestamps && entry.timestamp ? `${entry.timestamp} ` : ''}${entry.text}`);
    }
    return `${out.join('\n')}\n`;
  }

  private visible(entry: LogEntry): boolean {
    return entry.kind === 'note' || !this.filterQuery || matches(this.filterQuery, entry.text);
  }

  private allMatches(): Match[] {
    const search = this.searchQuery;
    const out: Match[] = [];
    if (!search) return out;
    for (const [seq, entry] of this.kept.entries()) {
      if (entry.kind !== 'line' || !this.visible(entry)) continue;
      const n = matchRanges(search, entry.text).length;
      for (let occurrence = 0; occurrence < n; occurrence++) out.push({ seq, occurrence });
    }
    return out;
  }

  /** Moves to the match `delta` away from the one shown (from the live end: -1 is the newest). */
  private step(delta: 1 | -1): string {
    const all = this.allMatches();
    if (all.length === 0) {
      this.shown = undefined;
      return this.redraw();
    }
    const shown = this.shown;
    const i = shown ? all.findIndex((m) => m.seq === shown.seq && m.occurrence === shown.occurrence) : -1;
    let next: number;
    if (i < 0) next = delta < 0 ? all.length - 1 : 0;
    else next = (i + delta + all.length) % all.length;
    if (!shown) this.arrivedWhilePaused = 0;
    this.shown = all[next];
    return this.redraw();
  }

  private statusLine(): string {
    const parts: string[] = [];
    if (this.filterQuery) parts.push(`filter ${queryText(this.filterQuery)}: only matching lines are shown`);
    if (this.searchQuery) {
      const { matches: n } = this.searchStatus();
      parts.push(n === 0 ? `search ${queryText(this.searchQuery)}: no match yet (new lines are searched as they arrive)` : `search ${queryText(this.searchQuery)}: ${n} match${n === 1 ? '' : 'es'}`);
    }
    return parts.join(' · ');
  }

  private pausedLine(lastDrawn: number): string {
    const { matches: n, current } = this.searchStatus();
    let below = 0;
    for (const [seq, entry] of this.kept.entries()) if (seq > lastDrawn && entry.kind === 'line' && this.visible(entry)) below++;
    const waiting = below > 0 ? ` · ${below} line${below === 1 ? '' : 's'} below` : '';
    return `${INVERSE} match ${current ?? '?'} of ${n} · n next · N previous · Esc back to the live end${waiting} ${RESET}\r\n`;
  }

  private render(entry: LogEntry, current: number | undefined): string {
    if (entry.kind === 'note') return entry.bytes;
    const time = this.timestamps ? `${DIM}${entry.timestamp ? this.time(entry.timestamp) : '-'.padEnd(23)}${RESET} ` : '';
    return terminalLine(time + this.highlight(entry.text, current), entry.source?.prefix ?? '', entry.source?.colourIndex ?? 0);
  }

  private time(timestamp: string): string {
    const at = Date.parse(timestamp);
    return Number.isNaN(at) ? timestamp : logTime(at, this.options.timeFormat);
  }

  /** `text` with the search's matches in inverse video, the shown one (`current`-th) in black on yellow. */
  private highlight(text: string, current: number | undefined): string {
    if (!this.searchQuery) return text;
    const ranges = matchRanges(this.searchQuery, text);
    if (ranges.length === 0) return text;
    let out = '';
    let at = 0;
    ranges.forEach(([start, end], i) => {
      const [on, off] = i === current ? [CURRENT, CURRENT_OFF] : [INVERSE, INVERSE_OFF];
      out += `${text.slice(at, start)}${on}${text.slice(start, end)}${off}`;
      at = end;
    });
    return out + text.slice(at);
  }
}
