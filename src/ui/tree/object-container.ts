import { byteOrder, compareEventsNewestFirst, eventLastSeen } from '../printers';
import type { KubeObject } from '../../informer';

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
/** What a container holds: a row named after its object, whose object may be replaced. */
export interface ContainedObject {
  readonly name: string;
  readonly object: KubeObject;
}

export class ObjectContainer<Node extends ContainedObject, Owner, More> {
  private readonly byName = new Map<string, Node>();
  private sorted: Node[] | undefined;
  /** Events: newest last-seen first (set by the model from the entry's kind). */
  newestFirst = false;
  /** Pages shown; grows with "N more…". */
  pages = 1;

  constructor(
    readonly owner: Owner,
    readonly more: More,
  ) {}

  get size(): number {
    return this.byName.size;
  }

  get(name: string): Node | undefined {
    return this.byName.get(name);
  }

  /** Adds a node whose name is not present yet. */
  add(node: Node): void {
    this.byName.set(node.name, node);
    this.sorted = undefined;
  }

  /** Removes and returns the node of `name`, if any. */
  remove(name: string): Node | undefined {
    const node = this.byName.get(name);
    if (!node) return undefined;
    this.byName.delete(name);
    this.sorted = undefined;
    return node;
  }

  /** Empties the container and returns what it held. */
  clear(): Node[] {
    const nodes = [...this.byName.values()];
    this.byName.clear();
    this.sorted = undefined;
    return nodes;
  }

  /**
   * `node`'s object was replaced by a newer one (`previous` before): true when that moved it in
   * the order (the parent's children must be refreshed).
   */
  updated(node: Node, previous: KubeObject): boolean {
    if (!this.newestFirst || eventLastSeen(previous) === eventLastSeen(node.object)) return false;
    this.sorted = undefined;
    return true;
  }

  values(): IterableIterator<Node> {
    return this.byName.values();
  }

  /** All nodes in order (cached until the next add or remove; do not mutate). */
  sortedNodes(): readonly Node[] {
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
