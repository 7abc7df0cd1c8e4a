import { sameNumber } from '../base';
import { pathKey, type FieldPath, type PathSegment } from './field-path';
import { itemKeys, keyText, mergedOrder } from './list-items';
import type { ListRule, MergeShape } from './merge-keys/merge-shape';

/**
 * The three-way merge of an edit: `base` is the version the edit started from, `theirs` the
 * live object now, `ours` the edited one. Each field takes the side that changed it; a field
 * both changed, to different values, is a conflict. Never a silent overwrite: the merged object
 * of a merge with conflicts keeps `theirs` there, and the conflicts say so.
 *
 * How values compare, field by field, as the object's `shape` says (see merge-keys/merge-shape.ts:
 * strategic merge keys of the built-in types, a CRD's list types):
 * - maps merge key by key (a key one side removed and the other left alone is removed), unless
 *   the shape makes the map one value;
 * - lists with merge keys (containers and env by `name`, volumeMounts by `mountPath`, ports by
 *   `containerPort` and `protocol`, ownerReferences by `uid`, ...) and sets merge item by item,
 *   in the order of the side that reordered, the server's otherwise, each item one side inserted
 *   where that side put it (list-items.ts); a key twice, an item without its key, a reorder on
 *   both sides or an item that cannot be placed makes the whole list a conflict;
 * - every other list (atomic, or of a type the shape does not know), and every scalar, is one
 *   value: equal on both sides, or taken from the side that changed it, or a conflict.
 */

export interface MergeConflict {
  path: FieldPath;
  base: unknown;
  theirs: unknown;
  ours: unknown;
  /** Why a list could not be merged item by item (`name=web appears twice`); absent for a value both sides changed. */
  reason?: string;
}

export interface MergeResult {
  /** The merged object; where there are conflicts, `theirs`' values there. */
  merged: unknown;
  conflicts: MergeConflict[];
  /** Fields the server changed since base (leaf paths; list items by their index in `merged`, or in `theirs` where the merge has no such item). */
  theirsChanged: FieldPath[];
  /** Fields the edit changed since base. */
  oursChanged: FieldPath[];
}

const ABSENT = Symbol('absent');
type Value = unknown;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deep equality of JSON values (key order ignored). `rounded`: whether a BigInt and the double
 * nearest to it count as the same (the watch's copy went through a double, W11), or as different
 * (what is sent must be exact).
 */
export function sameValue(a: unknown, b: unknown, rounded: 'same' | 'different' = 'same'): boolean {
  if (a === b || (rounded === 'same' && sameNumber(a, b))) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i], rounded));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue(a[k], b[k], rounded));
  }
  return false;
}

/**
 * What `changedPaths` assumes of an object whose shape it is not given (notices, summaries): lists
 * of maps with distinct string `name`s by name, every other list as one value.
 */
export const GUESSED_SHAPE: MergeShape = { field: () => GUESSED_SHAPE, item: () => GUESSED_SHAPE, list: { kind: 'map', keys: ['name'] }, whole: false };

/** The keys of `a` that `b` has too, in `a`'s order. */
function common(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  return a.filter((k) => inB.has(k));
}

/** The merge rule of a list that merges item by item; undefined for an atomic one. */
function itemRule(shape: MergeShape | undefined): ListRule | undefined {
  return shape && !shape.whole && shape.list.kind !== 'atomic' ? shape.list : undefined;
}

/**
 * The leaf paths where `a` and `b` differ: maps and lists with keys descended into (list items
 * by their index in `b`, or in `a` when `b` has no such item), a list whose items moved as the
 * list itself.
 */
export function changedPaths(a: unknown, b: unknown, shape: MergeShape | undefined = GUESSED_SHAPE, path: PathSegment[] = []): PathSegment[][] {
  if (sameValue(a, b)) return [];
  if (shape?.whole) return [path];
  if (isMap(a) && isMap(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => changedPaths(a[k], b[k], shape?.field(k), [...path, k]));
  }
  const rule = itemRule(shape);
  if (rule && Array.isArray(a) && Array.isArray(b) && a.length > 0 && b.length > 0) {
    const ka = itemKeys(a, rule);
    const kb = itemKeys(b, rule);
    if ('problem' in ka || 'problem' in kb) return [path];
    const moved = !sameValue(common(ka.keys, kb.keys), common(kb.keys, ka.keys));
    const keys = [...new Set([...ka.keys, ...kb.keys])];
    const items = keys.flatMap((key) => {
      const ia = ka.keys.indexOf(key);
      const ib = kb.keys.indexOf(key);
      return changedPaths(ia >= 0 ? a[ia] : undefined, ib >= 0 ? b[ib] : undefined, shape?.item(), [...path, ib >= 0 ? ib : ia]);
    });
    return moved ? [path, ...items] : items;
  }
  return [path];
}

class Merger {
  readonly conflicts: MergeConflict[] = [];

  merge(base: Value, theirs: Value, ours: Value, path: PathSegment[], shape: MergeShape | undefined): Value {
    // Unchanged on the server first: a watched copy's rounded integer (W11) never hides the user's exact edit.
    if (sameValue(base, theirs)) return ours;
    if (sameValue(base, ours)) return theirs;
    if (sameValue(theirs, ours)) return ours;
    if (!shape?.whole && isMap(theirs) && isMap(ours) && (isMap(base) || base === ABSENT)) return this.mergeMaps(isMap(base) ? base : {}, theirs, ours, path, shape);
    const rule = itemRule(shape);
    if (rule && Array.isArray(theirs) && Array.isArray(ours) && (Array.isArray(base) || base === ABSENT)) return this.mergeList(Array.isArray(base) ? base : [], theirs, ours, path, rule, shape?.item());
    return this.conflict(path, base, theirs, ours);
  }

