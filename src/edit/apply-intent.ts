import { stringifyExactJson } from '../base';
import type { FieldPath } from './field-path';
import { LAST_APPLIED_ANNOTATION } from './editable-object';
import { concretePath, fieldsV1Leaves, fieldsV1Touches, isMap, keyByName, keyedValueAt, keysOf, schemaPath, setKeyedValue, type KeyedPath, type KeyedSegment, type ListKeys } from './keyed-path';

/**
 * What a server-side apply of an edit sends: the user's intent, never the whole buffer.
 * Server-side apply makes the applier the owner of every field in its configuration, and treats
 * a field it applied before and leaves out now as one to remove; so (measured on kube-apiserver
 * 1.34) the configuration is:
 * - the fields the user changed between the edit's base and the buffer, with their parents, list
 *   items named by their merge key (`containers[name="web"]`: only `name` and the changed fields
 *   of the item, so the image stays someone else's);
 * - the fields this manager applied before (its `Apply` entry in managedFields) and the user did
 *   not remove, with their live values, so that an apply does not drop them;
 * - apiVersion, kind, metadata.name, namespace and uid (a uid that is not the live one is refused,
 *   and a deleted object is not created again).
 * A field the user removed goes only where this manager alone applied it: a field another
 * manager also owns cannot be removed by server-side apply (left out, it stays; `null` makes it
 * an empty value, and conflicts): it is reported as kept, with its managers. A change to a field
 * the server removed since the base (a stale buffer) re-adds it: left out unless `reAdd`.
 */

/** A field the user removed that stays, because other managers own it. */
export interface KeptRemoval {
  path: KeyedPath;
  /** As in the live object. */
  field: FieldPath;
  managers: string[];
}

/** A field the server removed since the edit's base, which the user's change would add again. */
export interface ReAdded {
  path: KeyedPath;
  /** As in the buffer. */
  field: FieldPath;
}

export interface ApplyIntent {
  /** The configuration to apply (without resourceVersion: the plan adds the previewed one). */
  configuration: Record<string, unknown>;
  /** Fields the user set or changed (left-out re-adds not counted). */
  changed: KeyedPath[];
  /** Fields the user removed that the apply removes. */
  removed: KeyedPath[];
  kept: KeptRemoval[];
  reAdded: ReAdded[];
}

interface ManagedEntry {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: unknown;
}

export interface IntentInput {
  /** The version the edit started from. */
  base: Record<string, unknown>;
  /** The buffer's object (server fields put back from base). */
  ours: Record<string, unknown>;
  /** The object as the server has it now, managedFields included. */
  live: Record<string, unknown>;
  /** The field manager the apply is sent as. */
  manager: string;
  apiVersion: string;
  kind: string;
  /** Put back the fields the server removed since base that the user changed (W07). */
  reAdd?: boolean;
  /** Merge keys of lists; keyed by `name` unless told. */
  listKeys?: ListKeys;
}

/** Never the user's to apply: identity (sent apart), what the server writes, status (a subresource). */
const NOT_INTENT: readonly (readonly string[])[] = [
  ['apiVersion'],
  ['kind'],
  ['status'],
  ...['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds'].map((k) => ['metadata', k]),
  ['metadata', 'annotations', LAST_APPLIED_ANNOTATION],
];

function startsWith(path: KeyedPath, prefix: KeyedPath): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => stringifyExactJson(path[i]) === stringifyExactJson(s));
}

function intended(path: KeyedPath): boolean {
  return !NOT_INTENT.some((p) => startsWith(path, p));
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    return ka.length === Object.keys(b).filter((k) => b[k] !== undefined).length && ka.every((k) => same(a[k], b[k]));
  }
  return false;
}

/** The keys of a list's items, or undefined when the list is one value (no merge key, or a key repeated). */
function itemKeys(listKeys: ListKeys, path: KeyedPath, before: unknown[], after: unknown[]): ((item: unknown) => KeyedSegment) | undefined {
  const fields = listKeys(schemaPath(path), [...before, ...after]);
  if (!fields || fields.length === 0) return undefined;
  const id = (item: unknown): KeyedSegment => ({ keys: keysOf(item, fields) });
  const unique = (list: unknown[]) => new Set(list.map((i) => stringifyExactJson(id(i)))).size === list.length;
  const complete = (list: unknown[]) => list.every((i) => isMap(i) && fields.every((f) => i[f] !== undefined));
  return unique(before) && unique(after) && complete(before) && complete(after) ? id : undefined;
}

