import type { Clock, TimerHandle } from '../../base';

/**
 * The rows of a table that went and are fading out: each stays `fadeMs` after it was deleted
 * (marked, so the page draws it fading), then `drop` removes it and `onDropped` says so once per
 * timer. At most one timer is held, for the earliest row due; `dispose()` drops it.
 */
export class RowFades {
  private readonly keys = new Set<string>();
  private timer: TimerHandle | undefined;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly fadeMs: number,
    /** When the row under `key` was deleted, or undefined when it is gone or back. */
    private readonly deletedAt: (key: string) => number | undefined,
    private readonly drop: (key: string) => void,
    private readonly onDropped: () => void,
  ) {}

  /** Rows fading now. */
  get size(): number {
    return this.keys.size;
  }

  add(key: string): void {
    this.keys.add(key);
    this.schedule();
  }

  /** The row came back or is gone: it no longer fades. */
  delete(key: string): void {
    this.keys.delete(key);
  }

  get openHandles(): number {
    return this.timer ? 1 : 0;
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    let due = Number.POSITIVE_INFINITY;
    for (const key of this.keys) due = Math.min(due, (this.deletedAt(key) ?? Number.POSITIVE_INFINITY) + this.fadeMs);
    if (!Number.isFinite(due)) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      const now = this.clock.now();
      for (const key of [...this.keys]) {
        const at = this.deletedAt(key);
        if (at === undefined || now - at >= this.fadeMs) this.drop(key);
      }
      this.schedule();
      this.onDropped();
    }, Math.max(0, due - this.clock.now()));
  }
}
