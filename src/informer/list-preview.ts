import type { KubeObject } from './kube-object';

/**
 * What an informer's first list has received so far, while it is in progress (PERF B10: rows
 * within seconds of a list of 100,000 objects). It is the list's own buffer, read in place: no
 * object is copied, and nothing of it outlives the list.
 *
 * Invariants:
 * - It is never the cluster's state: a partial list. The store is untouched until the list is
 *   complete; a preview exists only while the informer has never synced and its store is empty.
 * - Read-only and live: it grows as pages or initial events arrive; callers must neither mutate
 *   nor keep the objects it yields, and must not hold the preview after it ended
 *   (`Informer.onListProgress` fires `undefined` then).
 */
export interface ListPreview {
  /** Objects received so far. */
  readonly size: number;
  /** Each namespace received so far ('' for cluster-scoped objects) with how many objects it has. */
  namespaces(): IterableIterator<[string, number]>;
  /** The objects received so far in `namespace` ('' for cluster-scoped objects). */
  objectsIn(namespace: string): IterableIterator<KubeObject>;
}

/**
 * The objects of a paginated list, page after page, as one array (what `Store.replace` takes),
 * and how many there are per namespace (one number per namespace, not per object).
 */
export class ListBuffer implements ListPreview {
  readonly items: KubeObject[] = [];
  private readonly counts = new Map<string, number>();
  private counted = 0;

  get size(): number {
    return this.items.length;
  }

  /** Counts the items pushed since the last call (after each page). */
  countNew(): void {
    for (; this.counted < this.items.length; this.counted++) {
      const ns = this.items[this.counted].metadata.namespace ?? '';
      this.counts.set(ns, (this.counts.get(ns) ?? 0) + 1);
    }
  }

  namespaces(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }

  *objectsIn(namespace: string): IterableIterator<KubeObject> {
    for (let i = 0; i < this.counted; i++) {
      const obj = this.items[i];
      if ((obj.metadata.namespace ?? '') === namespace) yield obj;
    }
  }
}
