/**
 * What the three-way merge needs to know of a type: for each list, how its items are matched
 * across versions (by merge keys, as a set, or not at all: the list is one value), and which maps
 * are one value. A shape is walked along with the object: `field(name)` for a map's field (or a
 * map's value), `item()` for a list's items. Where nothing is known (`undefined`), maps merge key
 * by key and lists are atomic: a list is only ever merged item by item when a schema says how.
 */

/** How a list merges. */
export type ListRule =
  | { kind: 'map'; keys: readonly string[] }
  | { kind: 'set' }
  | { kind: 'atomic' };

export interface MergeShape {
  /** The shape of a field of the map here, or of any value of a map with free keys. */
  field(name: string): MergeShape | undefined;
  /** The shape of the items of the list here. */
  item(): MergeShape | undefined;
  /** How the list here merges. */
  readonly list: ListRule;
  /** The map here is one value (`x-kubernetes-map-type: atomic`). */
  readonly whole: boolean;
}

/**
 * A field of a struct in the generated table (scripts/merge-keys/openapi-merge-keys.ts):
 * - `'core.v1.PodSpec'`: a map of that struct;
 * - `'atomic'`: a map that is one value;
 * - `{ keys, items? }`: a list merged item by item by `keys`, its items of struct `items` (or
 *   `'atomic'`: each item one value);
 * - `{ set: true }`: a list of scalars merged as a set;
 * - `{ values }`: a map with free keys whose values are of struct `values`.
 * A field the table does not name is a map without lists in it, or an atomic list.
 */
export type FieldShapeEntry = string | { keys: readonly string[]; items?: string } | { set: true } | { values: string };

export interface MergeKeysTable {
  /** Struct name → its fields that are keyed lists, sets, atomic maps, or lead to them. */
  structs: Record<string, Record<string, FieldShapeEntry>>;
  /** `apps/v1 Deployment` → the struct of its objects. */
  kinds: Record<string, string>;
}

const ATOMIC_LIST: ListRule = { kind: 'atomic' };
const SET: ListRule = { kind: 'set' };

/** A value that is one whole (a map or a list). */
export const WHOLE: MergeShape = { field: () => undefined, item: () => undefined, list: ATOMIC_LIST, whole: true };

/** Shapes from a generated table, made on demand (the table's structs refer to each other, and to themselves). */
export class TableShapes {
  private readonly made = new Map<string, MergeShape>();

  constructor(private readonly table: MergeKeysTable) {}

  /** The shape of a kind's objects (`apps/v1`, `Deployment`); undefined when the table does not know it. */
  kind(apiVersion: string, kind: string): MergeShape | undefined {
    const struct = this.table.kinds[`${apiVersion} ${kind}`];
    return struct === undefined ? undefined : this.struct(struct);
  }

  /** The shape of a struct of the table (`meta.v1.ObjectMeta`). */
  struct(name: string): MergeShape | undefined {
    if (name === 'atomic') return WHOLE;
    const fields = this.table.structs[name];
    if (!fields) return undefined;
    let shape = this.made.get(name);
    if (!shape) {
      shape = { field: (f) => (Object.hasOwn(fields, f) ? this.entry(fields[f]) : undefined), item: () => undefined, list: ATOMIC_LIST, whole: false };
      this.made.set(name, shape);
    }
    return shape;
  }

  private entry(e: FieldShapeEntry): MergeShape | undefined {
    if (typeof e === 'string') return this.struct(e);
    if ('keys' in e) {
      const items = e.items === undefined ? undefined : this.struct(e.items);
      const list: ListRule = { kind: 'map', keys: e.keys };
      return { field: () => undefined, item: () => items, list, whole: false };
    }
    if ('set' in e) return { field: () => undefined, item: () => undefined, list: SET, whole: false };
    const values = this.struct(e.values);
    return { field: () => values, item: () => undefined, list: ATOMIC_LIST, whole: false };
  }
}
