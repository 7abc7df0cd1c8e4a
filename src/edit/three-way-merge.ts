import { pathKey, type FieldPath, type PathSegment } from './field-path';

/**
 * The three-way merge of an edit: `base` is the version the edit started from, `theirs` the
 * live object now, `ours` the edited one. Each field takes the side that changed it; a field
 * both changed, to different values, is a conflict. Never a silent overwrite: the merged object
 * of a merge with conflicts keeps `theirs` there, and the conflicts say so.
 *
 * How values compare, field by field:
 * - maps merge key by key (a key one side removed and the other left alone is removed);
 * - lists whose items are maps with a string `name` (containers, env, ports, volumes: the merge
 *   key of the built-in types) merge item by item, by name, in `theirs`' order with items only
 *   `ours` added appended;
 * - every other list, and every scalar, is one value: equal on both sides, or taken from the
 *   side that changed it, or a conflict.
 */

export interface MergeConflict {
  path: FieldPath;
  base: unknown;
  theirs: unknown;
  ours: unknown;
}

export interface MergeResult {
  /** The merged object; where there are conflicts, `theirs`' values there. */
  merged: unknown;
  conflicts: MergeConflict[];
  /** Fields the server changed since base (leaf paths, in `theirs`' terms). */
  theirsChanged: FieldPath[];
  /** Fields the edit changed since base. */
  oursChanged: FieldPath[];
}

const ABSENT = Symbol('absent');
type Value = unknown;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNamedList(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.every((i) => isMap(i) && typeof i.name === 'string');
}

/** Deep equality of JSON values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/** The leaf paths where `a` and `b` differ (maps and named lists descended into). */
export function changedPaths(a: unknown, b: unknown, path: PathSegment[] = []): PathSegment[][] {
  if (sameValue(a, b)) return [];
  if (isMap(a) && isMap(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => changedPaths(a[k], b[k], [...path, k]));
  }
  if (isNamedList(a) && isNamedList(b) && a.length > 0 && b.length > 0) {
    const names = new Set([...a.map((i) => i.name as string), ...b.map((i) => i.name as string)]);
    return [...names].flatMap((name) => {
      const ia = a.findIndex((i) => i.name === name);
      const ib = b.findIndex((i) => i.name === name);
      return changedPaths(ia >= 0 ? a[ia] : undefined, ib >= 0 ? b[ib] : undefined, [...path, ib >= 0 ? ib : ia]);
    });
  }
  return [path];
}

class Merger {
  readonly conflicts: MergeConflict[] = [];

  merge(base: Value, theirs: Value, ours: Value, path: PathSegment[]): Value {
    if (sameValue(theirs, ours)) return theirs;
    if (sameValue(base, ours)) return theirs;
    if (sameValue(base, theirs)) return ours;
    if (isMap(theirs) && isMap(ours) && (isMap(base) || base === ABSENT)) return this.mergeMaps(isMap(base) ? base : {}, theirs, ours, path);
    if (isNamedList(theirs) && isNamedList(ours) && (isNamedList(base) || base === ABSENT)) return this.mergeNamedLists(isNamedList(base) ? base : [], theirs, ours, path);
    this.conflicts.push({ path, base: absentToUndefined(base), theirs: absentToUndefined(theirs), ours: absentToUndefined(ours) });
    return theirs;
  }

  private mergeMaps(base: Record<string, unknown>, theirs: Record<string, unknown>, ours: Record<string, unknown>, path: PathSegment[]): Value {
    const out: Record<string, unknown> = {};
    const keys = [...Object.keys(theirs), ...Object.keys(ours).filter((k) => !(k in theirs))];
    for (const k of new Set([...keys, ...Object.keys(base)])) {
      const v = this.merge(k in base ? base[k] : ABSENT, k in theirs ? theirs[k] : ABSENT, k in ours ? ours[k] : ABSENT, [...path, k]);
      if (v !== ABSENT) out[k] = v;
    }
    return out;
  }

  private mergeNamedLists(base: Record<string, unknown>[], theirs: Record<string, unknown>[], ours: Record<string, unknown>[], path: PathSegment[]): Value {
    const find = (list: Record<string, unknown>[], name: unknown) => list.find((i) => i.name === name) ?? ABSENT;
    const names = [...theirs.map((i) => i.name), ...ours.map((i) => i.name).filter((n) => !theirs.some((t) => t.name === n))];
    const baseOnly = base.map((i) => i.name).filter((n) => !names.includes(n));
    const out: Value[] = [];
    for (const name of [...names, ...baseOnly]) {
      const index = theirs.findIndex((i) => i.name === name);
      const v = this.merge(find(base, name), find(theirs, name), find(ours, name), [...path, index >= 0 ? index : out.length]);
      if (v !== ABSENT) out.push(v);
    }
    return out;
  }
}

function absentToUndefined(v: Value): unknown {
  return v === ABSENT ? undefined : v;
}

/** Merges the edit (`ours`) onto the live object (`theirs`) from the version it started at (`base`). */
export function threeWayMerge(base: unknown, theirs: unknown, ours: unknown): MergeResult {
  const merger = new Merger();
  const merged = merger.merge(base, theirs, ours, []);
  return {
    merged: absentToUndefined(merged),
    conflicts: merger.conflicts,
    theirsChanged: changedPaths(base, theirs),
    oursChanged: changedPaths(base, ours),
  };
}

/** Conflicts by path, for lookups. */
export function conflictKeys(conflicts: readonly MergeConflict[]): Set<string> {
  return new Set(conflicts.map((c) => pathKey(c.path)));
}
