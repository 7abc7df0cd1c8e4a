import { byteOrder, compareEventsNewestFirst, eventLastSeen } from '../printers';
import type { KubeObject } from '../../informer';
import type { MoreNode, ObjectNode, ObjectParent } from './tree-node';

/** Orders names (and namespaces) the way kubectl lists them: by bytes, so `pod-10` before `pod-2`. */
export function compareNames(a: string, b: string): number {
  return byteOrder(a, b);
}

/**
 * The object nodes under one parent, by name (kubectl's order), or newest first for Events.
 * The sorted array is built on demand (when the view asks for children) and dropped when a name
 * comes or goes, or, newest first, when an Event's last-seen time moves; any other update does
 * not touch it, so rows never move while objects change.
 */
export class ObjectContainer {
  private readonly byName = new Map<string, ObjectNode>();
  private sorted: ObjectNode[] | undefined;
  /** Events: newest last-seen first (set by the model from the entry's kind). */
  newestFirst = false;
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

  /**
   * `node`'s object was replaced by a newer one (`previous` before): true when that moved it in
   * the order (the parent's children must be refreshed).
   */
  updated(node: ObjectNode, previous: KubeObject): boolean {
    if (!this.newestFirst || eventLastSeen(previous) === eventLastSeen(node.object)) return false;
    this.sorted = undefined;
    return true;
  }

  values(): IterableIterator<ObjectNode> {
    return this.byName.values();
  }

  /** All nodes in order (cached until the next add or remove; do not mutate). */
  sortedNodes(): readonly ObjectNode[] {
    if (!this.sorted) {
      const nodes = [...this.byName.values()];
      this.sorted = this.newestFirst ? nodes.sort(compareEventsNewestFirst) : nodes.sort((a, b) => compareNames(a.name, b.name));
    }
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
