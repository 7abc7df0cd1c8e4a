import { systemClock, type Clock, type Disposable } from '../../base';
import type { KubeObject, TimedLifecycleEvent } from '../../informer';
import type { EntriesChange, WatchEntry } from '../../manager';
import { pageOf } from './object-container';
import { emptyWatchMessage, listingRow, presentListingNamespace, objectStatusKey, objectTooltip, presentMessage, presentMore, presentNamespaceGroup, presentObject, presentWatch, presentWatchGroup, type NodePresentation } from './node-presentation';
import { crdPrinterColumns, printerKind, type PrinterColumn } from '../printers';
import { escapeMarkdown } from './markdown';
import { themeColors } from './tone';
import { isAttached, type ObjectNode, type ResourceNode, type TreeNode } from './tree-node';
import { watchTooltip } from './watch-tooltip';
import { staleDescription, staleExplanation, StalenessTracker, type Staleness } from '../staleness';
import { TreeLayout, type EntryPlace } from './tree-layout';
import { TreeRefresh } from './tree-refresh';
import { TreeTicks } from './tree-ticks';
import { TreeFreeze } from './tree-freeze';
import { ListPreviewRows } from './list-preview-rows';
import type { CatchUpView, RefreshCounters, WatchTreeModelOptions, WatchTreeSource } from './tree-source';
import { matching, objectsUnder, rowCount, type RowCount } from './object-count';
import { catchUpText } from '../../health/catch-up';
import type { RowDecorationChange, RowDecorator } from './row-decorator';

export type { CatchUpView, RefreshCounters, WatchTreeModelOptions, WatchTreeSource } from './tree-source';

/** Lifecycle events that move a watch's resourceVersion or statistics without a cache change. */
const STATS_EVENTS = new Set<TimedLifecycleEvent['type']>(['bookmark', 'list-done', 'watch-opened', 'watch-closed', 'expired', 'relist', 'backoff']);

const ONE_SECOND = 1000;