  private conflict(path: PathSegment[], base: Value, theirs: Value, ours: Value, reason?: string): Value {
    this.conflicts.push({ path, base: absentToUndefined(base), theirs: absentToUndefined(theirs), ours: absentToUndefined(ours), ...(reason ? { reason } : {}) });
    return theirs;
  }

  private mergeMaps(base: Record<string, unknown>, theirs: Record<string, unknown>, ours: Record<string, unknown>, path: PathSegment[], shape: MergeShape | undefined): Value {
    const out: Record<string, unknown> = {};
    const keys = [...Object.keys(theirs), ...Object.keys(ours).filter((k) => !(k in theirs))];
    for (const k of new Set([...keys, ...Object.keys(base)])) {
      const v = this.merge(k in base ? base[k] : ABSENT, k in theirs ? theirs[k] : ABSENT, k in ours ? ours[k] : ABSENT, [...path, k], shape?.field(k));
      if (v !== ABSENT) out[k] = v;
    }
    return out;
  }

  /** A list merged item by item by `rule`'s keys (see the file's comment); the list a conflict when that cannot be done without a guess. */
  private mergeList(base: unknown[], theirs: unknown[], ours: unknown[], path: PathSegment[], rule: ListRule, itemShape: MergeShape | undefined): Value {
    const kb = itemKeys(base, rule);
    const kt = itemKeys(theirs, rule);
    const ko = itemKeys(ours, rule);
    if ('problem' in kb) return this.conflict(path, base, theirs, ours, `in the version your edit started from, ${kb.problem}`);
    if ('problem' in kt) return this.conflict(path, base, theirs, ours, `on the server, ${kt.problem}`);
    if ('problem' in ko) return this.conflict(path, base, theirs, ours, `in your edit, ${ko.problem}`);
    const item = (list: unknown[], keys: string[], key: string): Value => {
      const i = keys.indexOf(key);
      return i >= 0 ? list[i] : ABSENT;
    };
    const merged = new Map<string, Value>();
    for (const key of new Set([...kt.keys, ...ko.keys, ...kb.keys])) {
      const at = kt.keys.includes(key) ? kt.keys.indexOf(key) : ko.keys.includes(key) ? ko.keys.indexOf(key) : kb.keys.indexOf(key);
      const v = this.merge(item(base, kb.keys, key), item(theirs, kt.keys, key), item(ours, ko.keys, key), [...path, at], itemShape);
      if (v !== ABSENT) merged.set(key, v);
    }
    const order = mergedOrder(kb.keys, kt.keys, ko.keys, new Set(merged.keys()), rule.kind === 'set', (k) => keyText(k, rule));
    if ('problem' in order) return this.conflict(path, base, theirs, ours, order.problem);
    return order.order.map((k) => merged.get(k));
  }
}

/** `path` into `from`, with each list index of an item with keys turned into that item's index in `to` (where `to` has it). */
function samePlace(path: FieldPath, from: unknown, to: unknown, shape: MergeShape | undefined): PathSegment[] {
  const out: PathSegment[] = [];
  for (const segment of path) {
    const rule = itemRule(shape);
    let next: PathSegment = segment;
    if (typeof segment === 'number' && rule && Array.isArray(from) && Array.isArray(to)) {
      const kf = itemKeys(from, rule);
      const kt = itemKeys(to, rule);
      const at = 'keys' in kf && 'keys' in kt ? kt.keys.indexOf(kf.keys[segment]) : -1;
      if (at >= 0) next = at;
      else to = undefined;
    }
    out.push(next);
    from = Array.isArray(from) ? from[segment as number] : isMap(from) ? from[segment] : undefined;
    to = Array.isArray(to) ? to[next as number] : isMap(to) ? to[next] : undefined;
    shape = typeof segment === 'number' ? shape?.item() : shape?.field(segment);
  }
  return out;
}

function absentToUndefined(v: Value): unknown {
  return v === ABSENT ? undefined : v;
}

/**
 * Merges the edit (`ours`) onto the live object (`theirs`) from the version it started at
 * (`base`), with the object's `shape` (merge-keys/object-merge-shape.ts; undefined: no list is
 * merged item by item).
 */
export function threeWayMerge(base: unknown, theirs: unknown, ours: unknown, shape: MergeShape | undefined): MergeResult {
  const merger = new Merger();
  const merged = merger.merge(base, theirs, ours, [], shape);
  return {
    merged: absentToUndefined(merged),
    conflicts: merger.conflicts,
    theirsChanged: changedPaths(base, theirs, shape).map((p) => samePlace(p, theirs, merger.conflicts.length > 0 ? theirs : merged, shape)),
    oursChanged: changedPaths(base, ours, shape),
  };
}

/** Conflicts by path, for lookups. */
export function conflictKeys(conflicts: readonly MergeConflict[]): Set<string> {
  return new Set(conflicts.map((c) => pathKey(c.path)));
}
