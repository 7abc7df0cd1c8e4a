/**
 * The lines a log terminal keeps, for redrawing (timestamps, a filter, a search) and for Save Log
 * As: a ring of at most `capacity` entries, the oldest dropped first. Each entry has a sequence
 * number (0 for the first ever kept), so a position in the log survives the ring moving on.
 *
 * Invariant: `size <= capacity`; the entries held are those numbered `dropped` to `dropped + size - 1`.
 */
export class KeptLog<T> {
  private readonly items: Array<T | undefined>;
  private start = 0;
  private count = 0;
  /** The sequence number of the oldest entry held (entries before it were dropped or cleared). */
  dropped = 0;
  /** How many entries were dropped to stay within `capacity` since the last `clear()`. */
  evicted = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a whole number of at least 1, not ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The sequence number the next entry gets. */
  get nextSeq(): number {
    return this.dropped + this.count;
  }

  /** Keeps `item`, dropping the oldest entry when full; returns its sequence number. */
  push(item: T): number {
    const seq = this.nextSeq;
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
      this.dropped++;
      this.evicted++;
    }
    return seq;
  }

  /** The entry numbered `seq`, if it is still kept. */
  get(seq: number): T | undefined {
    const i = seq - this.dropped;
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.start + i) % this.capacity];
  }

  /** Every entry kept, oldest first, with its sequence number. */
  *entries(): IterableIterator<[number, T]> {
    for (let i = 0; i < this.count; i++) yield [this.dropped + i, this.items[(this.start + i) % this.capacity] as T];
  }

  /** Forgets every entry (a new range starts the log over); sequence numbers go on. */
  clear(): void {
    this.dropped += this.count;
    this.count = 0;
    this.start = 0;
    this.evicted = 0;
    this.items.fill(undefined);
  }
}
