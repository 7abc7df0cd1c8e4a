import type { Disposable } from '../base';
import type { TimedLifecycleEvent } from '../informer';
import type { EntryHandler, ObjectsRemoved, WatchEntry } from '../manager';
import type { Arrival } from './arrival';
import type { HistoryStore } from './history-store';

/** What recording needs of the watch manager (WatchManager satisfies it). */
export interface HistorySource {
  addHandler(handler: EntryHandler): Disposable;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
  entries(): WatchEntry[];
}

/**
 * Feeds a HistoryStore from the manager's cache changes, telling how each version arrived.
 * An informer's deltas from a list reach handlers synchronously between its `list-started`
 * and `list-done` lifecycle events (the reflector publishes a list in one `store.replace`),
 * so an entry is "listing" in between: its adds and updates arrived by `list` (the first one)
 * or `relist`. A streaming list (WatchList) opens its watch before its objects arrive, so its
 * `watch-opened` does not end the listing; a paginated list's does (its list is over by then).
 * A delete with `finalStateUnknown` is `synthetic-delete` (gone from a relist, or its name taken
 * by another uid); every other change is a watch `event`.
 *
 * Objects already cached when recording starts count as listed at that time.
 */
export function recordHistory(source: HistorySource, store: HistoryStore): Disposable {
  const listing = new Map<string, { arrival: 'list' | 'relist'; streaming: boolean }>();
  const arrivalOf = (entryId: string): Arrival => listing.get(entryId)?.arrival ?? 'event';

  for (const entry of source.entries()) {
    if (!entry.informer) continue;
    store.listStarted(entry.id);
    for (const obj of entry.informer.list()) store.added(entry.id, obj, 'list');
  }

  const handler: EntryHandler = {
    onAdd: (entryId, obj) => store.added(entryId, obj, arrivalOf(entryId)),
    onUpdate: (entryId, old, obj) => store.updated(entryId, obj, arrivalOf(entryId), old),
    onDelete: (entryId, obj, finalStateUnknown) => store.deleted(entryId, obj, finalStateUnknown ? 'synthetic-delete' : 'event'),
  };
  const subscriptions = [
    source.addHandler(handler),
    source.onLifecycle((entryId, event) => {
      switch (event.type) {
        case 'list-started':
          listing.set(entryId, { arrival: event.relist ? 'relist' : 'list', streaming: event.streaming === true });
          if (!event.relist) store.listStarted(entryId);
          break;
        case 'watch-opened':
          if (!listing.get(entryId)?.streaming) listing.delete(entryId);
          break;
        case 'list-done':
        case 'restart':
        case 'stopped':
          listing.delete(entryId);
          break;
      }
    }),
    source.onObjectsRemoved((removed) => store.removed(removed.entryId, removed.objects, removed.reason)),
  ];
  return {
    dispose: () => {
      for (const s of subscriptions) s.dispose();
      listing.clear();
    },
  };
}
