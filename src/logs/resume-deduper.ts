import type { TimestampedLine } from './timestamped-line';

/**
 * Drops the lines a resumed stream repeats. A stream resumed with `sinceTime` (whole seconds,
 * rounded down) starts again at the beginning of the second of the last line kept, so it
 * repeats that second's lines and may repeat lines before it. Invariant: a line is passed on
 * at most once by (timestamp, text), and lines older than the last kept line are dropped
 * after a resume. Identical lines with the same timestamp are counted, so two genuinely equal
 * lines are kept twice and repeated twice dropped twice.
 */
export class ResumeDeduper {
  /** The instant of the last line kept; NaN before any timestamped line. */
  private lastAt = Number.NaN;
  /** The lines kept within the whole second of `lastAt`, keyed by timestamp and text, with counts. */
  private lastSecond = new Map<string, number>();
  private lastSecondStart = Number.NaN;
  /** How many of each kept line a resumed stream may still repeat. */
  private pending = new Map<string, number>();
  private resuming = false;

  /** The instant of the last line kept, for `sinceTime`; undefined before any. */
  get lastTimestampMs(): number | undefined {
    return Number.isNaN(this.lastAt) ? undefined : this.lastAt;
  }

  /** Call when a new stream starts from `sinceTime`: its first lines may repeat the last second. */
  resume(): void {
    this.resuming = true;
    this.pending = new Map(this.lastSecond);
  }

  /** True when `line` should be shown; records it as kept. */
  accept(line: TimestampedLine): boolean {
    if (line.timestamp === undefined) return true;
    if (this.resuming) {
      if (line.at < this.lastSecondStart) return false;
      const key = keyOf(line);
      const left = this.pending.get(key) ?? 0;
      if (left > 0) {
        this.pending.set(key, left - 1);
        return false;
      }
      if (line.at < this.lastAt) return false;
      this.resuming = false;
      this.pending.clear();
    }
    this.keep(line);
    return true;
  }

  private keep(line: TimestampedLine): void {
    const secondStart = Math.floor(line.at / 1000) * 1000;
    if (secondStart !== this.lastSecondStart) {
      this.lastSecond = new Map();
      this.lastSecondStart = secondStart;
    }
    const key = keyOf(line);
    this.lastSecond.set(key, (this.lastSecond.get(key) ?? 0) + 1);
    if (Number.isNaN(this.lastAt) || line.at > this.lastAt) this.lastAt = line.at;
  }
}

function keyOf(line: TimestampedLine): string {
  return `${line.timestamp}\u0000${line.text}`;
}
