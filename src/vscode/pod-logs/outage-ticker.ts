import type { Clock, TimerHandle } from '../../base';
import { OutageLine } from '../../ui/logs';

/**
 * An OutageLine on a terminal: writes go around the open outage line, and its countdown ticks
 * each second while some stream fails. Invariant: at most one timer, none once no stream fails
 * or after `dispose()`.
 */
export class OutageTicker {
  private readonly line = new OutageLine();
  private timer: TimerHandle | undefined;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly out: (text: string) => void,
  ) {}

  /** The terminal's width in characters: the open line is cut to it, so that it never wraps. */
  setColumns(columns: number): void {
    this.line.columns = columns;
  }

  get activeTimers(): number {
    return this.timer ? 1 : 0;
  }

  /** Text of `stream` (a line or a marker): the stream reads again, so its failure ends. */
  write(stream: string, text: string): void {
    if (this.disposed) return;
    const now = this.clock.now();
    this.out(this.line.recovered(stream, now) + this.line.clear() + text + this.line.redraw(now));
    this.arm();
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
