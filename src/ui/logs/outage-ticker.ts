import type { Clock, TimerHandle } from '../../base/clock';
import { OutageLine } from './outage-line';

/**
 * An OutageLine on a terminal: writes go around the open outage line, and its countdown ticks
 * each second while some stream fails. Invariant: at most one timer, none once no stream fails
 * or after `dispose()`; an outage line that ends is handed to `ended` before the text that ended it.
 */
export class OutageTicker {
  private readonly line: OutageLine;
  private timer: TimerHandle | undefined;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly out: (text: string) => void,
    ended?: (line: string) => void,
  ) {
    this.line = new OutageLine(ended);
  }

  /** The terminal's width in characters: the open line is cut to it, so that it never wraps. */
  setColumns(columns: number): void {
    this.line.columns = columns;
  }

  get activeTimers(): number {
    return this.timer ? 1 : 0;
  }

  /**
   * Text of `stream` (a line or a marker): the stream reads again, so its failure ends. `text` is
   * called after the outage line that ends (if any) was handed on, so both are kept in order.
   */
  write(stream: string, text: string | (() => string)): void {
    if (this.disposed) return;
    const now = this.clock.now();
    const recovered = this.line.recovered(stream, now);
    this.out(recovered + this.line.clear() + (typeof text === 'string' ? text : text()) + this.line.redraw(now));
    this.arm();
  }

  /** The screen drawn again (no stream recovers by it): around the open outage line. */
  paint(text: string): void {
    if (this.disposed || text === '') return;
    this.out(this.line.clear() + text + this.line.redraw(this.clock.now()));
  }

  failed(stream: string, reason: string, nextTryAt: number): void {
    if (this.disposed) return;
    this.out(this.line.failed(stream, reason, nextTryAt, this.clock.now()));
    this.arm();
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(): void {
    if (!this.line.active || this.disposed) {
      this.timer?.cancel();
      this.timer = undefined;
      return;
    }
    this.timer ??= this.clock.setTimer(() => {
      this.timer = undefined;
      if (this.disposed) return;
      this.out(this.line.redraw(this.clock.now()));
      this.arm();
    }, 1000);
  }
}
