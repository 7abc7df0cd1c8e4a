import type { KubeObject } from '../../informer';
import { eventLastSeen } from './event';

/** Newest last-seen first; equal times (and Events without one, last) by name, so ties never flip. */
export function compareEventsNewestFirst(a: { name: string; object: KubeObject }, b: { name: string; object: KubeObject }): number {
  const ta = eventLastSeen(a.object) ?? Number.NEGATIVE_INFINITY;
  const tb = eventLastSeen(b.object) ?? Number.NEGATIVE_INFINITY;
  if (ta !== tb) return tb - ta;
  return byteOrder(a.name, b.name);
}

/**
 * kubectl's order of names (and namespaces): the API server lists in its storage keys' order,
 * `<namespace>/<name>` compared as bytes, and kubectl prints as listed. Code-unit order, as Go
 * compares strings: identical to bytes for the ASCII names Kubernetes allows. A total order, so
 * the order of a set never depends on when its members arrived or changed.
 */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
