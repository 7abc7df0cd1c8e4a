import { Emitter, type Disposable } from '../base';
import { recordBytes, type EventRecord } from './event-record';

/** The default memory bound of the kept events: 8 MiB (about 30,000 events). */
export const DEFAULT_EVENTS_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The events of one context, kept for the session: an Event the server deletes (its 1 h TTL)
 * stays, marked deleted. Within `maxBytes` (estimated per record): when over, the events seen
 * longest ago go first, and `dropped` counts them.
 *
 * Invariants: one record per Event uid; `bytes` is the sum of the kept records' estimates and
 * is at most `maxBytes` after every call (a single record larger than the bound is not kept);
 * the record of the Event just put is dropped only when it is itself the oldest;
 * `dropped` only grows (until `clear`).
 */
export class EventsStore implements Disposable {
  private readonly byUid = new Map<string, { record: EventRecord; bytes: number }>();
  private total = 0;
  private droppedCount = 0;
  private readonly changes = new Emitter<void>();

  constructor(private maxBytes: number = DEFAULT_EVENTS_MAX_BYTES) {}

  get bytes(): number {
    return this.total;
  }

  /** How many events were dropped to stay within the bound. */
  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.byUid.size;
  }

  /** Every kept event, in no particular order. */
  records(): EventRecord[] {
    return [...this.byUid.values()].map((v) => v.record);
  }

  get(uid: string): EventRecord | undefined {
    return this.byUid.get(uid)?.record;
  }

  onDidChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  /** Adds or replaces an event (an update of a series or a count). */
  put(record: EventRecord): void {
    const bytes = recordBytes(record);
    const old = this.byUid.get(record.uid);
    if (old) this.total -= old.bytes;
    this.byUid.set(record.uid, { record, bytes });
    this.total += bytes;
    this.trim();
    this.changes.fire();
  }

  /** The server deleted it: kept, marked deleted (with what it last said when given). */
  markDeleted(uid: string, last?: EventRecord): void {
    const old = this.byUid.get(uid);
    const base = last ?? old?.record;
    if (!base) return;
    if (old) this.total -= old.bytes;
    const record = { ...base, deleted: true };
    const bytes = recordBytes(record);
    this.byUid.set(uid, { record, bytes });
    this.total += bytes;
    this.trim();
    this.changes.fire();
  }

  /** A new bound (the setting changed): dropping at once when it is lower. */
  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
    if (this.trim()) this.changes.fire();
  }

  clear(): void {
    this.byUid.clear();
    this.total = 0;
    this.droppedCount = 0;
    this.changes.fire();
  }

  dispose(): void {
    this.byUid.clear();
    this.total = 0;
    this.changes.dispose();
  }

  /**
   * Drops the events seen longest ago until the bound holds, down to 95% of it so that a full
   * store sorts once per 5% of new events, not once per event; true when some were dropped.
   */
  private trim(): boolean {
    if (this.total <= this.maxBytes) return false;
    const lowWater = this.maxBytes - Math.floor(this.maxBytes / 20);
    const oldest = [...this.byUid.entries()].sort((a, b) => a[1].record.lastSeen - b[1].record.lastSeen);
    let i = 0;
    while (this.total > lowWater && i < oldest.length) {
      const [uid, v] = oldest[i++];
      this.byUid.delete(uid);
      this.total -= v.bytes;
      this.droppedCount++;
    }
    return true;
  }
}
