import type { MoreNode, ObjectNode, ObjectParent } from './tree-node';

/** Orders names the way people read them: `pod-2` before `pod-10`. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The object nodes under one parent, by name. The sorted array is built on demand (when the
 * view asks for children) and dropped when a name comes or goes, so an add or delete is O(1)
 * and an update does not touch it at all.
 */
export class ObjectContainer {
  private readonly byName = new Map<string, ObjectNode>();
  private sorted: ObjectNode[] | undefined;
  /** Pages shown; grows with "N more…". */
  pages = 1;

  constructor(
    readonly owner: ObjectParent,
    readonly more: MoreNode,
  ) {}

  get size(): number {
    return this.byName.size;
  }

  get(name: string): ObjectNode | undefined {
    return this.byName.get(name);
  }

  /** Adds a node whose name is not present yet. */
  add(node: ObjectNode): void {
    this.byName.set(node.name, node);
    this.sorted = undefined;
  }

  /** Removes and returns the node of `name`, if any. */
  remove(name: string): ObjectNode | undefined {
    const node = this.byName.get(name);
    if (!node) return undefined;
    this.byName.delete(name);
    this.sorted = undefined;
    return node;
  }

  /** Empties the container and returns what it held. */
  clear(): ObjectNode[] {
    const nodes = [...this.byName.values()];
    this.byName.clear();
    this.sorted = undefined;
    return nodes;
  }

  values(): IterableIterator<ObjectNode> {
    return this.byName.values();
  }

  /** All nodes sorted by name (cached until the next add or remove; do not mutate). */
  sortedNodes(): readonly ObjectNode[] {
    if (!this.sorted) this.sorted = [...this.byName.values()].sort((a, b) => compareNames(a.name, b.name));
    return this.sorted;
  }
}

/**
 * The first `pages * pageSize` of `sorted`, then `more` (its `remaining` updated) when some are
 * left out. O(shown).
 */
export function pageOf<T, M extends { remaining: number }>(sorted: readonly T[], pages: number, pageSize: number, more: M): (T | M)[] {
  const shown = Math.min(sorted.length, Math.max(1, pages) * pageSize);
  const out: (T | M)[] = sorted.slice(0, shown);
  more.remaining = sorted.length - shown;
  if (more.remaining > 0) out.push(more);
  return out;
}
