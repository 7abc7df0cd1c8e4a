import { Emitter, systemClock, type Clock, type Disposable, type TimerHandle } from '../../base';
import { resourceTypeName, type KubeObject, type TimedLifecycleEvent } from '../../informer';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from '../../manager';
import { compareNames, pageOf } from './object-container';
import {
  emptyWatchMessage,
  objectStatusKey,
  objectTooltip,
  presentMessage,
  presentMore,
  presentNamespaceGroup,
  presentObject,
  presentWatch,
  presentWatchGroup,
  type NodePresentation,
} from './node-presentation';
import { crdPrinterColumns, printerKind, type PrinterColumn } from '../printers';
import { RefreshThrottle } from './refresh-throttle';
import { escapeMarkdown } from './markdown';
import { themeColors } from './tone';
import { NamespaceNode, ObjectNode, ResourceNode, type ObjectRows, type ResourceLayout, type TreeNode } from './tree-node';
import { watchTooltip } from './watch-tooltip';
import { staleDescription, staleExplanation, StalenessTracker, STALE_GRACE_MS, type Staleness } from '../staleness';

/** What the model needs of the watch manager (a WatchManager satisfies it; benchmarks may fake it). */
export interface WatchTreeSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  addHandler(handler: EntryHandler): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  /**
   * The CustomResourceDefinition of an entry's type, as last seen (undefined when the type is
   * built in, or the definitions cannot be read): its printer columns print the objects.
   */
  customResourceDefinition?(entryId: string): KubeObject | undefined;
  /** Fires with the entries whose type's definition changed. */
  onDidChangeDefinitions?(listener: (entryIds: string[]) => void): Disposable;
}

export interface WatchTreeModelOptions {
  /**
   * Time for the refresh throttle, ages and countdowns; default the system clock. Use the
   * manager's clock: "reconnecting in N s" compares it with the entries' retry times.
   */
  clock?: Clock;
  /** Children shown per parent before a "N more…" node; default 500. */
  pageSize?: number;
  /** Least clock time between two refreshes (PERF B5: at most 10 per second); default 100 ms. */
  throttleMs?: number;
  /**
   * Least clock time between two refreshes of a watch's node for a new resourceVersion alone
   * (a refresh re-renders the node's expanded subtree); default 1000 ms. State changes are shown
   * at once.
   */
  watchRefreshMs?: number;
}

/** Counts for the benchmark (PERF B5) and tests. */
export interface RefreshCounters {
  /** onDidChange firings. */
  refreshes: number;
  /** Firings with `undefined` (the whole tree). */
  untargetedRefreshes: number;
  /** Nodes named, summed over targeted firings. */
  nodesRefreshed: number;
}

/** Where one watch entry sits in the tree. */
interface EntryPlace {
  entry: WatchEntry;
  node: ResourceNode;
  /** The node that shows this entry's state: its resource node, or its namespace node in the `watches` layout. */
  watchNode: ResourceNode | NamespaceNode;
}

/** Lifecycle events that move a watch's resourceVersion or statistics without a cache change. */
const STATS_EVENTS = new Set<TimedLifecycleEvent['type']>(['bookmark', 'list-done', 'watch-opened', 'watch-closed', 'expired', 'relist', 'backoff']);

const ONE_SECOND = 1000;

/**
 * The view model of the Watched Resources tree, VS Code-free.
 *
 * Shape: a resource node per (context, resource); under it the objects, or namespace nodes
 * grouping them when all namespaces are watched, or one namespace node per watch when several
 * namespaces are configured (cluster-scoped types are never grouped). Children are sorted by
 * name and paged (`pageSize`, then a "N more…" node).
 *
 * Invariants:
 * - A node instance stands for its id for as long as it is attached; `getChildren` hands out
 *   the same instances, so targeted refreshes reach VS Code.
 * - An event costs O(1): it updates one container and marks nodes dirty. Sorting happens in
 *   `getChildren`, only for parents whose names changed since they were last sorted.
 * - `onDidChange` fires at most once per `throttleMs`, and within `throttleMs` of a change. It
 *   names the nodes whose children or presentation changed; `undefined` only when the set of
 *   resource nodes changed.
 * - After `dispose()` no subscription, timer or listener is left.
 */
