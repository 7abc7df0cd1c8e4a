import type { KubeObject } from '../informer';

/**
 * When the watch shows a write: the object at the answer's resourceVersion or later, or (for a
 * delete or an eviction) the object gone: its delete event, or another uid under its name
 * ('terminating' is reported too, and is not gone). resourceVersions are compared as
 * numbers only when both are decimal integers (what etcd-backed servers hand out); otherwise
 * only equality counts. Pure, so the rules are tested alone.
 */
export interface Expectation {
  /** The answer's resourceVersion, when it had one. */
  resourceVersion?: string;
  /** A delete or an eviction: gone counts (terminating is reported, and is not gone). */
  deletion: boolean;
  /** The uid of the object written: an object under its name with another uid is not it. */
  uid?: string;
}

/**
 * What the watch shows of `obj` (the object as delivered, `deleted` for a delete event or an
 * object no longer in a synced cache): undefined while it does not show the write yet.
 */
export function watchShows(expect: Expectation, obj: KubeObject | undefined, deleted: boolean): 'version' | 'terminating' | 'deleted' | undefined {
  if (obj && expect.uid && obj.metadata.uid && obj.metadata.uid !== expect.uid) {
    // Another object under the name: ours is gone (a relist that no longer holds its uid), and its delete event is not this one.
    return expect.deletion && !deleted ? 'deleted' : undefined;
  }
  if (deleted) return expect.deletion ? 'deleted' : expect.resourceVersion !== undefined && obj && atOrAfter(obj.metadata.resourceVersion, expect.resourceVersion) ? 'version' : undefined;
  if (!obj) return undefined;
  // A delete is shown by the object going, never by a version of it still there.
  if (expect.deletion) return obj.metadata.deletionTimestamp ? 'terminating' : undefined;
  if (expect.resourceVersion !== undefined && atOrAfter(obj.metadata.resourceVersion, expect.resourceVersion)) return 'version';
  return undefined;
}

/** `seen` is `expected` or a later version. */
export function atOrAfter(seen: string | undefined, expected: string): boolean {
  if (seen === undefined) return false;
  if (seen === expected) return true;
  if (/^\d+$/.test(seen) && /^\d+$/.test(expected)) return BigInt(seen) > BigInt(expected);
  return false;
}
