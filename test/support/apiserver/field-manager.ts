/**
 * A simplified model of the API server's field managers (managedFields), enough for the writes
 * a client makes and for server-side apply conflicts as kube-apiserver 1.34 words them
 * (transcript writes-1.34.md beside this file):
 *
 * - A field is a leaf path: a scalar, an atomic list (one without `name` keys), or an empty map.
 *   List items with a string `name` are keyed by it (`containers[name="web"]`), as the
 *   strategic-merge lists of the built-in types are. Top-level `apiVersion`, `kind`, `status`
 *   and the server's metadata are nobody's; of `metadata` only labels, annotations, finalizers
 *   and ownerReferences are owned.
 * - An update (PUT, or a patch of any kind) by manager M: the fields it added or changed become
 *   M's (its `Update` entry), and no one else's; fields it removed are no one's.
 * - An apply by M: every field of the applied configuration whose value differs from the live
 *   object and that another manager owns is a conflict (409 FieldManagerConflict per field)
 *   unless forced; forced, M takes the field. Fields M applied before and leaves out now are
 *   removed unless someone else owns them. M's `Apply` entry is exactly the applied fields.
 *
 * Not modelled: versions (every entry uses the definition's version), sets, maps of lists,
 * subresources, field-manager time for unchanged applies.
 */
import { kubeTime } from './object-meta';
import type { KubeObjectJson } from './types';

/** One segment of a field path: a map key, or a list item by name. */
type Segment = { key: string } | { name: string };

/** A managedFields entry as the server writes it. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/** One field another manager owns, found while applying. */
export interface ApplyConflict {
  manager: string;
  /** `.data.b`, `.spec.template.spec.containers[name="web"].image`. */
  field: string;
}

const OWNED_METADATA = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences']);

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNamedList(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.length > 0 && v.every((i) => isMap(i) && typeof i.name === 'string');
}

/** `.data.b` / `.spec.containers[name="web"].image` */
export function pathText(path: readonly Segment[]): string {
  return path.map((s) => ('key' in s ? `.${s.key}` : `[name=${JSON.stringify(s.name)}]`)).join('');
}

function walk(value: unknown, path: Segment[], out: Map<string, Segment[]>): void {
  if (isMap(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) out.set(pathText(path), path);
    for (const k of keys) walk(value[k], [...path, { key: k }], out);
  } else if (isNamedList(value)) {
    for (const item of value) walk(item, [...path, { name: item.name as string }], out);
  } else {
    out.set(pathText(path), path);
  }
}

/** The owned leaf fields of an object, by their text. */
export function leafFields(obj: KubeObjectJson | Record<string, unknown>): Map<string, Segment[]> {
  const out = new Map<string, Segment[]>();
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'status') continue;
    if (k === 'metadata') {
      if (!isMap(v)) continue;
      for (const [mk, mv] of Object.entries(v)) if (OWNED_METADATA.has(mk)) walk(mv, [{ key: 'metadata' }, { key: mk }], out);
      continue;
    }
    walk(v, [{ key: k }], out);
  }
  return out;
}