export class WatchTreeModel implements Disposable {
  private readonly clock: Clock;
  private readonly pageSize: number;
  private readonly watchRefreshMs: number;
  private readonly resources = new Map<string, ResourceNode>();
  private roots: ResourceNode[] = [];
  private readonly places = new Map<string, EntryPlace>();
  private readonly dirty = new Set<TreeNode>();
  private rootsDirty = false;
  /** Watch nodes whose resourceVersion changed since they were last refreshed. */
  private readonly statsStale = new Set<ResourceNode | NamespaceNode>();
  /** Entries counting down to a retry ("reconnecting in 4 s"). */
  private waiting = new Set<string>();
  /** The countdown's own timer: armed only while no stale tick runs (see syncCountdownTimer). */
  private countdown: TimerHandle | undefined;
  /** Since when, and why, each watch's objects are not live (drawn stale after the grace). */
  private readonly staleness = new StalenessTracker();
  /** Ticks while some watch is down: at the end of its grace, then each second its stale time moves. */
  private staleTimer: TimerHandle | undefined;
  private staleTimerAt = Number.POSITIVE_INFINITY;
  private readonly changes = new Emitter<TreeNode[] | undefined>();
  private readonly throttle: RefreshThrottle;
  private readonly subscriptions: Disposable[];
  private readonly counters: RefreshCounters = { refreshes: 0, untargetedRefreshes: 0, nodesRefreshed: 0 };
  private disposed = false;

