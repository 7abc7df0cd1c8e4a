/** What the queue needs of a history: a counter it owns. */
export interface Queued {
  /** Entries of this item still in the queue that stand for versions already dropped; -1: the item is gone. */
  skip: number;
}

/**
 * The order in which the memory cap drops versions: oldest first across all histories. One
 * entry per version recorded, pointing at its history (8 bytes); a history's entries stand for
 * its versions in order, so the front entry of a history is its oldest version.
 *
 * A version dropped some other way (the per-object bound, a merged heartbeat, an expired
 * history) leaves its entry behind: the history counts it in `skip`, and the entry is passed
 * over when it reaches the front. Stale entries are swept out by a compaction once they
 * outnumber the live ones, so the queue stays within twice the number of versions kept.
 */
export class EvictionQueue<T extends Queued> {
  private items: T[] = [];
  private head = 0;
  /** Entries put before everything else (their top first): versions older than any queued. */
  private front: T[] = [];
  private stale = 0;

  /** Entries in the queue, stale ones included. */
  get length(): number {
    return this.front.length + this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /**
   * Queues a version older than every version queued so far (a cached object's first version,
   * recorded only when it first changes): it is dropped before them. Must be the item's first entry.
   */
  pushFront(item: T): void {
    this.front.push(item);
  }

  /** One entry of `item` no longer stands for a version. */
  forgetOne(item: T): void {
    if (item.skip >= 0) item.skip++;
    this.noteStale(1);
  }

  /** Every entry of `item` is stale (`count` of them); marks it dropped. */
  forgetAll(item: T, count: number): void {
    item.skip = -1;
    this.noteStale(count);
  }

  /** The history whose version is the oldest of all, its entry consumed; undefined when empty. */
  shift(): T | undefined {
    while (this.front.length > 0 || this.head < this.items.length) {
      let item: T;
      if (this.front.length > 0) {
        item = this.front.pop() as T;
      } else {
        item = this.items[this.head];
        this.items[this.head] = undefined as unknown as T;
        this.head++;
      }
      if (item.skip === -1) {
        this.stale--;
        continue;
      }
      if (item.skip > 0) {
        item.skip--;
        this.stale--;
        continue;
      }
      this.trimFront();
      return item;
    }
    this.items = [];
    this.head = 0;
    this.stale = 0;
    return undefined;
  }

  clear(): void {
    this.items = [];
    this.front = [];
    this.head = 0;
    this.stale = 0;
  }

  private noteStale(count: number): void {
    this.stale += count;
    if (this.stale > 1024 && this.stale * 2 > this.length) this.compact();
  }

  /** Drops the consumed front of the array once it is large. */
  private trimFront(): void {
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Keeps only live entries, in order; every skip counter ends at 0 (or -1 for dropped items). */
  private compact(): void {
    const kept: T[] = [];
    const all = [...this.front.reverse(), ...this.items.slice(this.head)];
    this.front = [];
    for (const item of all) {
      if (item.skip === -1) continue;
      if (item.skip > 0) {
        item.skip--;
        continue;
      }
      kept.push(item);
    }
    this.items = kept;
    this.head = 0;
    this.stale = 0;
  }
}
