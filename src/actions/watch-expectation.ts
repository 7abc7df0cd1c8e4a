import type { KubeObject } from '../informer';

/**
 * When the watch shows a write: the object at the answer's resourceVersion or later, or (for a
 * delete or an eviction) the object terminating or gone. resourceVersions are compared as
 * numbers only when both are decimal integers (what etcd-backed servers hand out); otherwise
 * only equality counts. Pure, so the rules are tested alone.
 */
export interface Expectation {
  /** The answer's resourceVersion, when it had one. */
  resourceVersion?: string;
  /** A delete or an eviction: terminating or gone counts. */
  deletion: boolean;
}

/**
 * What the watch shows of `obj` (the object as delivered, `deleted` for a delete event or an
 * object no longer in a synced cache): undefined while it does not show the write yet.
 */
export function watchShows(expect: Expectation, obj: KubeObject | undefined, deleted: boolean): 'version' | 'terminating' | 'deleted' | undefined {
  if (deleted) return expect.deletion ? 'deleted' : expect.resourceVersion !== undefined && obj && atOrAfter(obj.metadata.resourceVersion, expect.resourceVersion) ? 'version' : undefined;
  if (!obj) return undefined;
  if (expect.resourceVersion !== undefined && atOrAfter(obj.metadata.resourceVersion, expect.resourceVersion)) {
    return expect.deletion && obj.metadata.deletionTimestamp ? 'terminating' : 'version';
  }
  if (expect.deletion && expect.resourceVersion === undefined && obj.metadata.deletionTimestamp) return 'terminating';
  return undefined;
}

/** `seen` is `expected` or a later version. */
export function atOrAfter(seen: string | undefined, expected: string): boolean {
  if (seen === undefined) return false;
  if (seen === expected) return true;
  if (/^\d+$/.test(seen) && /^\d+$/.test(expected)) return BigInt(seen) > BigInt(expected);
  return false;
}
