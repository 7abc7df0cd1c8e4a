/**
 * What a list or watch selects (namespace, label and field selectors), and how a stored change
 * turns into the watch event a watcher with that selection sees: the watch cache's
 * convertToWatchEvent. An object that starts matching is ADDED, one that stops matching is DELETED
 * (its previous content at the change's resourceVersion), a deletion is DELETED with the deletion's RV.
 */
import type { KubeObjectJson } from './types';
import type { HistoryEvent, ChangeType } from './store';
import type { Matcher } from './selectors';
import { atResourceVersion } from './object-meta';

export interface Predicate {
  /** Only objects of this namespace; undefined = all namespaces. */
  namespace?: string;
  labels: Matcher;
  fields: Matcher;
}

export function matches(p: Predicate, obj: KubeObjectJson): boolean {
  if (p.namespace !== undefined && obj.metadata.namespace !== p.namespace) return false;
  return p.labels(obj) && p.fields(obj);
}

/** The event (type + stored object, not yet copied for the wire) a watcher sees for a change, or undefined. */
export function eventFor(p: Predicate, e: HistoryEvent): { type: ChangeType; object: KubeObjectJson } | undefined {
  const cur = e.type !== 'DELETED' && matches(p, e.object);
  const old = e.prev !== undefined && matches(p, e.prev);
  if (cur && !old) return { type: 'ADDED', object: e.object };
  if (cur && old) return { type: 'MODIFIED', object: e.object };
  if (!cur && old) {
    return { type: 'DELETED', object: e.type === 'DELETED' ? e.object : atResourceVersion(e.prev!, e.rv) };
  }
  return undefined;
}
