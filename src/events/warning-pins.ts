import type { Clock, Disposable } from '../base';
import { subjectKey, type EventRecord, type EventSubject } from './event-record';
import type { EventArrival } from './events-feed';

/** One notification to show: a new warning on a pinned object. */
export interface WarningNotice {
  readonly subject: EventSubject;
  readonly record: EventRecord;
  /** Warnings on the object held back by the rate limit since the last notice. */
  readonly heldBack: number;
}

/** At most one notice per object per this many ms. */
export const PIN_NOTICE_INTERVAL_MS = 60_000;

/**
 * "Pin for Warnings": objects the user asked to hear about. A warning is new when it arrives
 * after the pin, or when an Event that existed at pin time repeats (its count or its last
 * sighting grows); what already existed at pin time is never announced. One notice per object
 * per minute (`intervalMs`): warnings in between are counted into the next notice's `heldBack`.
 *
 * Invariants: no timer (a held-back warning is announced with the next warning after the
 * interval, never later by itself); unpinning forgets the object.
 */
export class WarningPins implements Disposable {
  private readonly pinned = new Map<string, { subject: EventSubject; pinnedAt: number; lastNoticeAt?: number; heldBack: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly notify: (notice: WarningNotice) => void,
    private readonly intervalMs = PIN_NOTICE_INTERVAL_MS,
  ) {}

  pin(subject: EventSubject): void {
    const key = subjectKey(subject);
    if (!this.pinned.has(key)) this.pinned.set(key, { subject, pinnedAt: this.clock.now(), heldBack: 0 });
  }

  unpin(subject: EventSubject): void {
    this.pinned.delete(subjectKey(subject));
  }

  isPinned(subject: EventSubject): boolean {
    return this.pinned.has(subjectKey(subject));
  }

  list(): EventSubject[] {
    return [...this.pinned.values()].map((p) => p.subject);
  }

  /** An event the feed stored (EventsFeed.onDidArrive). */
  arrived({ record, previous }: EventArrival): void {
    if (record.type !== 'Warning' || record.deleted) return;
    const pin = this.pinned.get(subjectKey(record.subject)) ?? this.pinned.get(subjectKey({ ...record.subject, uid: '' }));
    if (!pin) return;
    const repeated = previous !== undefined && (record.count > previous.count || record.lastSeen > previous.lastSeen);
    const fresh = previous === undefined && record.lastSeen >= pin.pinnedAt;
    if (!repeated && !fresh) return;
    const now = this.clock.now();
    if (pin.lastNoticeAt !== undefined && now - pin.lastNoticeAt < this.intervalMs) {
      pin.heldBack++;
      return;
    }
    const heldBack = pin.heldBack;
    pin.lastNoticeAt = now;
    pin.heldBack = 0;
    this.notify({ subject: pin.subject, record, heldBack });
  }

  dispose(): void {
    this.pinned.clear();
  }
}