/**
 * The view model of the Watched Resources tree, VS Code-free.
 *
 * Shape: a resource node per (context, resource); under it the objects, or namespace nodes
 * grouping them when all namespaces are watched, or one namespace node per watch when several
 * namespaces are configured (cluster-scoped types are never grouped). Children are sorted by
 * name and paged (`pageSize`, then a "N more…" node). The structure is `TreeLayout`'s, what to
 * re-render and when `TreeRefresh`'s, the stale and countdown ticks `TreeTicks`'.
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
  private readonly pageLength: number;
  /** Since when, and why, each watch's objects are not live (drawn stale after the grace). */
  private readonly staleness = new StalenessTracker();
  private readonly refresh: TreeRefresh;
  private readonly layout: TreeLayout;
  private readonly ticks: TreeTicks;
  private readonly subscriptions: Disposable[];
  private readonly catchUp: CatchUpView | undefined;
  /** While watching is paused: the tree as it was, drawn stale. */
  private readonly freeze = new TreeFreeze();
  private readonly decorator: RowDecorator | undefined;
  /** The rows of first lists in progress, drawn as incomplete. */
  private readonly previews: ListPreviewRows;
  private disposed = false;

  constructor(
    private readonly source: WatchTreeSource,
    options: WatchTreeModelOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.catchUp = options.catchUp;
    this.pageLength = Math.max(1, options.pageSize ?? 500);
    this.refresh = new TreeRefresh(this.clock, options.throttleMs ?? 100, options.watchRefreshMs ?? ONE_SECOND, () => this.layout.roots);
    this.layout = new TreeLayout(this.refresh);
    this.previews = new ListPreviewRows(this.layout, this.refresh, (id) => this.source.entry(id)?.informer?.listPreview);
    this.ticks = new TreeTicks(this.clock, this.staleness, this.layout.places, (id) => this.source.entry(id), this.refresh);
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => this.upsert(id, obj),
        onUpdate: (id, _old, obj) => this.upsert(id, obj),
        onDelete: (id, obj) => !this.freeze.active && this.layout.remove(id, obj, false),
      }),
      source.onObjectsRemoved((removed) => {
        if (this.freeze.active) return;
        for (const obj of removed.objects) this.layout.remove(removed.entryId, obj, true);
      }),
      source.onDidChangeEntries((change) => this.entriesChanged(change)),
      source.onLifecycle((id, event) => this.lifecycleEvent(id, event)),
      ...(source.onListProgress ? [source.onListProgress((id) => this.listProgressed(id))] : []),
      ...(source.onDidChangeDefinitions ? [source.onDidChangeDefinitions((ids) => this.definitionsChanged(ids))] : []),
      ...(this.catchUp ? [this.catchUp.onDidChange((ids) => this.catchUpChanged(ids))] : []),
      ...(options.decorator ? [options.decorator.onDidChange((change) => this.decorationsChanged(change))] : []),
    ];
    this.decorator = options.decorator;
    this.sync();
    // The view asks for the roots when it first shows; nothing to announce yet.
    this.refresh.discardPending();
  }

  /** Fires with the nodes to refresh, or `undefined` for the whole tree. */
  onDidChange(listener: (nodes: TreeNode[] | undefined) => void): Disposable {
    return this.refresh.onDidChange(listener);
  }

  /** Children shown per parent before a "N more…" row. */
  get pageSize(): number {
    return this.pageLength;
  }

  /** True while a watch's row waits for a refresh the model has not fired yet (see TreeRefresh.watchRowPending). */
  get watchRowPending(): boolean {
    return this.refresh.watchRowPending;
  }

  get refreshCounters(): RefreshCounters {
    return this.refresh.refreshCounters;
  }

  // ---- queries (the TreeDataProvider's side) ----

  /** Children of `node`, or the resource nodes for `undefined`. Sorted, paged. */
  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) return [...this.layout.roots];
    if (!isAttached(node)) return [];
    const preview = (node.kind === 'namespace' || (node.kind === 'resource' && node.layout === 'objects')) && this.previews.rowsOf(node);
    if (preview && preview.size > 0) return pageOf(preview.sortedNodes(), node.container.pages, this.pageLength, preview.more);
    switch (node.kind) {
      case 'resource':
        return this.layout.resourceChildren(node, this.pageLength);
      case 'namespace':
        if (node.container.size === 0) return node.watch ? [node.message] : [];
        return pageOf(node.container.sortedNodes(), node.container.pages, this.pageLength, node.container.more);
      default:
        return [];
    }
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /**
   * The row of `node` now. Remembers what an object row showed, so later updates refresh it only
   * when that changes. With `shows` (a resource row's filter), counts say how many it shows: "3 of 17 pods".
   * `shownLabel`: a resource row's label as the view draws it (`pods ("web")`), which the count must fit beside.
   */
  present(node: TreeNode, shows?: (obj: KubeObject) => boolean, shownLabel?: string): NodePresentation {
    const now = this.clock.now();
    switch (node.kind) {
      case 'resource': {
        const entries = this.entriesOf(node);
        if (entries.length === 0) return presentMessage(node.label, 'idle');
        const count = entries.some((e) => e.informer) ? this.countOf(node, objectsUnder(node), this.previews.sizeOf(node.entryIds), shows && objectsUnder(node, shows)) : undefined;
        if (entries.length === 1) return presentWatch(node.label, entries[0], now, 'resource', { count, shownLabel, catchingUp: this.catchingUpText(entries[0].id) });
        return presentWatchGroup(node.label, entries, now, { count, shownLabel, catchingUp: (e) => this.catchingUpText(e.id) });
      }
      case 'namespace': {
        if (!node.watch && node.previewCount !== undefined && node.container.size === 0) return presentListingNamespace(node.namespace, this.countOf(node.parent, node.previewCount).words);
        const count = this.countOf(node.parent, node.container.size, node.watch ? this.previews.sizeOf([node.entryId]) : undefined, shows && matching(node.container, shows));
        if (!node.watch) return presentNamespaceGroup(node.namespace, count.words);
        const entry = this.currentEntry(node.entryId);
        return entry ? presentWatch(node.namespace, entry, now, 'namespace.watch', { count: entry.informer ? count.words : undefined, catchingUp: this.catchingUpText(entry.id) }) : presentNamespaceGroup(node.namespace, count.words);
      }
      case 'object': {
        const kind = this.printKindOf(node.entryId, node.object);
        const columns = this.columnsOf(node.entryId);
        node.shownKey = objectStatusKey(node.object, kind, columns);
        const row = presentObject(node.object, node.name, kind, now, columns);
        if (this.previews.isPreviewRow(node)) return listingRow(row);
        const stale = this.staleness.staleness(node.entryId, now);
        const shown = stale ? staleRow(row, stale, now) : row;
        return this.decorator ? this.decorator.decorate(node, shown) : shown;
      }
      case 'more':
        return presentMore(node.remaining, this.pageLength);
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
        const write = this.decorator?.tooltip(node);
        const withWrite = write ? `${write}\n\n${tooltip}` : tooltip;
        return stale ? `$(history) **${escapeMarkdown(staleExplanation(stale, now))}**\n\n${withWrite}` : withWrite;
      }
      case 'message':
        return this.present(node).label;
      case 'more':
        return undefined;
    }
  }

  /** The kind of the objects of an entry (from its resolved type; list items may lack `kind`). */
  kindOf(entryId: string, obj?: KubeObject): string | undefined {
    return this.layout.kindOf(entryId, obj);
  }

  /** "5 pods": a count of the objects of a resource node's type, in words (and bare); "5 pods so far" with a first list's preview of `listing`; "3 of 5 pods" with `matched`. */
  private countOf(node: ResourceNode, n: number, listing?: number, matched?: number): RowCount {
    const type = node.entryIds.map((id) => this.currentEntry(id)?.type).find((t) => t !== undefined);
    return listing === undefined ? rowCount(matched, n, type, node.resource) : rowCount(matched, n + listing, type, node.resource, true);
  }

  /** "catching up after 59 s away" while the entry has not confirmed since a resume that it is current. */
  private catchingUpText(entryId: string): string | undefined {
    const catchUp = this.catchUp?.isCatchingUp(entryId) ? this.catchUp.current() : undefined;
    return catchUp && catchUpText(catchUp.awayMs);
  }

  /** The kind to print an entry's objects with (see `printerKind`: a custom `Service` is no core Service). */
  private printKindOf(entryId: string, obj: KubeObject): string | undefined {
    const type = this.layout.places.get(entryId)?.entry.type;
    return type ? printerKind(type) : this.kindOf(entryId, obj);
  }

  /** A custom resource's printer columns (from its CRD, for the entry's version); undefined for built-in types or when unknown. */
  columnsOf(entryId: string): readonly PrinterColumn[] | undefined {
    if (!this.source.customResourceDefinition) return undefined;
    const crd = this.source.customResourceDefinition(entryId);
    const version = this.layout.places.get(entryId)?.entry.type?.version;
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
    const place = this.layout.places.get(entryId);
    return place && this.layout.containerFor(place, namespace, false)?.get(name);
  }

  // ---- commands ----

  /**
   * Paused (call it before the manager stops): the tree keeps what it shows, each watch reads
   * "paused" and its objects are drawn stale. Resumed (call it once the manager started again):
   * the rows stay until each watch has listed again, then what the list no longer has goes.
   */
  setPaused(paused: boolean): void {
    if (paused === this.freeze.active || this.disposed) return;
    if (paused) {
      const shown = [...this.layout.places.keys()].map((id) => this.currentEntry(id)).filter((e): e is WatchEntry => e !== undefined);
      this.ticks.entriesChanged(this.freeze.freeze(shown, this.clock.now()));
    } else {
      this.freeze.thaw(this.layout.places.keys());
      this.sync();
      this.freeze.retain(new Set(this.layout.places.keys()));
      // What the watches listed while the tree was still frozen (the manager starts before this).
      for (const id of [...this.layout.places.keys()]) {
        const entry = this.source.entry(id);
        if (!entry?.informer) continue;
        for (const obj of entry.informer.store.values()) this.upsert(id, obj);
        if (entry.state.synced && this.freeze.listed(id)) this.dropUnlisted(id);
      }
    }
    for (const place of this.layout.places.values()) {
      this.refresh.mark(place.watchNode);
      this.refresh.mark(place.node);
    }
    this.refresh.request();
  }

  /** Shows the next page of the parent of a "N more…" node. */
  loadMore(node: TreeNode): void {
    if (node.kind !== 'more' || !isAttached(node.parent)) return;
    const parent = node.parent;
    if (parent.kind === 'resource' && node === parent.moreNamespaces) parent.namespacePages++;
    else parent.container.pages++;
    this.refresh.markDirty(parent);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.refresh.dispose();
    this.ticks.dispose();
  }

  // ---- cache changes (hot path: O(1) each) ----

  private upsert(entryId: string, obj: KubeObject): void {
    if (this.freeze.active) return;
    const place = this.layout.places.get(entryId) ?? this.adopt(entryId);
    if (!place) return;
    const put = this.layout.put(place, entryId, obj);
    if (!put) return;
    if (!put.existing) this.refresh.mark(put.container.owner);
    else if (put.moved) this.refresh.mark(put.container.owner);
    else if (put.existing.shownKey !== undefined) {
      const kind = this.printKindOf(entryId, obj);
      if (put.existing.shownKey !== objectStatusKey(obj, kind, this.columnsOf(entryId))) this.refresh.mark(put.existing);
    }
    this.refresh.statsChanged(place.watchNode);
  }

  /** Watches started or ended catching up after a resume: their watch nodes say so, or stop saying it. */
  private catchUpChanged(entryIds: readonly string[]): void {
    for (const id of entryIds) {
      const place = this.layout.places.get(id);
      if (!place) continue;
      this.refresh.mark(place.watchNode);
      if (place.watchNode !== place.node) this.refresh.mark(place.node);
    }
    this.refresh.request();
  }

  /** A definition changed: every object row of those entries may print differently. */
  private definitionsChanged(entryIds: readonly string[]): void {
    for (const id of entryIds) {
      const place = this.layout.places.get(id);
      if (!place) continue;
      this.refresh.mark(place.node);
    }
    this.refresh.request();
  }

  /** A decorator draws rows differently now (a write on them, the actions they offer). */
  private decorationsChanged(change: RowDecorationChange): void {
    if ('entryIds' in change) {
      for (const id of change.entryIds) {
        const place = this.layout.places.get(id);
        if (place) this.refresh.mark(place.node);
      }
    } else {
      for (const row of change.rows) {
        const node = this.findObject(row.entryId, row.namespace, row.name);
        if (node) this.refresh.mark(node);
      }
    }
    this.refresh.request();
  }

  /** A first list grew or completed: its preview rows follow. */
  private listProgressed(entryId: string): void {
    const place = this.layout.places.get(entryId);
    if (!place || this.freeze.active || this.disposed) return;
    this.previews.progressed(place);
    this.refresh.request();
  }

  private lifecycleEvent(entryId: string, event: TimedLifecycleEvent): void {
    const place = this.layout.places.get(entryId);
    if (!place || this.freeze.active) return;
    if (event.type === 'synced' && this.freeze.listed(entryId)) this.dropUnlisted(entryId);
    if (event.type === 'synced') this.refresh.markDirty(place.watchNode); // "listing…" becomes "no objects"
    // (A stale watch's node is drawn by its stale tick, within the second: see entriesChanged.)
    else if (STATS_EVENTS.has(event.type) && !this.ticks.ticksWith(entryId)) this.refresh.statsChanged(place.watchNode);
  }

  // ---- entries (rare: configuration, state) ----

  private entriesChanged(change: EntriesChange): void {
    if (this.freeze.active) return;
    this.sync();
    let soon = change.added.length > 0 || change.removed.length > 0 || change.changed.length === 0;
    for (const id of change.changed) {
      const place = this.layout.places.get(id);
      if (!place) {
        soon = true;
        continue;
      }
      this.refresh.mark(place.watchNode);
      if (place.watchNode !== place.node) this.refresh.mark(place.node);
      // A stale watch's retries (reconnecting, connecting, failed again) wait for its stale tick,
      // due within the second: refreshed now, its rows would re-render twice in that second.
      if (!this.ticks.ticksWith(id)) soon = true;
    }
    if (soon) this.refresh.requestSoon();
  }

  /** The first list after a resume: the rows kept from before the pause that the list no longer has go. */
  private dropUnlisted(entryId: string): void {
    const informer = this.source.entry(entryId)?.informer;
    if (!informer) return;
    for (const node of this.layout.objectsOf(entryId)) {
      if (!informer.get(node.namespace || undefined, node.name)) this.layout.remove(entryId, node.object, false);
    }
  }

  /** An event for an entry the model has not seen yet: read the entries now. */
  private adopt(entryId: string): EntryPlace | undefined {
    if (this.disposed) return undefined;
    this.sync();
    this.refresh.request();
    return this.layout.places.get(entryId);
  }

  /** Brings the structure in line with the manager's entries, then restarts the countdowns and stale ticks. */
  private sync(): void {
    const entries = this.source.entries();
    this.layout.sync(entries);
    this.ticks.entriesChanged(entries);
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
    return this.freeze.entry(id) ?? this.source.entry(id) ?? this.layout.places.get(id)?.entry;
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
