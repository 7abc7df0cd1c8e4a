import type { Clock, TimerHandle } from '../../base';

/** Rows printed per slice: some milliseconds of work, then the event loop is free again. */
const SLICE = 1000;

/**
 * Prints a table's rows in the background, a slice at a time, while the table is shown, so that
 * the first sort by a printed column (STATUS, RESTARTS, NODE) or the first filter keystroke finds
 * every row printed instead of printing 100,000 of them while the user waits (PERF B15).
 *
 * Invariants: at most one timer is held; `stop()` drops it; rows that come later are printed by
 * a later `start()` or when first read; a row already printed is not printed again here.
 */
export class RowPrePrinter<Row> {
  private timer: TimerHandle | undefined;
  private pending: Iterator<Row> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly rows: () => Iterable<Row>,
    private readonly isPrinted: (row: Row) => boolean,
    private readonly print: (row: Row) => void,
  ) {}

  /** Starts (or restarts from the first row) printing what is not printed yet. */
  start(): void {
    this.pending = this.rows()[Symbol.iterator]();
    this.schedule();
  }

  /** Starts while the table is shown, stops while hidden. */
  setRunning(running: boolean): void {
    if (running) this.start();
    else this.stop();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.pending = undefined;
  }

  /** 1 while a slice is due, else 0 (for leak tests). */
  get openHandles(): number {
    return this.timer ? 1 : 0;
  }

  private schedule(): void {
    if (this.timer || !this.pending) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      const rows = this.pending;
      if (!rows) return;
      for (let printed = 0; printed < SLICE; ) {
        const next = rows.next();
        if (next.done) {
          this.pending = undefined;
          return;
        }
        if (this.isPrinted(next.value)) continue;
        this.print(next.value);
        printed++;
      }
      this.schedule();
    }, 0);
  }
}
