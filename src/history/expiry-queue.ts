import type { Clock, TimerHandle } from '../base';

/**
 * Items that expire a fixed time after they were added, in the order they were added, with one
 * clock timer for the earliest. An item added again is kept until its latest time; an item
 * that `isCurrent` no longer accepts (revived, already dropped) is passed over.
 * Invariant: at most one timer pending; none after `dispose()` or while empty.
 */
export class ExpiryQueue<T> {
  private items: { item: T; at: number }[] = [];
  private head = 0;
  private timer: TimerHandle | undefined;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private keepMs: number,
    /** Whether an entry added at `at` still stands for the item (the item was not revived or re-added since). */
    private readonly isCurrent: (item: T, at: number) => boolean,
    private readonly expire: (item: T) => void,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  add(item: T, at: number): void {
    this.items.push({ item, at });
    this.arm();
  }

  setKeepMs(keepMs: number): void {
    this.keepMs = keepMs;
    this.timer?.cancel();
    this.timer = undefined;
    this.sweep();
  }

  /** Expires every item that is due now. */
  sweep(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    while (this.head < this.items.length) {
      const { item, at } = this.items[this.head];
      if (at + this.keepMs > now) break;
      this.items[this.head] = undefined as unknown as { item: T; at: number };
      this.head++;
      if (this.isCurrent(item, at)) this.expire(item);
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.items = [];
    this.head = 0;
  }

  private arm(): void {
    if (this.disposed || this.timer || this.head >= this.items.length) return;
    const due = this.items[this.head].at + this.keepMs;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.sweep();
    }, Math.max(0, due - this.clock.now()));
  }
}
