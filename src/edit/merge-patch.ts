import { stringifyExactJson } from '../base';
import type { KubeObject, WriteRequest } from '../informer';
import { sameValue } from './three-way-merge';

/**
 * The save of an edit as a JSON merge patch (RFC 7386, `application/merge-patch+json`), as
 * `kubectl edit` sends it: a PATCH can never create an object (a PUT of a missing ClusterRole,
 * ClusterRoleBinding, Role, RoleBinding, Lease or Endpoints does: allowCreateOnUpdate), so a
 * save of an object deleted meanwhile is a 404, never a re-creation (WRITES.md W03).
 * The patch carries `metadata.resourceVersion` (optimistic concurrency: 409 when the object
 * moved) and `metadata.uid` (the object it was planned for, W02/W04).
 */

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The merge patch that turns `from` into `to`: maps descended into, a key `to` lacks sent as
 * null, every list and scalar that differs sent whole; undefined when they are equal.
 * Keys whose value is undefined count as absent (JSON drops them).
 */
export function mergePatch(from: unknown, to: unknown): unknown {
  // A BigInt beside a rounded double is sent (exact): only the same value is left out (W11).
  if (!isMap(from) || !isMap(to)) return sameValue(from, to, 'different') ? undefined : to;
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    if (from[key] === undefined) patch[key] = value;
    else {
      const sub = mergePatch(from[key], value);
      if (sub !== undefined) patch[key] = sub;
    }
  }
  for (const [key, value] of Object.entries(from)) if (value !== undefined && to[key] === undefined) patch[key] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** What the server writes and a save never sends as a change. */
function withoutServerBookkeeping(obj: KubeObject): unknown {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: undefined, managedFields: undefined, uid: undefined } };
}

/**
 * The PATCH that saves `object` over `live` (the version the write is based on): the merge
 * patch between them, with `live`'s resourceVersion and the uid `uid` the save was planned for.
 */
export function saveRequest(path: string, live: KubeObject, object: KubeObject, uid: string | undefined, fieldManager: string): WriteRequest {
  const patch = (mergePatch(withoutServerBookkeeping(live), withoutServerBookkeeping(object)) ?? {}) as { metadata?: Record<string, unknown> };
  const metadata = { ...(isMap(patch.metadata) ? patch.metadata : {}), resourceVersion: live.metadata.resourceVersion, ...(uid ? { uid } : {}) };
  return { method: 'PATCH', path, query: { fieldManager }, body: stringifyExactJson({ ...patch, metadata }), contentType: 'application/merge-patch+json' };
}

/** The object of a buffer as a create sends it: without what names the old object (uid, resourceVersion, ...). */
export function objectToCreate(object: KubeObject): KubeObject {
  const { uid: _u, resourceVersion: _r, generation: _g, creationTimestamp: _c, selfLink: _l, managedFields: _m, deletionTimestamp: _d, deletionGracePeriodSeconds: _dg, ...metadata } = object.metadata as KubeObject['metadata'] & Record<string, unknown>;
  const { status: _s, ...rest } = object as KubeObject & { status?: unknown };
  return { ...rest, metadata } as KubeObject;
}