/** The value at `path`, or undefined. */
export function valueAt(obj: unknown, path: readonly Segment[]): unknown {
  let cur: unknown = obj;
  for (const s of path) {
    if ('key' in s) cur = isMap(cur) ? cur[s.key] : undefined;
    else cur = Array.isArray(cur) ? cur.find((i) => isMap(i) && i.name === s.name) : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Sets the value at `path`, creating maps and named list items on the way. */
export function setAt(obj: Record<string, unknown>, path: readonly Segment[], value: unknown): void {
  let cur: Record<string, unknown> = obj;
  path.forEach((s, i) => {
    const last = i === path.length - 1;
    if ('key' in s) {
      if (last) cur[s.key] = structuredClone(value);
      else {
        const next = path[i + 1];
        const want = 'key' in next ? {} : [];
        if ('key' in next ? !isMap(cur[s.key]) : !Array.isArray(cur[s.key])) cur[s.key] = want;
        if ('name' in next) {
          const list = cur[s.key] as Record<string, unknown>[];
          let item = list.find((x) => isMap(x) && x.name === next.name);
          if (!item) list.push((item = { name: next.name }));
        }
        cur = 'key' in next ? (cur[s.key] as Record<string, unknown>) : (cur[s.key] as unknown as Record<string, unknown>);
      }
    } else {
      const list = cur as unknown as Record<string, unknown>[];
      const item = list.find((x) => isMap(x) && x.name === s.name)!;
      if (last) Object.assign(item, structuredClone(value));
      else cur = item;
    }
  });
}

/** Removes the value at `path` (and maps or named items it leaves empty). */
export function removeAt(obj: Record<string, unknown>, path: readonly Segment[]): void {
  if (path.length === 0) return;
  const parentPath = path.slice(0, -1);
  const parent = parentPath.length === 0 ? obj : valueAt(obj, parentPath);
  const last = path[path.length - 1];
  if ('key' in last && isMap(parent)) delete parent[last.key];
  else if ('name' in last && Array.isArray(parent)) {
    const at = parent.findIndex((i) => isMap(i) && i.name === last.name);
    if (at >= 0) parent.splice(at, 1);
  }
  const left = valueAt(obj, parentPath);
  if (parentPath.length > 0 && ((isMap(left) && Object.keys(left).length === 0) || (Array.isArray(left) && left.length === 0))) removeAt(obj, parentPath);
}

function fieldKey(s: Segment): string {
  return 'key' in s ? `f:${s.key}` : `k:${JSON.stringify({ name: s.name })}`;
}

/** FieldsV1 of a set of leaf paths; `withDots` marks the maps and items an Update entry made. */
export function fieldsV1Of(paths: Iterable<readonly Segment[]>, withDots: boolean): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    let node = root;
    path.forEach((s, i) => {
      const key = fieldKey(s);
      if (!isMap(node[key])) node[key] = {};
      const child = node[key] as Record<string, unknown>;
      // Update entries own the maps and list items they made (`.`), never `metadata` itself.
      if (withDots && i < path.length - 1 && !(i === 0 && 'key' in s && s.key === 'metadata') && !('.' in child)) child['.'] = {};
      node = child;
    });
  }
  return root;
}

/** The leaf paths a FieldsV1 names (`.` marks are not leaves). */
export function pathsOfFieldsV1(fields: unknown, prefix: Segment[] = []): Segment[][] {
  if (!isMap(fields)) return [];
  const out: Segment[][] = [];
  const keys = Object.keys(fields).filter((k) => k !== '.');
  if (keys.length === 0 && prefix.length > 0) return [prefix];
  for (const k of keys) {
    let seg: Segment | undefined;
    if (k.startsWith('f:')) seg = { key: k.slice(2) };
    else if (k.startsWith('k:')) {
      try {
        const parsed = JSON.parse(k.slice(2)) as { name?: unknown };
        if (typeof parsed.name === 'string') seg = { name: parsed.name };
      } catch {
        // not a key we model
      }
    }
    if (seg) out.push(...pathsOfFieldsV1(fields[k], [...prefix, seg]));
  }
  return out;
}

function entriesOf(obj: KubeObjectJson): ManagedFieldsEntry[] {
  const list = obj.metadata.managedFields;
  return Array.isArray(list) ? (structuredClone(list) as ManagedFieldsEntry[]) : [];
}

function withoutPaths(entry: ManagedFieldsEntry, drop: Set<string>): ManagedFieldsEntry | undefined {
  const kept = pathsOfFieldsV1(entry.fieldsV1).filter((p) => !drop.has(pathText(p)));
  if (kept.length === 0) return undefined;
  return { ...entry, fieldsV1: fieldsV1Of(kept, entry.operation === 'Update') };
}

/**
 * managedFields after `manager` updated `prev` into `next` (an object without managedFields of
 * its own): the fields it added or changed are its own, no one else's.
 */
