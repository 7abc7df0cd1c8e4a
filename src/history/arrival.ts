/**
 * How a version reached the cache, and what it did to the object. Decided by the recorder from
 * the informer's lifecycle: deltas between `list-started` and `list-done` come from a list, a
 * delete with `finalStateUnknown` is synthetic (the object vanished while the watch was away).
 */
export type Arrival =
  /** A watch event (ADDED, MODIFIED, DELETED). */
  | 'event'
  /** The informer's first list: the object was already there; not a change. */
  | 'list'
  /** A relist after an expiry, a restart or an outage: intermediate versions may have been missed. */
  | 'relist'
  /** Gone from a relist, or replaced under its name by another uid: the final state is unknown. */
  | 'synthetic-delete';

/** What the version did to the object. */
export type VersionChange = 'added' | 'modified' | 'deleted';

/** Short words for an arrival, for quick picks and titles. */
export function arrivalText(arrival: Arrival): string {
  switch (arrival) {
    case 'event':
      return 'watch event';
    case 'list':
      return 'initial list';
    case 'relist':
      return 'relist';
    case 'synthetic-delete':
      return 'missed delete (final state unknown)';
  }
}
