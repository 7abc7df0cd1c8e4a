/**
 * The object store: current objects of every resource, one global resourceVersion counter and
 * one bounded history of changes shared by all resources (like etcd's revision log).
 *
 * Invariants:
 * - `rv` only grows; every create/update/delete takes the next value and appends one event.
 * - The history holds every event with rv > `oldestRv` (and only those), in rv order; so the
 *   state of any resource at any revision N >= `oldestRv` can be rebuilt by undoing the newer events.
 * - Stored objects are never handed out: readers get copies.
 */
import type { KubeObjectJson } from './types';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change. For DELETED, `object` is the last state with the deletion's resourceVersion. */
export interface HistoryEvent {
  rv: number;
  /** Qualified resource name, e.g. `configmaps` or `deployments.apps`. */
  resource: string;
  /** `namespace/name` or `name`. */
  key: string;
  type: ChangeType;
  object: KubeObjectJson;
  /** The state before the change; undefined for ADDED. */
  prev?: KubeObjectJson;
}

export type StoreListener = (event: HistoryEvent) => void;

/** `namespace/name` for namespaced objects, `name` otherwise: the etcd key below the resource prefix. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class ObjectStore {
  private current = 0;
  private oldest = 0;
  private readonly objects = new Map<string, Map<string, KubeObjectJson>>();
  private history: HistoryEvent[] = [];
  /** The change at `oldestRv` itself, once it left the history: etcd still delivers it, without its previous value. */
  private edge: HistoryEvent | undefined;
  private readonly listeners = new Set<StoreListener>();

  constructor(
    initialRv: number,
    private readonly historyLimit: number,
  ) {
    this.current = initialRv;
    this.oldest = initialRv;
  }

  /** The current global resourceVersion. */
  get rv(): number {
    return this.current;
  }

  /** The lowest revision the history can still replay from (every event with rv > oldestRv is kept). */
  get oldestRv(): number {
    return this.oldest;
  }

  /** Takes the next resourceVersion (the caller must then `commit` an event with it). */
  nextRv(): number {
    return this.current + 1;
  }

  /** Stored object (not a copy: callers must not mutate it). */
  peek(resource: string, key: string): KubeObjectJson | undefined {
    return this.objects.get(resource)?.get(key);
  }

  /** Copies of the current objects of a resource. */
  currentObjects(resource: string): Map<string, KubeObjectJson> {
    const m = this.objects.get(resource);
    return new Map([...(m ?? new Map<string, KubeObjectJson>())].map(([k, v]) => [k, structuredClone(v)]));
  }

  /**
   * Applies a change, bumps the RV, appends the event to the history (dropping the oldest beyond
   * the limit) and notifies listeners synchronously.
   */
  commit(event: HistoryEvent): void {
    if (event.rv !== this.current + 1) throw new Error(`store: out-of-order rv ${event.rv} after ${this.current}`);
    let m = this.objects.get(event.resource);
    if (!m) {
      m = new Map();
      this.objects.set(event.resource, m);
    }
    if (event.type === 'DELETED') m.delete(event.key);
    else m.set(event.key, event.object);
    this.current = event.rv;
    this.history.push(event);
    if (this.history.length > this.historyLimit) {
      const drop = this.history.length - this.historyLimit;
      this.edge = this.history[drop - 1];
      this.oldest = this.edge.rv;
      this.history = this.history.slice(drop);
    }
    for (const l of [...this.listeners]) l(event);
  }

  /**
   * The revision moves on without a change here: another resource was written (on a real
   * cluster the apiservers' leases every ~10 s), as a 1.34 watch cache learns from etcd progress
   * notifications. Later changes get higher resourceVersions; nothing is added to the history.
   */
  advance(): void {
    this.current++;
  }

  /** Drops all objects of a resource without events (used when its type goes away). */
  dropResource(resource: string): void {
    this.objects.delete(resource);
  }

  /** Forgets the whole history (etcd compaction at the current revision / a restarted watch cache). */
  compact(): void {
    this.edge = this.history.at(-1)?.rv === this.current ? this.history.at(-1) : undefined;
    this.history = [];
    this.oldest = this.current;
  }

  /**
   * The change at the compacted revision (`oldestRv`), if it was one: etcd's watch from just below
   * that revision still delivers it, but its previous value is gone (a real apiserver without
   * its watch cache then fails the watch with "PrevKv=nil", modern/12).
   */
  get compactedChange(): HistoryEvent | undefined {
    return this.edge?.rv === this.oldest ? this.edge : undefined;
  }

  /** Events of `resource` with rv > `after`, in order; requires after >= oldestRv. */
  eventsSince(resource: string, after: number): HistoryEvent[] {
    return this.history.filter((e) => e.rv > after && e.resource === resource);
  }

  /**
   * The objects of `resource` as they were at revision `at` (the store's own: copy what is handed
   * out), or undefined when `at` is older than the history (`at` < oldestRv) or newer than the
   * current revision.
   */
  snapshot(resource: string, at: number): Map<string, KubeObjectJson> | undefined {
    if (at < this.oldest || at > this.current) return undefined;
    const state = new Map(this.objects.get(resource) ?? []);
    for (let i = this.history.length - 1; i >= 0 && this.history[i].rv > at; i--) {
      const e = this.history[i];
      if (e.resource !== resource) continue;
      if (e.prev === undefined) state.delete(e.key);
      else state.set(e.key, e.prev);
    }
    return state;
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
