import { stringifyExactJson } from '../base';
import type { FieldPath, PathSegment } from './field-path';

/**
 * Paths as server-side apply names fields: map keys, and list items by their merge key
 * (`containers[name="web"]`) or, in a set of scalars (`finalizers`), by their value. The same
 * item keeps its path when others are added before it, which an index would not; FieldsV1
 * (managedFields) spells the same segments `f:name`, `k:{"name":"web"}` and `v:"value"`.
 */

/** A map key, a list item by its key fields, or a set item by its value. */
export type KeyedSegment = string | { keys: Readonly<Record<string, unknown>> } | { value: unknown };
export type KeyedPath = readonly KeyedSegment[];

/**
 * The merge key of a list: the fields that identify its items (`['name']` for containers and
 * env), or undefined for a list that is one value (atomic). `listPath` is the list's own path
 * with item segments as `*` (`spec.template.spec.containers`, `spec.template.spec.containers.*.ports`).
 * This is where a table of the built-in types' strategic-merge keys plugs in.
 */
export type ListKeys = (listPath: readonly string[], items: readonly unknown[]) => readonly string[] | undefined;

export function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The default: items that are all maps with a string `name` are keyed by it; every other list is atomic. */
export const keyByName: ListKeys = (_path, items) => (items.length > 0 && items.every((i) => isMap(i) && typeof i.name === 'string') ? ['name'] : undefined);

/** A keyed path's list-path form for `ListKeys`: map keys as they are, items as `*`. */
export function schemaPath(path: KeyedPath): string[] {
  return path.map((s) => (typeof s === 'string' ? s : '*'));
}

/** The key fields' values of `item`. */
export function keysOf(item: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isMap(item)) for (const k of keys) out[k] = item[k];
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return stringifyExactJson(a) === stringifyExactJson(b);
}

/** True when `item` is the one `segment` names. */
function matches(item: unknown, segment: Exclude<KeyedSegment, string>): boolean {
  if ('value' in segment) return same(item, segment.value);
  return isMap(item) && Object.entries(segment.keys).every(([k, v]) => same(item[k], v));
}

/** The index in `list` of the item `segment` names, or -1. */
function indexIn(list: unknown, segment: Exclude<KeyedSegment, string>): number {
  return Array.isArray(list) ? list.findIndex((item) => matches(item, segment)) : -1;
}

/** The value at `path` in `obj`, or undefined. */
export function keyedValueAt(obj: unknown, path: KeyedPath): unknown {
  let cur = obj;
  for (const s of path) {
    if (typeof s === 'string') cur = isMap(cur) ? cur[s] : undefined;
    else {
      const i = indexIn(cur, s);
      cur = i >= 0 ? (cur as unknown[])[i] : undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** The same path with indexes, as the editor's paths are (for `pathText` and buffer lines); as far as it resolves. */
export function concretePath(obj: unknown, path: KeyedPath): FieldPath {
  const out: PathSegment[] = [];
  let cur = obj;
  for (const s of path) {
    if (typeof s === 'string') {
      out.push(s);
      cur = isMap(cur) ? cur[s] : undefined;
      continue;
    }
    const i = indexIn(cur, s);
    if (i < 0) {
      out.push('value' in s ? stringifyExactJson(s.value) : Object.values(s.keys).map(String).join(','));
      cur = undefined;
      continue;
    }
    out.push(i);
    cur = (cur as unknown[])[i];
  }
  return out;
}

/**
 * Sets `value` at `path` in `target`, making the maps, lists and keyed items on the way (a
 * keyed item is made with its key fields, as server-side apply needs them). Mutates `target`.
 */
export function setKeyedValue(target: Record<string, unknown>, path: KeyedPath, value: unknown): void {
  let cur: unknown = target;
  path.forEach((s, at) => {
    const last = at === path.length - 1;
    const next = path[at + 1];
    const fresh = () => (next === undefined ? undefined : typeof next === 'string' ? {} : []);
    if (typeof s === 'string') {
      const map = cur as Record<string, unknown>;
      if (last) map[s] = structuredClone(value);
      else if (map[s] === undefined || (typeof next === 'string' ? !isMap(map[s]) : !Array.isArray(map[s]))) map[s] = fresh();
      cur = map[s];
      return;
    }
    const list = cur as unknown[];
    let i = indexIn(list, s);
    if (last) {
      if (i >= 0) list[i] = structuredClone(value);
      else list.push(structuredClone(value));
      return;
    }
    if (i < 0) {
      list.push('keys' in s ? structuredClone({ ...s.keys }) : structuredClone(s.value));
      i = list.length - 1;
    }
    cur = list[i];
  });
}

/**
 * The fields a FieldsV1 tree owns, as leaves: a node with no children is a value; a node with
 * only `.` is the map or list itself, empty (`container`), not what others put in it.
 */
export function fieldsV1Leaves(fields: unknown, path: KeyedSegment[] = []): { path: KeyedSegment[]; container: boolean }[] {
  if (!isMap(fields)) return [];
  const children = Object.keys(fields).filter((k) => k !== '.');
  if (children.length === 0) return path.length > 0 ? [{ path, container: '.' in fields }] : [];
  const out: { path: KeyedSegment[]; container: boolean }[] = [];
  for (const k of children) {
    const segment = fieldsV1Segment(k);
    if (segment === undefined) {
      // An index (`i:0`) or an unknown spelling: the list it is in counts as one value.
      if (path.length > 0 && !out.some((o) => same(o.path, path))) out.push({ path, container: false });
      continue;
    }
    out.push(...fieldsV1Leaves(fields[k], [...path, segment]));
  }
  return out;
}

function fieldsV1Segment(key: string): KeyedSegment | undefined {
  try {
    if (key.startsWith('f:')) return key.slice(2);
    if (key.startsWith('k:')) return { keys: JSON.parse(key.slice(2)) as Record<string, unknown> };
    if (key.startsWith('v:')) return { value: JSON.parse(key.slice(2)) as unknown };
  } catch {
    // not JSON: not a spelling we know
  }
  return undefined;
}

/** True when the FieldsV1 tree `fields` owns `path` or something under it (or an atomic value above it). */
export function fieldsV1Touches(fields: unknown, path: KeyedPath): boolean {
  let node = fields;
  for (const s of path) {
    if (!isMap(node)) return false;
    const children = Object.keys(node).filter((k) => k !== '.');
    if (children.length === 0) return true;
    const key = children.find((k) => {
      const seg = fieldsV1Segment(k);
      if (seg === undefined) return false;
      if (typeof s === 'string' || typeof seg === 'string') return seg === s;
      if ('keys' in s && 'keys' in seg) return same(Object.entries(s.keys).sort(), Object.entries(seg.keys).sort());
      return 'value' in s && 'value' in seg && same(s.value, seg.value);
    });
    if (key === undefined) return false;
    node = node[key];
  }
  return true;
}

/** `metadata.labels.tier`, `spec.template.spec.containers[name=web].env[name=LOG]`: a keyed path in words. */
export function keyedPathText(path: KeyedPath): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'string') out += /^[A-Za-z_$][\w$-]*$/.test(s) ? (out === '' ? s : `.${s}`) : `[${s}]`;
    else if ('value' in s) out += `[${stringifyExactJson(s.value)}]`;
    else out += `[${Object.entries(s.keys).map(([k, v]) => `${k}=${typeof v === 'string' ? v : stringifyExactJson(v)}`).join(',')}]`;
  }
  return out;
}
