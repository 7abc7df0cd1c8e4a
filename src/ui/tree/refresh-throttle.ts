import type { Clock, Disposable, TimerHandle } from '../../base';

/**
 * Runs `run` at most once per `windowMs` of clock time. The first request after a quiet window
 * runs on the next timer tick (leading edge, so synchronous bursts still coalesce); requests
 * made during a window run once, at its end (trailing edge). So a change is shown at most
 * `windowMs` after it happened, and there are at most 1000 / windowMs runs per second.
 * Invariant: at most one timer is pending; none after `dispose()`.
 */
export class RefreshThrottle implements Disposable {
  private timer: TimerHandle | undefined;
  private dueAt = Number.POSITIVE_INFINITY;
  private lastRunAt = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    /** Least clock time between two runs; may change between runs (the next request uses it). */
    public windowMs: number,
    private readonly run: () => void,
  ) {}

  /**
   * Asks for a run no earlier than `at` (clock time; default now) and no earlier than the window
   * allows (`windowMs`, or a shorter `window` for this request: a change that must show soon).
   */
  request(at: number = this.clock.now(), window: number = this.windowMs): void {
    if (this.disposed) return;
    const due = Math.max(at, this.lastRunAt + Math.min(window, this.windowMs));
    if (this.timer && this.dueAt <= due) return;
    this.timer?.cancel();
    this.dueAt = due;
    this.timer = this.clock.setTimer(() => this.fire(), Math.max(0, due - this.clock.now()));
  }

  /** True while a run is scheduled. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    this.dueAt = Number.POSITIVE_INFINITY;
    if (this.disposed) return;
    this.lastRunAt = this.clock.now();
    this.run();
  }
}
