import type { Clock, TimerHandle } from '../../base';

/** One pass over the rows: what it does to a row, whether a row needs it, and how many rows a slice takes. */
export interface PrePass<Row> {
  readonly done: (row: Row) => boolean;
  readonly run: (row: Row) => void;
  /** Rows per slice at most: some milliseconds of work, then the event loop is free again. */
  readonly slice: number;
}

/**
 * A slice also ends once it has run this long (by the clock): on a loaded machine 500 printed rows
 * take 40 ms or more, and a click on a column header waits for the slice in progress (PERF B15).
 */
const SLICE_BUDGET_MS = 8;
/** Rows between two looks at the clock. */
const BUDGET_STRIDE = 25;

/**
 * Prepares a table's rows in the background, a slice at a time, while the table is shown: a quick
 * pass first (the name and namespace sort keys), then the slow one (printing every row), so that
 * the first sort by any column or the first filter keystroke finds the rows ready instead of
 * preparing 100,000 of them while the user waits (PERF B15).
 *
 * Invariants: at most one timer is held; `stop()` drops it; rows that come later are prepared by
 * a later `start()` or when first read; a row a pass is done with is not run again by it; a slice
 * runs at most `slice` rows and about `SLICE_BUDGET_MS`.
 */
export class RowPrePrinter<Row> {
  private timer: TimerHandle | undefined;
  private pass = 0;
  private pending: Iterator<Row> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly rows: () => Iterable<Row>,
    private readonly passes: readonly PrePass<Row>[],
  ) {}

  /** Starts (or restarts from the first pass and row) preparing what is not prepared yet. */
  start(): void {
    this.stop();
    this.pass = 0;
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
      const pass = this.passes[this.pass];
      if (!rows || !pass) return;
      const until = this.clock.now() + SLICE_BUDGET_MS;
      for (let ran = 0; ran < pass.slice; ) {
        const next = rows.next();
        if (next.done) {
          this.pass++;
          this.pending = this.pass < this.passes.length ? this.rows()[Symbol.iterator]() : undefined;
          break;
        }
        if (pass.done(next.value)) continue;
        pass.run(next.value);
        ran++;
        if (ran % BUDGET_STRIDE === 0 && this.clock.now() >= until) break;
      }
      this.schedule();
    }, 0);
  }
}
