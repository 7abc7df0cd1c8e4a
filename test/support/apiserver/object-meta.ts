/**
 * Server-side metadata of stored objects: uid, creationTimestamp and managedFields, filled the
 * way kube-apiserver does on create and update (transcripts 01, 02).
 * Stored objects never carry kind/apiVersion (list items do not either); they are added when an
 * object is written into a watch event or a single-object response.
 */
import type { KubeObjectJson, ResourceDefinition } from './types';
import { groupVersionOf } from './resources';

/** RFC 3339 at second precision, as metav1.Time marshals. */
export function kubeTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A version-4 UUID drawn from `random` (crypto-grade randomness is not needed in tests). */
export function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

type FieldsV1 = Record<string, unknown>;

/** The FieldsV1 set of a JSON value: `f:key` per object member, `.` for each non-top-level map. */
function fieldsOf(value: Record<string, unknown>, top: boolean): FieldsV1 {
  const out: FieldsV1 = top ? {} : { '.': {} };
  for (const [k, v] of Object.entries(value)) {
    out[`f:${k}`] = v !== null && typeof v === 'object' && !Array.isArray(v) ? fieldsOf(v as Record<string, unknown>, false) : {};
  }
  return out;
}

/** FieldsV1 of everything a client sets: labels/annotations in metadata and every other top-level member but status. */
function managedFieldsSet(obj: KubeObjectJson): FieldsV1 {
  const body: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  if (obj.metadata.labels) meta.labels = obj.metadata.labels;
  if (obj.metadata.annotations) meta.annotations = obj.metadata.annotations;
  if (Object.keys(meta).length > 0) body.metadata = meta;
  for (const [k, v] of Object.entries(obj)) {
    if (k !== 'metadata' && k !== 'kind' && k !== 'apiVersion' && k !== 'status') body[k] = v;
  }
  return fieldsOf(body, true);
}

function managedFieldsEntry(manager: string, def: ResourceDefinition, obj: KubeObjectJson, now: number) {
  return {
    manager,
    operation: 'Update',
    apiVersion: groupVersionOf(def),
    time: kubeTime(now),
    fieldsType: 'FieldsV1',
    fieldsV1: managedFieldsSet(obj),
  };
}

/** Metadata keys in the order the real server writes them. */
const META_ORDER = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

function orderMeta(meta: KubeObjectJson['metadata']): KubeObjectJson['metadata'] {
  const out: Record<string, unknown> = {};
  for (const k of META_ORDER) if (meta[k] !== undefined) out[k] = meta[k];
  for (const [k, v] of Object.entries(meta)) if (!(k in out) && v !== undefined) out[k] = v;
  return out as KubeObjectJson['metadata'];
}

/** Returns a copy of `obj` without kind/apiVersion, `metadata` first, as stored. */
function withoutTypeMeta(obj: KubeObjectJson): KubeObjectJson {
  const { kind: _k, apiVersion: _a, metadata, ...rest } = structuredClone(obj);
  return { metadata, ...rest };
}

/**
 * The object as stored on create: uid, creationTimestamp and a managedFields entry filled,
 * resourceVersion set to `rv`, namespace defaulted ('default') or dropped (cluster-scoped).
 */
export function prepareCreate(def: ResourceDefinition, input: KubeObjectJson, rv: number, random: () => number): KubeObjectJson {
  const obj = withoutTypeMeta(input);
  const now = Date.now();
  const meta = obj.metadata;
  if (def.namespaced) meta.namespace = meta.namespace || 'default';
  else delete meta.namespace;
  meta.uid = uuidFrom(random);
  meta.resourceVersion = String(rv);
  meta.creationTimestamp = kubeTime(now);
  delete meta.deletionTimestamp;
  meta.managedFields = [managedFieldsEntry('kubectl-create', def, obj, now)];
  obj.metadata = orderMeta(meta);
  return obj;
}

/**
 * The object as stored on update: uid and creationTimestamp kept from `prev`, managedFields kept
 * and a `kubectl-edit` entry upserted (unless the caller supplied managedFields), resourceVersion `rv`.
 */
export function prepareUpdate(def: ResourceDefinition, prev: KubeObjectJson, input: KubeObjectJson, rv: number): KubeObjectJson {
  const obj = withoutTypeMeta(input);
  const meta = obj.metadata;
  if (def.namespaced) meta.namespace = prev.metadata.namespace;
  else delete meta.namespace;
  meta.uid = prev.metadata.uid;
  meta.creationTimestamp = prev.metadata.creationTimestamp;
  meta.resourceVersion = String(rv);
  if (!Array.isArray(input.metadata.managedFields)) {
    const kept = (prev.metadata.managedFields ?? []).filter(
      (e) => (e as { manager?: unknown }).manager !== 'kubectl-edit',
    );
    meta.managedFields = [...structuredClone(kept), managedFieldsEntry('kubectl-edit', def, obj, Date.now())];
  }
  obj.metadata = orderMeta(meta);
  return obj;
}

/** A copy of a stored object with `kind` and `apiVersion` first, as in watch events and GET responses. */
export function withTypeMeta(def: ResourceDefinition, obj: KubeObjectJson): KubeObjectJson {
  return { kind: def.kind, apiVersion: groupVersionOf(def), ...structuredClone(obj) };
}

/** A copy of `obj` whose metadata.resourceVersion is `rv` (a DELETED event carries the deletion's RV). */
export function atResourceVersion(obj: KubeObjectJson, rv: number): KubeObjectJson {
  const copy = structuredClone(obj);
  copy.metadata.resourceVersion = String(rv);
  return copy;
}
