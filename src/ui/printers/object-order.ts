import type { KubeObject } from '../../informer';
import { eventLastSeen } from './event';

/**
 * kubectl's order: by namespace, then name, compared as bytes (the API server lists in its
 * storage keys' order, and kubectl prints as listed). A total order on distinct names, so the
 * order of a set never depends on when its members arrived or changed.
 */
export function compareKubectl(a: { namespace: string; name: string }, b: { namespace: string; name: string }): number {
  return byteOrder(a.namespace, b.namespace) || byteOrder(a.name, b.name);
}

/** Newest last-seen first; equal times (and Events without one, last) by name, so ties never flip. */
export function compareEventsNewestFirst(a: { name: string; object: KubeObject }, b: { name: string; object: KubeObject }): number {
  const ta = eventLastSeen(a.object) ?? Number.NEGATIVE_INFINITY;
  const tb = eventLastSeen(b.object) ?? Number.NEGATIVE_INFINITY;
  if (ta !== tb) return tb - ta;
  return byteOrder(a.name, b.name);
}

/** Code-unit order, as Go compares strings (identical to bytes for the ASCII names Kubernetes allows). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
