/**
 * The log terminal during an outage: one line per failure kind, kept at the bottom and rewritten
 * in place with a countdown (`── cannot read the log: connect ECONNREFUSED · 4 failed attempts ·
 * next try in 3 s ──`), never one red line per attempt per stream. A different kind of failure
 * ends the line (it stays, saying how many attempts failed over how long) and starts another;
 * the first line or marker of a stream that reads again ends it for that stream, and the line
 * goes once no stream fails. Pure: returns the bytes to write (xterm: `\r` and "erase line").
 *
 * Invariant: at most one line is open (drawn without its line end) and it is the last thing
 * written; the caller erases it (`clear`) before writing anything else and redraws it after. The
 * open line never wraps (it is cut to `columns - 1`): a carriage return reaches only the start
 * of the row the cursor is on, so a wrapped line could not be rewritten in place.
 */
const RESET = '\x1b[0m';
const RED = '\x1b[31m';
const ERASE = '\r\x1b[2K';

interface Failing {
  reason: string;
  nextTryAt: number;
}

export class OutageLine {
  private readonly failing = new Map<string, Failing>();
  /** The kind on screen: its reason, first failure and attempts. */
  private kind: { reason: string; since: number; attempts: number } | undefined;
  private open = false;
  /** The terminal's width in characters (the pseudoterminal's dimensions); unknown: no limit. */
  columns = Number.POSITIVE_INFINITY;

  /** `onEnded` gets each line that ends for good (it stays on screen: a gap in the log, to keep with it). */
  constructor(private readonly onEnded?: (line: string) => void) {}

  /** True while some stream fails (the countdown must tick). */
  get active(): boolean {
    return this.failing.size > 0;
  }

  /** `stream` failed with `reason` and tries again at `nextTryAt`: the bytes to write. */
  failed(stream: string, reason: string, nextTryAt: number, now: number): string {
    this.failing.set(stream, { reason, nextTryAt });
    let out = '';
    if (this.kind && this.kind.reason !== reason) out += this.end(now);
    if (!this.kind) this.kind = { reason, since: now, attempts: 0 };
    this.kind.attempts++;
    return out + this.draw(now);
  }

  /** `stream` reads again (or stopped for good): the line goes once no stream fails. Bytes to write. */
  recovered(stream: string, now: number): string {
    if (!this.failing.delete(stream) || this.failing.size > 0) return '';
    return this.end(now);
  }

  /** Before writing a line: erases the open line (redraw it after with `redraw`). */
  clear(): string {
    if (!this.open) return '';
    this.open = false;
    return ERASE;
  }

  /** After writing a line, or each second for the countdown: the open line, drawn again. */
  redraw(now: number): string {
    return this.kind && this.failing.size > 0 ? this.draw(now) : '';
  }

  /** Ends the open line for good: it stays, with how many attempts failed over how long. */
  private end(now: number): string {
    const kind = this.kind;
    this.kind = undefined;
    if (!kind) return '';
    this.open = false;
    const over = Math.max(0, Math.round((now - kind.since) / 1000));
    const line = `${RED}── cannot read the log: ${kind.reason} · ${attempts(kind.attempts)} over ${over} s ──${RESET}\r\n`;
    this.onEnded?.(line);
    return `${ERASE}${line}`;
  }

  private draw(now: number): string {
    const kind = this.kind!;
    const same = [...this.failing.values()].filter((f) => f.reason === kind.reason);
    const next = Math.min(...same.map((f) => f.nextTryAt));
    const seconds = Math.ceil((next - now) / 1000);
    const streams = same.length > 1 ? ` (${same.length} streams)` : '';
    const when = seconds > 0 ? `next try in ${seconds} s` : 'trying again…';
    this.open = true;
    return `${ERASE}${RED}${fit(`── cannot read the log${streams}: ${kind.reason} · ${attempts(kind.attempts)} · ${when} ──`, this.columns)}${RESET}`;
  }
}

function attempts(n: number): string {
  return `${n} failed attempt${n === 1 ? '' : 's'}`;
}

/** `text` cut to fit in `columns - 1` characters, the count and countdown kept: the reason gives way first. */
function fit(text: string, columns: number): string {
  const room = Math.floor(columns) - 1;
  if (!Number.isFinite(room) || text.length <= room) return text;
  const tail = / · \d+ failed attempts? · .*$/.exec(text)?.[0] ?? '';
  const head = text.slice(0, text.length - tail.length);
  if (room > tail.length + 4) return `${head.slice(0, room - tail.length - 1)}…${tail}`;
  return `${text.slice(0, Math.max(1, room - 1))}…`;
}
