import type { KubeObject } from '../informer';
import { SERVER_FIELDS } from './editable-object';
import { pathText, type FieldPath } from './field-path';
import { changedPaths } from './three-way-merge';

/**
 * How the live object moved on from the version an edit started at, in the words the editor
 * shows: "Changed on the server 12 s ago by kube-controller-manager: 2 fields (data.REVISION,
 * metadata.labels.tier)". The fields are those the user sees (the server's bookkeeping and the
 * hidden server fields are left out); the manager is the field manager (managedFields of the
 * live object) that owns a changed field and wrote last.
 */

export interface ServerChange {
  /** The live resourceVersion. */
  resourceVersion: string;
  /** When the watch delivered the newest change (ms since the epoch). */
  at: number;
  /** The changed fields, as the editor shows the object. */
  fields: FieldPath[];
  /** Every changed field, hidden server fields included (for "Show changes"). */
  allFields: FieldPath[];
  /** The field manager that made the change, when the live object's managedFields tell. */
  manager?: string;
}

/** Never counted: they change with every write. */
const BOOKKEEPING: readonly FieldPath[] = [
  ['metadata', 'resourceVersion'],
  ['metadata', 'managedFields'],
  ['metadata', 'generation'],
];

function under(path: FieldPath, prefixes: readonly FieldPath[]): boolean {
  return prefixes.some((p) => p.length <= path.length && p.every((s, i) => path[i] === s));
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface ManagedEntry {
  manager?: string;
  time?: string;
  fieldsV1?: unknown;
}

/** True when a FieldsV1 tree owns `path` of `obj` (the path, or an atomic ancestor of it). */
function owns(fields: unknown, path: FieldPath, obj: unknown): boolean {
  let node = fields;
  let cur: unknown = obj;
  for (const s of path) {
    if (!isMap(node)) return false;
    const keys = Object.keys(node).filter((k) => k !== '.');
    if (keys.length === 0) return true;
    let key: string;
    if (typeof s === 'number') {
      const item = Array.isArray(cur) ? cur[s] : undefined;
      key = isMap(item) && typeof item.name === 'string' ? `k:${JSON.stringify({ name: item.name })}` : `i:${s}`;
      cur = item;
    } else {
      key = `f:${s}`;
      cur = isMap(cur) ? cur[s] : undefined;
    }
    if (!(key in node)) return false;
    node = node[key];
  }
  return true;
}

/**
 * The manager that changed `fields` of `live`: among the managedFields entries owning one of
 * them, the one written last; undefined when none says.
 */
export function changedBy(live: KubeObject, fields: readonly FieldPath[]): string | undefined {
  const entries = (Array.isArray(live.metadata.managedFields) ? live.metadata.managedFields : []) as ManagedEntry[];
  let best: ManagedEntry | undefined;
  for (const e of entries) {
    if (typeof e.manager !== 'string') continue;
    if (!fields.some((f) => owns(e.fieldsV1, f, live))) continue;
    if (!best || (e.time ?? '') > (best.time ?? '')) best = e;
  }
  return best?.manager;
}

/**
 * The change from `base` to `live`, or undefined when there is none the user would see.
 * `withManagedFields` is the live object as the server has it (the watch drops managedFields);
 * without it the manager is not named.
 */
export function serverChange(base: KubeObject, live: KubeObject, at: number, withManagedFields?: KubeObject): ServerChange | undefined {
  if (live.metadata.resourceVersion === base.metadata.resourceVersion) return undefined;
  const allFields = changedPaths(base, live).filter((p) => !under(p, BOOKKEEPING));
  const fields = allFields.filter((p) => !under(p, SERVER_FIELDS));
  if (allFields.length === 0) return undefined;
  const manager = withManagedFields && withManagedFields.metadata.resourceVersion === live.metadata.resourceVersion ? changedBy(withManagedFields, fields.length > 0 ? fields : allFields) : undefined;
  return { resourceVersion: live.metadata.resourceVersion ?? '', at, fields, allFields, ...(manager ? { manager } : {}) };
}

/** `12 s ago`, `3 min ago`, `2 h ago`. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s ago`;
  return `${agePart(s)} ago`;
}

function agePart(s: number): string {
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h`;
}

/** The notice's text (see the file comment); at most three fields named. */
export function serverChangeText(change: ServerChange, now: number): string {
  const by = change.manager ? ` by ${change.manager}` : '';
  const fields = change.fields.length > 0 ? change.fields : change.allFields;
  const named = fields.slice(0, 3).map(pathText).join(', ') + (fields.length > 3 ? ', …' : '');
  const count = change.fields.length === 0 ? `only server fields (${named})` : `${fields.length} field${fields.length === 1 ? '' : 's'} (${named})`;
  return `Changed on the server ${ageText(now - change.at)}${by}: ${count}`;
}
