/**
 * What a log terminal shows and does, VS Code-free: the streams' lines and notes go into a
 * LogView (kept, bounded, drawn with timestamps, filter and search) and out to the terminal around
 * the OutageLine; the reader's keys and commands (search, filter, next/previous, timestamps,
 * range, save) act on it. A pseudoterminal adapter only forwards `write` and the input.
 *
 * Invariants: nothing is written after `dispose()`; every line is written through the view, so a
 * redraw shows exactly what was received (and, under a filter, what matches); an outage line that
 * ends is kept in the view before the line that ended it.
 */
import type { Clock } from '../../base/clock';
import { timeFormat, type TimeFormat } from '../../base/time-format';
import { parseLogQuery } from './log-query';
import { rangeText, type LogRange } from './log-range';
import { LogView, type LogSource, type SearchStatus } from './log-view';
import { OutageTicker } from './outage-ticker';

const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

/** What a key asks of the adapter (a prompt or a dialog); the rest the screen does itself. */
export type LogKeyRequest = 'find' | 'filter' | 'range' | 'save';

/** The keys the header names: `/` search, `n`/`N` next/previous, `f` filter, `t` timestamps, `r` range, `s` save, Esc the live end. */
export const LOG_KEYS_TEXT = 'keys: / search · n N next/previous match · f filter · t timestamps · r range · s save · Esc back to the live end';

export interface LogScreenOptions {
  readonly clock: Clock;
  /** Writes to the terminal. */
  readonly write: (text: string) => void;
  /** At most this many lines are written by a redraw (the terminal's scrollback). */
  readonly screenLines: number;
  /** How many lines are kept for redraws and Save Log As; default MAX_KEPT_LOG_LINES. */
  readonly capacity?: number;
  /** The time format of shown timestamps (tests); default the one in force. */
  readonly timeFormat?: TimeFormat;
}

export abstract class LogScreen {
  readonly view: LogView;
  protected readonly outage: OutageTicker;
  protected disposed = false;
  private rangeNow: LogRange;

  constructor(
    protected readonly screen: LogScreenOptions,
    initialRange: LogRange,
  ) {
    this.rangeNow = initialRange;
    this.view = new LogView({ screenLines: screen.screenLines, capacity: screen.capacity, timeFormat: screen.timeFormat });
    this.outage = new OutageTicker(
      screen.clock,
      (text) => {
        if (!this.disposed) screen.write(text);
      },
      (line) => this.view.record({ kind: 'note', bytes: line }),
    );
  }

  /** Streams reading now; 0 once stopped. */
  abstract get activeStreams(): number;
  /** Timers (backoffs, silence checks, the outage countdown); 0 once stopped. */
  abstract get activeTimers(): number;
  /** The first lines: what is followed (the view's own line about range and keys comes after). */
  protected abstract headerLines(): string[];
  /** Starts the streams for `range`. */
  protected abstract startStreams(range: LogRange): void;
  /** Stops the streams; resolves once none runs. */
  protected abstract stopStreams(): Promise<void>;

  /** Where the log starts now (tail or since). */
  get range(): LogRange {
    return this.rangeNow;
  }

  /** Draws the header and starts reading. */
  start(): void {
    if (this.disposed) return;
    this.screen.write(this.view.setHeader(this.header()));
    this.startStreams(this.rangeNow);
  }

  /** Stops reading and writing; resolves once every stream and timer has stopped. Safe twice. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.outage.dispose();
    await this.stopStreams();
  }

  setDimensions(columns: number, rows: number): void {
    this.outage.setColumns(columns);
    this.view.rows = rows;
  }

  /** Searches for `input` (text, or `/regex/flags`; empty clears it): the newest match shown. A message when `input` is not valid. */
  find(input: string): string | undefined {
    const parsed = parseLogQuery(input);
    if (parsed.error !== undefined) return parsed.error;
    this.paint(this.view.setSearch(parsed.query));
    return undefined;
  }

  /** Keeps only the lines matching `input` (empty: every line again). A message when `input` is not valid. */
  filter(input: string): string | undefined {
    const parsed = parseLogQuery(input);
    if (parsed.error !== undefined) return parsed.error;
    this.paint(this.view.setFilter(parsed.query));
    return undefined;
  }

  next(): void {
    this.paint(this.view.next());
  }

  previous(): void {
    this.paint(this.view.previous());
  }

  live(): void {
    this.paint(this.view.live());
  }

  /** Timestamps on if off, off if on; returns whether they are shown now. */
  toggleTimestamps(): boolean {
    const on = !this.view.showTimestamps;
    this.paint(this.view.setTimestamps(on));
    return on;
  }

  searchStatus(): SearchStatus {
    return this.view.searchStatus();
  }

  /** The log as received (gap and outage lines included), for Save Log As. */
  savedText(): string {
    return this.view.savedText();
  }

  /** Reads the log again from `range`: the streams start over, the kept lines are forgotten. */
  async setRange(range: LogRange): Promise<void> {
    if (this.disposed) return;
    this.rangeNow = range;
    await this.stopStreams();
    if (this.disposed) return;
    this.view.setHeader(this.header());
    this.paint(this.view.clear());
    this.startStreams(range);
  }

  /**
   * A key typed in the terminal: `n`/Enter/F3 next, `N`/Shift+F3 previous, `t` timestamps, Esc or
   * `q` the live end are done here; `/` (or Ctrl+F), `f`, `r` and `s` return what to ask for.
   */
  input(data: string): LogKeyRequest | undefined {
    switch (data) {
      case '/':
      case '\x06':
        return 'find';
      case 'f':
        return 'filter';
      case 'r':
        return 'range';
      case 's':
        return 'save';
      case 'n':
      case '\r':
      case '\x1bOR':
        this.next();
        return undefined;
      case 'N':
      case '\x1b[1;2R':
        this.previous();
        return undefined;
      case 't':
        this.toggleTimestamps();
        return undefined;
      case '\x1b':
      case 'q':
        this.live();
        return undefined;
      default:
        return undefined;
    }
  }

  /** A log line of `stream`. */
  protected line(stream: string, text: string, timestamp: string | undefined, source?: LogSource): void {
    if (this.disposed) return;
    this.outage.write(stream, () => this.view.append({ kind: 'line', text, timestamp, source }));
  }

  /** A note of `stream` (a marker, already terminal text): the stream reads again. */
  protected note(stream: string, bytes: string): void {
    if (this.disposed) return;
    this.outage.write(stream, () => this.view.append({ kind: 'note', bytes }));
  }

  protected failed(stream: string, reason: string, nextTryAt: number): void {
    if (this.disposed) return;
    this.outage.failed(stream, reason, nextTryAt);
  }

  private header(): string[] {
    const zone = (this.screen.timeFormat ?? timeFormat()).timeZone;
    return [...this.headerLines(), `${DIM}── from ${rangeText(this.rangeNow)}; times in ${zone} · ${LOG_KEYS_TEXT} ──${RESET}\r\n`];
  }

  private paint(text: string): void {
    if (!this.disposed) this.outage.paint(text);
  }
}