  constructor(
    private readonly source: WatchTreeSource,
    options: WatchTreeModelOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.pageSize = Math.max(1, options.pageSize ?? 500);
    this.watchRefreshMs = options.watchRefreshMs ?? ONE_SECOND;
    this.throttle = new RefreshThrottle(this.clock, options.throttleMs ?? 100, () => this.flush());
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => this.upsert(id, obj),
        onUpdate: (id, _old, obj) => this.upsert(id, obj),
        onDelete: (id, obj) => this.remove(id, obj, false),
      }),
      source.onObjectsRemoved((removed) => {
        for (const obj of removed.objects) this.remove(removed.entryId, obj, true);
      }),
      source.onDidChangeEntries((change) => this.entriesChanged(change)),
      source.onLifecycle((id, event) => this.lifecycleEvent(id, event)),
      ...(source.onDidChangeDefinitions ? [source.onDidChangeDefinitions((ids) => this.definitionsChanged(ids))] : []),
    ];
    this.sync();
    // The view asks for the roots when it first shows; nothing to announce yet.
    this.rootsDirty = false;
    this.dirty.clear();
  }

  /** Fires with the nodes to refresh, or `undefined` for the whole tree. */
  onDidChange(listener: (nodes: TreeNode[] | undefined) => void): Disposable {
    return this.changes.on(listener);
  }

  get refreshCounters(): RefreshCounters {
    return { ...this.counters };
  }

  // ---- queries (the TreeDataProvider's side) ----

  /** Children of `node`, or the resource nodes for `undefined`. Sorted, paged. */
  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) return [...this.roots];
    if (!isAttached(node)) return [];
    switch (node.kind) {
      case 'resource':
        return this.resourceChildren(node);
      case 'namespace':
        if (node.container.size === 0) return node.watch ? [node.message] : [];
        return pageOf(node.container.sortedNodes(), node.container.pages, this.pageSize, node.container.more);
      default:
        return [];
    }
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** The row of `node` now. Remembers what an object row showed, so later updates refresh it only when that changes. */
  present(node: TreeNode): NodePresentation {
    const now = this.clock.now();
    switch (node.kind) {
      case 'resource': {
        const entries = this.entriesOf(node);
        if (entries.length === 1) return presentWatch(node.label, entries[0], now, 'resource');
        if (entries.length === 0) return presentMessage(node.label, 'idle');
        return presentWatchGroup(node.label, entries, now);
      }
      case 'namespace': {
        if (!node.watch) return presentNamespaceGroup(node.namespace, node.container.size);
        const entry = this.currentEntry(node.entryId);
        return entry ? presentWatch(node.namespace, entry, now, 'namespace.watch') : presentNamespaceGroup(node.namespace, node.container.size);
      }
      case 'object': {
        const kind = this.printKindOf(node.entryId, node.object);
        const columns = this.columnsOf(node.entryId);
        node.shownKey = objectStatusKey(node.object, kind, columns);
        const row = presentObject(node.object, node.name, kind, now, columns);
        const stale = this.staleness.staleness(node.entryId, now);
        return stale ? staleRow(row, stale, now) : row;
      }
      case 'more':
        return presentMore(node.remaining, this.pageSize);
      case 'message': {
        const id = node.parent.entryId;
        const { text, tone } = emptyWatchMessage(id === undefined ? undefined : this.currentEntry(id));
        return presentMessage(text, tone);
      }
    }
  }

  /** The Markdown tooltip of `node`, computed now (so statistics are fresh when hovered). */
  tooltip(node: TreeNode): string | undefined {
    const now = this.clock.now();
    switch (node.kind) {
      case 'resource':
        return this.entriesOf(node)
          .map((entry) => watchTooltip(entry, now))
          .join('\n\n---\n\n');
      case 'namespace': {
        if (!node.watch) return undefined;
        const entry = this.currentEntry(node.entryId);
        return entry && watchTooltip(entry, now);
      }
      case 'object': {
        const kind = this.printKindOf(node.entryId, node.object);
        const tooltip = objectTooltip(node.object, kind, now, this.columnsOf(node.entryId));
        const stale = this.staleness.staleness(node.entryId, now);
        return stale ? `$(history) **${escapeMarkdown(staleExplanation(stale, now))}**\n\n${tooltip}` : tooltip;
      }
      case 'message':
        return this.present(node).label;
      case 'more':
        return undefined;
    }
  }

  /** The kind of the objects of an entry (from its resolved type; list items may lack `kind`). */
  kindOf(entryId: string, obj?: KubeObject): string | undefined {
    return obj?.kind ?? this.places.get(entryId)?.entry.type?.kind;
  }

  /** The kind to print an entry's objects with (see `printerKind`: a custom `Service` is no core Service). */
  private printKindOf(entryId: string, obj: KubeObject): string | undefined {
    const type = this.places.get(entryId)?.entry.type;
    return type ? printerKind(type) : this.kindOf(entryId, obj);
  }

  /** A custom resource's printer columns (from its CRD, for the entry's version); undefined for built-in types or when unknown. */
  columnsOf(entryId: string): readonly PrinterColumn[] | undefined {
    if (!this.source.customResourceDefinition) return undefined;
    const crd = this.source.customResourceDefinition(entryId);
    const version = this.places.get(entryId)?.entry.type?.version;
    return crd && version ? crdPrinterColumns(crd, version) : undefined;
  }

  /**
   * Since when, and why, the objects of a watch are not live; undefined while it is live or
   * within the grace (STALE_GRACE_MS). The YAML documents share it, so they agree with the tree.
   */
  stalenessOf(entryId: string): Staleness | undefined {
    return this.staleness.staleness(entryId, this.clock.now());
  }

  /** The attached object node of an object, if the tree holds it. */
  findObject(entryId: string, namespace: string, name: string): ObjectNode | undefined {
    const place = this.places.get(entryId);
    return place && this.containerFor(place, namespace, false)?.get(name);
  }

  // ---- commands ----

  /** Shows the next page of the parent of a "N more…" node. */
  loadMore(node: TreeNode): void {
    if (node.kind !== 'more' || !isAttached(node.parent)) return;
    const parent = node.parent;
    if (parent.kind === 'resource' && node === parent.moreNamespaces) parent.namespacePages++;
    else parent.container.pages++;
    this.markDirty(parent);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.throttle.dispose();
    this.countdown?.cancel();
    this.countdown = undefined;
    this.staleTimer?.cancel();
    this.staleTimer = undefined;
    this.changes.dispose();
  }

  // ---- cache changes (hot path: O(1) each) ----

  private upsert(entryId: string, obj: KubeObject): void {
    const place = this.places.get(entryId) ?? this.adopt(entryId);
    if (!place) return;
    const put = this.put(place, entryId, obj);
    if (!put) return;
    if (!put.existing) this.dirty.add(put.container.owner);
    else if (put.moved) this.dirty.add(put.container.owner);
    else if (put.existing.shownKey !== undefined) {
      const kind = this.printKindOf(entryId, obj);
      if (put.existing.shownKey !== objectStatusKey(obj, kind, this.columnsOf(entryId))) this.dirty.add(put.existing);
    }
    this.statsChanged(place);
  }

  /**
   * Puts `obj` into its container under `place`: replaces the object of an existing node, or adds
   * a node. Returns the container and the node replaced (undefined when one was added), or
   * undefined when the object has no place (no name, no container).
   */
  private put(place: EntryPlace, entryId: string, obj: KubeObject): { container: ObjectRows; existing?: ObjectNode; moved?: boolean } | undefined {
    const name = obj.metadata.name;
    if (!name) return undefined;
    const namespace = obj.metadata.namespace ?? '';
    const container = this.containerFor(place, namespace, true);
    if (!container) return undefined;
    container.newestFirst = this.kindOf(entryId, obj) === 'Event';
    const existing = container.get(name);
    if (existing) {
      const previous = existing.object;
      existing.object = obj;
      return { container, existing, moved: container.updated(existing, previous) };
    }
    container.add(new ObjectNode(`${entryId}/${namespace}/${name}`, container.owner, entryId, namespace, name, obj));
    return { container };
  }

  /** `sameUidOnly`: for removals of a discarded informer's objects, which must not take a successor's. */
  private remove(entryId: string, obj: KubeObject, sameUidOnly: boolean): void {
    const place = this.places.get(entryId);
    const name = obj.metadata.name;
    if (!place || !name) return;
    const container = this.containerFor(place, obj.metadata.namespace ?? '', false);
    const node = container?.get(name);
    if (!container || !node) return;
    if (sameUidOnly && obj.metadata.uid && node.object.metadata.uid && obj.metadata.uid !== node.object.metadata.uid) return;
    container.remove(name);
    node.attached = false;
    this.dirty.delete(node);
    const owner = container.owner;
    this.dirty.add(owner);
    if (owner.kind === 'namespace' && !owner.watch && container.size === 0) {
      owner.attached = false;
      place.node.namespaces.delete(owner.namespace);
      place.node.sortedNamespaces = undefined;
      this.dirty.delete(owner);
      this.statsStale.delete(owner);
      this.dirty.add(place.node);
    }
    this.statsChanged(place);
  }

  /** The container for an object of `place`'s entry in `namespace`; creates a namespace group when asked. */
  private containerFor(place: EntryPlace, namespace: string, create: boolean): ObjectRows | undefined {
    const node = place.node;
    switch (node.layout) {
      case 'objects':
        return node.container;
      case 'watches':
        return place.watchNode.kind === 'namespace' ? place.watchNode.container : undefined;
      case 'namespaces': {
        let group = node.namespaces.get(namespace);
        if (!group && create) {
          group = new NamespaceNode(`${place.entry.id}/${namespace}`, node, namespace, place.entry.id, false);
          node.namespaces.set(namespace, group);
          node.sortedNamespaces = undefined;
          this.dirty.add(node);
        }
        return group?.container;
      }
    }
  }

  /** The watch's resourceVersion and counters moved: refresh its node, at most once per `watchRefreshMs`. */
  private statsChanged(place: EntryPlace): void {
    if (!this.dirty.has(place.watchNode)) this.statsStale.add(place.watchNode);
    this.throttle.request();
  }

  /** A definition changed: every object row of those entries may print differently. */
  private definitionsChanged(entryIds: readonly string[]): void {
    for (const id of entryIds) {
      const place = this.places.get(id);
      if (!place) continue;
      this.dirty.add(place.node);
    }
    this.throttle.request();
  }

  private markDirty(node: TreeNode): void {
    this.dirty.add(node);
    this.throttle.request();
  }

  private lifecycleEvent(entryId: string, event: TimedLifecycleEvent): void {
    const place = this.places.get(entryId);
    if (!place) return;
    if (event.type === 'synced') this.markDirty(place.watchNode); // "listing…" becomes "no objects"
    else if (STATS_EVENTS.has(event.type)) this.statsChanged(place);
  }

  // ---- entries (rare: configuration, state) ----

  private entriesChanged(change: EntriesChange): void {
    this.sync();
    for (const id of change.changed) {
      const place = this.places.get(id);
      if (!place) continue;
      this.dirty.add(place.watchNode);
      if (place.watchNode !== place.node) this.dirty.add(place.node);
    }
    this.throttle.request();
  }

  /** An event for an entry the model has not seen yet: read the entries now. */
  private adopt(entryId: string): EntryPlace | undefined {
    if (this.disposed) return undefined;
    this.sync();
    this.throttle.request();
    return this.places.get(entryId);
  }

  /**
   * Brings the resource nodes in line with the manager's entries: creates and retires resource
   * nodes, re-lays out those whose entries or layout changed (moving their objects), seeds new
   * entries from their informers' caches, relabels, and restarts the countdowns.
   */
  private sync(): void {
    const entries = this.source.entries();
    const groups = new Map<string, WatchEntry[]>();
    for (const entry of entries) {
      const key = JSON.stringify([entry.context, entry.resource]);
      const list = groups.get(key);
      if (list) list.push(entry);
      else groups.set(key, [entry]);
    }
    for (const list of groups.values()) list.sort((a, b) => compareNames(a.namespace, b.namespace));

    const moved: [string, KubeObject][] = [];
    let setChanged = false;
    for (const [key, node] of this.resources) {
      const next = groups.get(key);
      if (!next) {
        this.collect(node, moved);
        this.detach(node);
        this.resources.delete(key);
        setChanged = true;
        continue;
      }
      const ids = next.map((e) => e.id);
      const layout = layoutFor(next);
      if (layout !== node.layout || !sameList(ids, node.entryIds)) {
        this.collect(node, moved);
        this.layOut(node, next, layout);
        this.dirty.add(node);
      }
    }
    for (const [key, next] of groups) {
      if (this.resources.has(key)) continue;
      const node = new ResourceNode(`resource:${key}`, next[0].context, next[0].resource);
      this.layOut(node, next, layoutFor(next));
      this.resources.set(key, node);
      setChanged = true;
    }

    const known = new Set(this.places.keys());
    this.places.clear();
    for (const [key, list] of groups) {
      const node = this.resources.get(key);
      if (!node) continue;
      for (const entry of list) {
        const watchNode = node.layout === 'watches' ? node.namespaces.get(entry.namespace) ?? node : node;
        this.places.set(entry.id, { entry, node, watchNode });
      }
    }
    for (const [id, obj] of moved) if (this.places.has(id)) this.upsertQuietly(id, obj);
    for (const [id, place] of this.places) {
      if (known.has(id) || !place.entry.informer) continue;
      for (const obj of place.entry.informer.store.values()) this.upsertQuietly(id, obj);
    }

    const several = new Set(entries.map((e) => e.context)).size > 1;
    for (const [key, node] of this.resources) {
      const label = labelOf(groups.get(key) ?? [], several);
      if (label !== node.label) {
        if (node.label !== '') this.dirty.add(node);
        node.label = label;
      }
    }
    if (setChanged) {
      this.roots = [...groups.keys()].map((k) => this.resources.get(k)).filter((n): n is ResourceNode => n !== undefined);
      this.rootsDirty = true;
    }
    this.restartCountdown(entries);
    this.staleness.observe(entries, this.clock.now());
    this.scheduleStaleTick();
  }

  /** Inserts without scheduling (the caller refreshes the whole resource node). */
  private upsertQuietly(entryId: string, obj: KubeObject): void {
    const place = this.places.get(entryId);
    const put = place && this.put(place, entryId, obj);
    if (put) this.dirty.add(put.container.owner);
  }

  /** Gathers every object under `node` (with its entry) into `out`. */
  private collect(node: ResourceNode, out: [string, KubeObject][]): void {
    for (const n of node.container.values()) out.push([n.entryId, n.object]);
    for (const ns of node.namespaces.values()) for (const n of ns.container.values()) out.push([n.entryId, n.object]);
  }

  /** Empties `node` and gives it `entries` and `layout`; what was under it is detached. */
  private layOut(node: ResourceNode, entries: readonly WatchEntry[], layout: ResourceLayout): void {
    for (const n of node.container.clear()) this.forget(n);
    for (const ns of node.namespaces.values()) {
      for (const n of ns.container.clear()) this.forget(n);
      this.forget(ns);
    }
    node.namespaces.clear();
    node.sortedNamespaces = undefined;
    node.entryIds = entries.map((e) => e.id);
    node.layout = layout;
    if (layout === 'watches') {
      for (const entry of entries) node.namespaces.set(entry.namespace, new NamespaceNode(`${entry.id}/${entry.namespace}`, node, entry.namespace, entry.id, true));
    }
  }

  private detach(node: ResourceNode): void {
    this.layOut(node, [], 'objects');
    this.forget(node);
  }

  private forget(node: ResourceNode | NamespaceNode | ObjectNode): void {
    node.attached = false;
    this.dirty.delete(node);
    if (node.kind !== 'object') this.statsStale.delete(node);
  }

  private resourceChildren(node: ResourceNode): TreeNode[] {
    switch (node.layout) {
      case 'objects':
        if (node.container.size === 0) return [node.message];
        return pageOf(node.container.sortedNodes(), node.container.pages, this.pageSize, node.container.more);
      case 'namespaces':
      case 'watches': {
        if (node.namespaces.size === 0) return [node.message];
        if (!node.sortedNamespaces) node.sortedNamespaces = [...node.namespaces.values()].sort((a, b) => compareNames(a.namespace, b.namespace));
        return pageOf(node.sortedNamespaces, node.namespacePages, this.pageSize, node.moreNamespaces);
      }
    }
  }

  private entriesOf(node: ResourceNode): WatchEntry[] {
    const out: WatchEntry[] = [];
    for (const id of node.entryIds) {
      const entry = this.currentEntry(id);
      if (entry) out.push(entry);
    }
    return out;
  }

  /** The entry as the manager describes it now (its state object is replaced on every change). */
  private currentEntry(id: string): WatchEntry | undefined {
    return this.source.entry(id) ?? this.places.get(id)?.entry;
  }

  // ---- refreshing ----

  private flush(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    let nextStatsDue = Number.POSITIVE_INFINITY;
    for (const node of this.statsStale) {
      const due = node.presentedAt + this.watchRefreshMs;
      if (due <= now) {
        this.dirty.add(node);
        this.statsStale.delete(node);
      } else {
        nextStatsDue = Math.min(nextStatsDue, due);
      }
    }
    if (this.rootsDirty) {
      this.rootsDirty = false;
      this.dirty.clear();
      this.statsStale.clear();
      for (const node of this.roots) node.presentedAt = now;
      this.counters.refreshes++;
      this.counters.untargetedRefreshes++;
      this.changes.fire(undefined);
      return;
    }
    if (this.dirty.size > 0) {
      const nodes: TreeNode[] = [];
      for (const node of this.dirty) if (isAttached(node) && !this.ancestorDirty(node)) nodes.push(node);
      this.dirty.clear();
      if (nodes.length > 0) {
        for (const node of nodes) {
          if (node.kind === 'resource' || node.kind === 'namespace') {
            node.presentedAt = now;
            this.statsStale.delete(node);
          }
        }
        this.counters.refreshes++;
        this.counters.nodesRefreshed += nodes.length;
        this.changes.fire(nodes);
      }
    }
    if (this.statsStale.size > 0 && nextStatsDue !== Number.POSITIVE_INFINITY) this.throttle.request(nextStatsDue);
  }

  /** True when a refresh of an ancestor of `node` is already due (it re-renders `node` too). */
  private ancestorDirty(node: TreeNode): boolean {
    for (let p = node.parent; p; p = p.parent) if (this.dirty.has(p)) return true;
    return false;
  }

  /**
   * Arms the stale timer for the next moment a down watch's rows change: the end of its grace
   * (its objects turn stale, on time), then each whole second of stale time, on one cadence for
   * all: the seconds of the earliest outage. Watches fail milliseconds apart (each has its own
   * `since`); a tick per watch would re-render the tree several times a second, where one tick
   * shows every stale time to the second (each rounded down at that instant). No timer while
   * all are live.
   */
  private scheduleStaleTick(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    const outages = this.staleness.down().filter((id) => this.places.has(id)).map((id) => this.staleness.outage(id)).filter((o): o is Staleness => o !== undefined);
    const anchor = Math.min(...outages.map((o) => o.since));
    let next = Number.POSITIVE_INFINITY;
    for (const outage of outages) {
      const graceEnd = outage.since + STALE_GRACE_MS + 1;
      next = Math.min(next, now < graceEnd ? graceEnd : anchor + (Math.floor((now - anchor) / ONE_SECOND) + 1) * ONE_SECOND + 1);
    }
    if (next === this.staleTimerAt && this.staleTimer) return;
    this.staleTimer?.cancel();
    this.staleTimer = undefined;
    this.staleTimerAt = next;
    if (next !== Number.POSITIVE_INFINITY) this.staleTimer = this.clock.setTimer(() => this.staleTick(), Math.max(0, next - now));
    this.syncCountdownTimer();
  }

  /** Refreshes the subtrees of the stale watches only (their watch node re-renders its objects). */
  private staleTick(): void {
    this.staleTimer = undefined;
    this.staleTimerAt = Number.POSITIVE_INFINITY;
    if (this.disposed) return;
    const now = this.clock.now();
    for (const id of this.staleness.down()) {
      const place = this.places.get(id);
      if (place && this.staleness.staleness(id, now)) this.dirty.add(place.watchNode);
    }
    this.markCountdowns(now);
    if (this.dirty.size > 0) this.throttle.request();
    this.scheduleStaleTick();
  }

  /** Ticks once a second while some watch counts down to a retry, so "reconnecting in N s" and "next try in N s" count. */
  private restartCountdown(entries: readonly WatchEntry[]): void {
    const now = this.clock.now();
    this.waiting = new Set(entries.filter((e) => e.state.phase !== 'watching' && (e.state.nextRetryAt ?? 0) > now).map((e) => e.id));
    this.syncCountdownTimer();
  }

  /**
   * One re-render a second, not two: while a stale tick runs (each second of a down watch's
   * stale time) it counts down too, and the countdown's own timer is off. A refresh re-renders
   * the node's whole subtree, and VS Code closes a row's hover whenever the row re-renders, so
   * two cadences out of phase would leave a stale row's tooltip hardly any time to show.
   */
  private syncCountdownTimer(): void {
    if (this.staleTimer || this.waiting.size === 0 || this.disposed) {
      this.countdown?.cancel();
      this.countdown = undefined;
      return;
    }
    this.countdown ??= this.clock.setTimer(() => this.tick(), ONE_SECOND);
  }

  private tick(): void {
    this.countdown = undefined;
    if (this.disposed) return;
    this.markCountdowns(this.clock.now());
    if (this.dirty.size > 0) this.throttle.request();
    this.syncCountdownTimer();
  }

  /** Marks the nodes of the entries counting down for a refresh; forgets those whose retry is due or that watch again. */
  private markCountdowns(now: number): void {
    for (const id of [...this.waiting]) {
      const place = this.places.get(id);
      const entry = this.source.entry(id);
      if (!place || !entry || entry.state.phase === 'watching' || entry.state.nextRetryAt === undefined) {
        this.waiting.delete(id);
        continue;
      }
      this.dirty.add(place.watchNode);
      if (place.watchNode !== place.node) this.dirty.add(place.node);
      if ((entry.state.nextRetryAt ?? 0) <= now) this.waiting.delete(id);
    }
  }
}