/** The user's changes from `before` to `after`: fields set (whole values where they are new or atomic) and fields removed. */
export function userChanges(before: unknown, after: unknown, listKeys: ListKeys = keyByName, path: KeyedSegment[] = []): { set: KeyedPath[]; removed: KeyedPath[] } {
  const out = { set: [] as KeyedPath[], removed: [] as KeyedPath[] };
  const walk = (b: unknown, a: unknown, at: KeyedSegment[]): void => {
    if (same(b, a) || !intended(at)) return;
    if (a === undefined) return void out.removed.push(at);
    if (b === undefined) return void out.set.push(at);
    if (isMap(b) && isMap(a)) {
      for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) walk(b[k], a[k], [...at, k]);
      return;
    }
    if (Array.isArray(b) && Array.isArray(a)) {
      const id = itemKeys(listKeys, at, b, a);
      if (id) {
        const key = (i: unknown) => stringifyExactJson(id(i));
        for (const item of a) walk(b.find((x) => key(x) === key(item)), item, [...at, id(item)]);
        for (const item of b) if (!a.some((x) => key(x) === key(item))) out.removed.push([...at, id(item)]);
        return;
      }
    }
    out.set.push(at);
  };
  walk(before, after, path);
  return out;
}

/** The shortest part of `path` that `base` has and `live` no longer has, if any. */
function removedOnServer(path: KeyedPath, base: unknown, live: unknown): KeyedPath | undefined {
  for (let i = 1; i <= path.length; i++) {
    const prefix = path.slice(0, i);
    if (keyedValueAt(base, prefix) !== undefined && keyedValueAt(live, prefix) === undefined) return prefix;
  }
  return undefined;
}

/** The configuration of the user's intent (see the file comment). */
export function applyIntent(input: IntentInput): ApplyIntent {
  const { base, ours, live, manager } = input;
  const meta = isMap(live.metadata) ? live.metadata : {};
  const configuration: Record<string, unknown> = { apiVersion: input.apiVersion, kind: input.kind, metadata: { name: meta.name, ...(meta.namespace ? { namespace: meta.namespace } : {}), uid: meta.uid } };
  const changes = userChanges(base, ours, input.listKeys ?? keyByName);
  const entries = (Array.isArray(meta.managedFields) ? meta.managedFields : []) as ManagedEntry[];
  const isMine = (e: ManagedEntry) => e.manager === manager && e.operation === 'Apply' && !e.subresource;
  const userRemoved = (p: KeyedPath) => changes.removed.some((r) => startsWith(p, r));

  // What this manager applied before, as it is now: applying it again changes nothing and keeps it ours.
  for (const e of entries.filter(isMine)) {
    for (const leaf of fieldsV1Leaves(e.fieldsV1)) {
      if (!intended(leaf.path) || userRemoved(leaf.path)) continue;
      const value = keyedValueAt(live, leaf.path);
      if (value === undefined) continue;
      setKeyedValue(configuration, leaf.path, leaf.container ? (Array.isArray(value) ? [] : {}) : value);
    }
  }

  const reAdded: ReAdded[] = [];
  const changed: KeyedPath[] = [];
  for (const p of changes.set) {
    const gone = removedOnServer(p, base, live);
    if (gone && !input.reAdd) {
      if (!reAdded.some((r) => same(r.path, gone))) reAdded.push({ path: gone, field: concretePath(ours, gone) });
      continue;
    }
    if (gone && !reAdded.some((r) => same(r.path, gone))) reAdded.push({ path: gone, field: concretePath(ours, gone) });
    setKeyedValue(configuration, p, keyedValueAt(ours, p));
    changed.push(p);
  }

  const removed: KeyedPath[] = [];
  const kept: KeptRemoval[] = [];
  for (const r of changes.removed) {
    if (keyedValueAt(live, r) === undefined) continue;
    const mine = entries.some((e) => isMine(e) && fieldsV1Touches(e.fieldsV1, r));
    const managers = [...new Set(entries.filter((e) => !isMine(e) && fieldsV1Touches(e.fieldsV1, r)).map((e) => e.manager ?? 'an unnamed manager'))];
    if (mine && managers.length === 0) removed.push(r);
    else kept.push({ path: r, field: concretePath(live, r), managers });
  }
  return { configuration, changed, removed, kept, reAdded };
}
