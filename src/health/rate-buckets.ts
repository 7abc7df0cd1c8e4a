/** One point of an event rate series: the start of its bucket and the changes counted in it. */
export interface RatePoint {
  /** Epoch milliseconds where the bucket starts. */
  at: number;
  /** Bucket width in milliseconds (1,000 or 10,000 by default). */
  widthMs: number;
  adds: number;
  updates: number;
  deletes: number;
}

/** Which kind of change an event is. */
export type ChangeKind = 0 | 1 | 2;
export const ADD: ChangeKind = 0;
export const UPDATE: ChangeKind = 1;
export const DELETE: ChangeKind = 2;

/**
 * Counts of adds, updates and deletes in fixed time buckets held in a ring: `count` buckets of
 * `widthMs` each, so the ring covers the last `count * widthMs`. Fixed memory: three Uint32
 * counters and one bucket number per slot, whatever the event rate.
 *
 * Invariant: slot `i` holds bucket number `index[i]` (time / widthMs), or -1 when unused; a slot
 * whose bucket is older than the ring's span is stale and read as empty.
 */
export class RateRing {
  private readonly counts: Uint32Array;
  private readonly index: Float64Array;

  constructor(
    readonly widthMs: number,
    readonly count: number,
  ) {
    this.counts = new Uint32Array(count * 3);
    this.index = new Float64Array(count).fill(-1);
  }

  /** Counts one change at `at` (epoch ms). O(1). */
  add(at: number, kind: ChangeKind): void {
    const bucket = Math.floor(at / this.widthMs);
    const slot = bucket % this.count;
    if (this.index[slot] !== bucket) {
      this.index[slot] = bucket;
      this.counts[slot * 3] = 0;
      this.counts[slot * 3 + 1] = 0;
      this.counts[slot * 3 + 2] = 0;
    }
    this.counts[slot * 3 + kind]++;
  }

  /**
   * Every bucket starting in [from, to), oldest first, empty buckets included, as per-bucket
   * counts. Buckets outside the ring's span read as zero.
   */
  points(from: number, to: number): RatePoint[] {
    const out: RatePoint[] = [];
    const first = Math.floor(from / this.widthMs);
    const last = Math.ceil(to / this.widthMs); // exclusive
    for (let b = Math.max(first, last - this.count); b < last; b++) {
      const slot = b % this.count;
      const live = this.index[slot] === b;
      out.push({
        at: b * this.widthMs,
        widthMs: this.widthMs,
        adds: live ? this.counts[slot * 3] : 0,
        updates: live ? this.counts[slot * 3 + 1] : 0,
        deletes: live ? this.counts[slot * 3 + 2] : 0,
      });
    }
    return out;
  }

  /** Bytes held (for the memory cap). */
  get bytes(): number {
    return this.counts.byteLength + this.index.byteLength;
  }
}

/** The bucket layout: fine buckets for the recent past, coarse ones up to the window. */
export interface RateLayout {
  fineMs: number;
  /** How far back fine buckets reach. */
  fineSpanMs: number;
  coarseMs: number;
  /** The whole window (coarse buckets reach this far back). */
  windowMs: number;
}

export const DEFAULT_LAYOUT: RateLayout = { fineMs: 1000, fineSpanMs: 10 * 60_000, coarseMs: 10_000, windowMs: 60 * 60_000 };

/**
 * A watch's event rate over the window: every change is counted in a fine ring (1 s buckets,
 * last 10 minutes) and a coarse ring (10 s buckets, the whole window), so a series needs no
 * folding: coarse points before the fine span, fine points within it.
 */
export class RateHistory {
  private readonly fine: RateRing;
  private readonly coarse: RateRing;

  constructor(readonly layout: RateLayout = DEFAULT_LAYOUT) {
    this.fine = new RateRing(layout.fineMs, Math.ceil(layout.fineSpanMs / layout.fineMs) + 1);
    this.coarse = new RateRing(layout.coarseMs, Math.ceil(layout.windowMs / layout.coarseMs) + 1);
  }

  add(at: number, kind: ChangeKind): void {
    this.fine.add(at, kind);
    this.coarse.add(at, kind);
  }

  /**
   * The series from `now - windowMs` to the last complete fine bucket before `now`: coarse
   * buckets up to where fine ones begin (aligned on a coarse boundary), then fine buckets.
   */
  series(now: number): RatePoint[] {
    const { fineMs, fineSpanMs, coarseMs, windowMs } = this.layout;
    const end = Math.floor(now / fineMs) * fineMs; // the current bucket is incomplete: not shown
    const split = Math.ceil((end - fineSpanMs) / coarseMs) * coarseMs;
    const start = Math.floor((now - windowMs) / coarseMs) * coarseMs;
    return [...this.coarse.points(start, split), ...this.fine.points(split, end)];
  }

  get bytes(): number {
    return this.fine.bytes + this.coarse.bytes;
  }
}