/**
 * An object's row while its watch is down: the same icon, muted, and the description led by
 * "stale 40 s · unreachable" (the row's own fields, ages included, follow).
 */
function staleRow(row: NodePresentation, stale: Staleness, now: number): NodePresentation {
  const description = staleDescription(stale, now);
  return {
    ...row,
    description: row.description ? `${description} · ${row.description}` : description,
    icon: row.icon && { id: row.icon.id, color: themeColors.grey },
  };
}

/** A node is attached while its object, namespace and resource nodes are. */
function isAttached(node: TreeNode): boolean {
  switch (node.kind) {
    case 'resource':
      return node.attached;
    case 'namespace':
      return node.attached && node.parent.attached;
    case 'object':
      return node.attached && isAttached(node.parent);
    case 'more':
    case 'message':
      return isAttached(node.parent);
  }
}

/**
 * Several entries (one per configured namespace): a namespace node each. One entry of a
 * namespaced type over all namespaces: group by namespace. Otherwise the objects themselves.
 */
function layoutFor(entries: readonly WatchEntry[]): ResourceLayout {
  if (entries.length > 1) return 'watches';
  const entry = entries[0];
  if (entry.type?.namespaced === false) return 'objects';
  return entry.namespace === '' ? 'namespaces' : 'objects';
}

/** The resolved type name when known (`pods` for `po`), else the spelling; with the context when several are watched. */
function labelOf(entries: readonly WatchEntry[], severalContexts: boolean): string {
  const first = entries[0];
  if (!first) return '';
  const typed = entries.find((e) => e.type)?.type;
  const name = typed ? resourceTypeName(typed) : first.resource;
  return severalContexts ? `${name} (${first.context || 'current context'})` : name;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