export function managedFieldsAfterUpdate(prev: KubeObjectJson | undefined, next: KubeObjectJson, manager: string, apiVersion: string, now = Date.now()): ManagedFieldsEntry[] {
  const before = prev ? leafFields(prev) : new Map<string, Segment[]>();
  const after = leafFields(next);
  const changed = new Map<string, Segment[]>();
  for (const [text, path] of after) {
    if (!before.has(text) || JSON.stringify(valueAt(prev, path)) !== JSON.stringify(valueAt(next, path))) changed.set(text, path);
  }
  const gone = new Set([...before.keys()].filter((k) => !after.has(k)));
  const drop = new Set([...changed.keys(), ...gone]);
  const entries = prev ? entriesOf(prev) : [];
  const out: ManagedFieldsEntry[] = [];
  let mine: Segment[][] = [];
  for (const e of entries) {
    if (e.manager === manager && e.operation === 'Update' && !e.subresource) {
      mine = pathsOfFieldsV1(e.fieldsV1).filter((p) => !gone.has(pathText(p)));
      continue;
    }
    const kept = withoutPaths(e, drop);
    if (kept) out.push(kept);
  }
  const ownedText = new Set(mine.map(pathText));
  for (const [text, path] of changed) if (!ownedText.has(text)) mine.push(path);
  if (mine.length > 0) out.push({ manager, operation: 'Update', apiVersion, time: kubeTime(now), fieldsType: 'FieldsV1', fieldsV1: fieldsV1Of(mine, true) });
  return out;
}

/**
 * Server-side apply of `applied` (the configuration, already checked for kind and name) by
 * `manager` to `live` (undefined: the object is created). Returns the conflicts (when not
 * forced), or the object to store (without server metadata) and its managedFields.
 */
export function applyConfiguration(
  live: KubeObjectJson | undefined,
  applied: KubeObjectJson,
  manager: string,
  apiVersion: string,
  force: boolean,
  now = Date.now(),
): { conflicts: ApplyConflict[] } | { object: KubeObjectJson; managedFields: ManagedFieldsEntry[] } {
  const fields = leafFields(applied);
  const entries = live ? entriesOf(live) : [];
  const others = entries.filter((e) => !(e.manager === manager && e.operation === 'Apply'));
  const previous = entries.find((e) => e.manager === manager && e.operation === 'Apply');
  const conflicts: ApplyConflict[] = [];
  const taken = new Set<string>();
  for (const [text, path] of fields) {
    if (live && JSON.stringify(valueAt(live, path)) === JSON.stringify(valueAt(applied, path))) continue;
    for (const e of others) {
      if (pathsOfFieldsV1(e.fieldsV1).some((p) => pathText(p) === text)) {
        conflicts.push({ manager: e.manager, field: text });
        taken.add(text);
      }
    }
  }
  if (conflicts.length > 0 && !force) return { conflicts };

  const object = structuredClone(live ?? { metadata: { name: applied.metadata.name } }) as KubeObjectJson;
  delete object.metadata.managedFields;
  const ownedByOthers = new Set(others.flatMap((e) => pathsOfFieldsV1(e.fieldsV1).map(pathText)));
  for (const path of previous ? pathsOfFieldsV1(previous.fieldsV1) : []) {
    const text = pathText(path);
    if (!fields.has(text) && !ownedByOthers.has(text)) removeAt(object, path);
  }
  for (const path of fields.values()) setAt(object as Record<string, unknown>, path, valueAt(applied, path));
  for (const [k, v] of Object.entries(applied.metadata)) if (!OWNED_METADATA.has(k) && k !== 'managedFields' && object.metadata[k] === undefined) object.metadata[k] = v;

  const changed = new Set([...fields.keys()].filter((t) => !live || JSON.stringify(valueAt(live, fields.get(t)!)) !== JSON.stringify(valueAt(applied, fields.get(t)!))));
  const managedFields: ManagedFieldsEntry[] = [];
  for (const e of others) {
    const kept = withoutPaths(e, new Set([...taken, ...changed]));
    if (kept) managedFields.push(kept);
  }
  if (fields.size > 0) managedFields.unshift({ manager, operation: 'Apply', apiVersion, time: kubeTime(now), fieldsType: 'FieldsV1', fieldsV1: fieldsV1Of(fields.values(), false) });
  return { object, managedFields };
}

/** The 409 message of apply conflicts, grouped by manager as the real server words it. */
export function applyConflictMessage(conflicts: readonly ApplyConflict[], apiVersion: string): string {
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.field]);
  const n = conflicts.length;
  if (n === 1) return `Apply failed with 1 conflict: conflict with ${JSON.stringify(conflicts[0].manager)} using ${apiVersion}: ${conflicts[0].field}`;
  const parts = [...byManager].map(([m, fields]) => `${fields.length === 1 ? 'conflict' : 'conflicts'} with ${JSON.stringify(m)} using ${apiVersion}:\n${fields.map((f) => `- ${f}`).join('\n')}`);
  return `Apply failed with ${n} conflicts: ${parts.join('\n')}`;
}
