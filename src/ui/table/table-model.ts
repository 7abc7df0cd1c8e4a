import { systemClock, type Clock, type Disposable, type TimerHandle } from '../../base';
import type { KubeObject, TimedLifecycleEvent } from '../../informer';
import type { WatchEntry } from '../../manager';
import { crdPrinterColumns, printCells, printerKind } from '../printers';
import type { WatchTreeSource } from '../tree/tree-source';
import { parseRowFilter } from './row-filter';
import type { SortKey } from './sort-key';
import { arrangeColumns, changedColumns, columnView, rowSortKey, tableColumns, warmSortKeys, type ColumnPrefs, type TableColumn } from './table-columns';
import type { RowView, TableSnapshot, TableState } from './table-protocol';
import { namespacesOf, TableOrder, type TableRow } from './table-rows';
import { tableBanner, tableTitle } from './table-text';
import { rowView, type RowDrawing } from './row-view';
import { RowFades } from './row-fades';
import { RowPrePrinter } from './row-pre-printer';
import type { TableModelOptions } from './table-model-options';

export type { TableModelOptions } from './table-model-options';

/** What a table reads of the watch manager: the tree's source (the same informers, no watch of its own). */
export type TableSource = Pick<WatchTreeSource, 'entries' | 'entry' | 'addHandler' | 'onObjectsRemoved' | 'onDidChangeEntries' | 'onLifecycle' | 'customResourceDefinition'>;

/** What the page shows from where: the focused row and the window it asked for. */
interface Viewport {
  start: number;
  count: number;
  focusKey?: string;
}

/**
 * The view model of one resource table, VS Code-free: the objects of one resource type on one
 * context (every watch entry of it, the same informers the tree reads), printed as kubectl
 * prints them, sorted, filtered, and cut to the window the page shows.
 *
 * Invariants:
 * - An event costs O(log n) plus one splice; the order is rebuilt only when the sort changes.
 * - `onDidChange` fires at most once per `throttleMs`, and within it of a change.
 * - A deleted row stays `fadeMs`, marked, then leaves; a row under the focus never moves
 *   because others came or went: the page is told where the focused row now is.
 * - The extra source is shown what the table shows while it is visible, and nothing after.
 * - After `dispose()` no subscription, timer or showing is left.
 */
export class TableModel implements Disposable {
  readonly clock: Clock;
  private readonly rows = new Map<string, TableRow>();
  private readonly order = new TableOrder();
  private readonly subscriptions: Disposable[];
  private readonly listeners = new Set<() => void>();
  private columns: TableColumn[] = [];
  private printKind: string | undefined;
  private entryIds = new Set<string>();
  private sort: { column: string; descending: boolean } | undefined;
  private filterText = '';
  private filterProblem: string | undefined;
  private namespace: string;
  private prefs: ColumnPrefs | undefined;
  private viewport: Viewport = { start: 0, count: 50 };
  private timer: TimerHandle | undefined;
  /** The first read of the informers, while `loadLater` defers it. */
  private loading: TimerHandle | undefined;
  private showing: Disposable | undefined;
  private readonly prePrinter: RowPrePrinter<TableRow>;
  private visible = false;
  private disposed = false;
  /** Rows fading out (deleted, not yet gone). */
  private readonly fading: RowFades;
  /** Changes so far: a snapshot taken after the last one needs no other (`revision`). */
  private changes = 0;
  /** Namespaces of the rows, recomputed when rows came or went. */
  private namespaceList: string[] | undefined;

  constructor(
    private readonly source: TableSource,
    readonly scope: TableState,
    private readonly options: TableModelOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.fading = new RowFades(this.clock, options.fadeMs ?? 2000, (key) => this.rows.get(key)?.deletedAt, (key) => this.drop(key), () => this.changed());
    this.prePrinter = new RowPrePrinter(this.clock, () => this.rows.values(), [
      { done: (row) => row.nameKey !== undefined && row.namespaceKey !== undefined, run: warmSortKeys, slice: 10_000 },
      { done: (row) => row.cells !== undefined, run: (row) => this.printed(row), slice: 500 },
    ]);
    this.namespace = scope.namespace;
    this.prefs = options.columnPrefs;
    this.filterText = scope.filter ?? '';
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => this.entryIds.has(id) && this.upsert(id, obj),
        onUpdate: (id, _old, obj) => this.entryIds.has(id) && this.upsert(id, obj),
        onDelete: (id, obj) => this.entryIds.has(id) && !this.paused() && this.deleted(id, obj),
      }),
      source.onObjectsRemoved((removed) => {
        if (!this.entryIds.has(removed.entryId) || this.paused()) return;
        for (const obj of removed.objects) this.drop(this.keyOf(removed.entryId, obj));
        this.changed();
      }),
      source.onDidChangeEntries(() => this.syncEntries()),
      source.onLifecycle((id, event) => this.lifecycle(id, event)),
      ...(options.extra ? [options.extra.onDidChange((change) => this.extraChanged(change.context, change.kind.kind, change.keys))] : []),
    ];
    if (options.loadLater) this.loading = this.clock.setTimer(() => ((this.loading = undefined), this.syncEntries()), 0);
    else this.syncEntries();
    this.applyFilter();
  }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Counts the changes: equal before and after, nothing a snapshot shows has changed but the time. */
  get revision(): number {
    return this.changes;
  }

  /** False until a `loadLater` model has read the informers (its snapshot would show no rows and say nothing is watched). */
  get loaded(): boolean {
    return this.loading === undefined;
  }

  /** The state to restore the panel with. */
  state(): TableState {
    return { ...this.scope, namespace: this.namespace, filter: this.filterText || undefined };
  }

  /** The kind's id for remembered columns (`pods`, `widgets.example.com`). */
  get columnsKey(): string {
    return this.scope.group ? `${this.scope.resource}.${this.scope.group}` : this.scope.resource;
  }

  // ---- what the page asks ----

  setViewport(start: number, count: number): void {
    this.viewport = { ...this.viewport, start: Math.max(0, Math.floor(start)), count: Math.max(0, Math.min(500, Math.floor(count))) };
  }

  setFocus(key: string | undefined): void {
    this.viewport = { ...this.viewport, focusKey: key };
  }

  /** Sorts by `column`; again on the same column reverses; a third time goes back to kubectl's order. */
  toggleSort(column: string): void {
    if (!this.columns.some((c) => c.id === column)) return;
    if (this.sort?.column !== column) this.sort = { column, descending: false };
    else if (!this.sort.descending) this.sort = { column, descending: true };
    else this.sort = undefined;
    this.resort();
    this.changed();
  }

  setSort(sort: { column: string; descending: boolean } | undefined): void {
    this.sort = sort;
    this.resort();
    this.changed();
  }

  setFilter(text: string): void {
    this.filterText = text;
    this.applyFilter();
    this.changed();
  }

  setNamespace(namespace: string): void {
    if (namespace === this.namespace) return;
    this.namespace = namespace;
    this.rebuildColumns(this.printKind);
    this.applyFilter();
    this.reshow();
    this.changed();
  }

  setColumnPrefs(prefs: ColumnPrefs): void {
    this.prefs = prefs;
    this.changed();
  }

  /** The page is on screen (values of extra columns are fetched) or not. */
  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    this.prePrinter.setRunning(visible);
    this.reshow();
  }

  /** The row under `key` (a context menu's or a key's target). */
  row(key: string): TableRow | undefined {
    return this.rows.get(key);
  }

  /** The kind's name (Pod, Deployment), once a watch of it has resolved. */
  get kind(): string | undefined {
    return this.entries()[0]?.type?.kind;
  }

  /** The table now: its columns and the window the page last asked for (changes since then are marked, once). */
  snapshot(): TableSnapshot {
    const now = this.clock.now();
    const shown = this.order.visible();
    const arranged = arrangeColumns(this.columns, this.prefs);
    const drawn = arranged.filter((c) => !c.hidden).map((c) => c.column);
    const start = Math.min(this.viewport.start, Math.max(0, shown.length - 1));
    const end = Math.min(shown.length, start + this.viewport.count);
    const rows: RowView[] = [];
    const draw: RowDrawing = { context: this.scope.context, printKind: this.printKind, crdColumns: (id) => this.crdColumns(id), flashMs: this.options.flashMs ?? 2000, stalenessOf: this.options.stalenessOf, contextValueOf: this.options.contextValueOf };
    for (let i = start; i < end; i++) rows.push(rowView(this.printed(shown[i]), drawn, now, draw));
    const focusKey = this.viewport.focusKey;
    const focused = focusKey === undefined ? undefined : this.rows.get(focusKey);
    return {
      type: 'snapshot',
      state: this.state(),
      title: tableTitle(this.scope, this.namespace),
      columns: arranged.map((c) => columnView(c.column, c.hidden)),
      sort: this.sort,
      filter: this.filterText,
      filterProblem: this.filterProblem,
      namespace: this.namespace,
      namespaces: this.namespaces(),
      total: shown.length,
      all: this.rows.size - this.fading.size,
      start,
      rows,
      focusIndex: focused ? shown.indexOf(focused) : -1,
      focusKey,
      banner: tableBanner(this.scope, this.entries(), (id) => this.options.stalenessOf?.(id), now),
    };
  }

  /** True while a watch of the table is stale (the page redraws each second so the time since counts on). */
  get anyStale(): boolean {
    return [...this.entryIds].some((id) => this.options.stalenessOf?.(id) !== undefined);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.timer?.cancel();
    this.loading?.cancel();
    this.loading = undefined;
    this.fading.dispose();
    this.timer = undefined;
    this.prePrinter.stop();
    this.showing?.dispose();
    this.showing = undefined;
    this.listeners.clear();
  }

  /** Timers and showings held now (0 once disposed or idle): for leak tests. */
  get openHandles(): number {
    return (this.timer ? 1 : 0) + (this.loading ? 1 : 0) + this.fading.openHandles + (this.showing ? 1 : 0) + this.prePrinter.openHandles;
  }

  // ---- rows ----

  private keyOf(entryId: string, obj: KubeObject): string {
    return `${entryId}/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
  }

  /**
   * A row came or changed. Its cells are printed only when something reads them (the window, a
   * text filter, a sort by a printed column) or were printed before (then the new ones are
   * compared, for the flash): a table of 100,000 objects opens without printing them all.
   */
  private upsert(entryId: string, obj: KubeObject, quiet = false): void {
    const key = this.keyOf(entryId, obj);
    const now = this.clock.now();
    const existing = this.rows.get(key);
    if (!existing) {
      const row: TableRow = { key, entryId, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', object: obj, cells: undefined, text: '', labels: obj.metadata.labels ?? {}, sortKey: undefined, addedAt: quiet ? undefined : now };
      row.sortKey = this.sortKeyOfRow(row);
      this.rows.set(key, row);
      this.order.insert(row);
      this.namespaceList = undefined;
    } else {
      const cells = existing.cells && this.print(entryId, obj);
      const changed = existing.cells && cells ? changedColumns(this.columns, existing.cells, cells) : [];
      this.fading.delete(key);
      this.order.move(existing, () => {
        existing.deletedAt = undefined;
        existing.object = obj;
        existing.ageKey = undefined;
        existing.labels = obj.metadata.labels ?? {};
        if (cells) this.fill(existing, cells);
        else existing.cells = existing.cellKeys = undefined;
        existing.sortKey = this.sortKeyOfRow(existing);
      });
      if (changed.length > 0) existing.flash = { at: now, columns: new Set([...(existing.flash?.columns ?? []), ...changed]) };
    }
    if (!quiet) this.changed();
  }

  private print(entryId: string, obj: KubeObject): string[] {
    return printCells(obj, this.printKind, this.clock.now(), this.crdColumns(entryId));
  }

  /** The row with its cells and filter text, printed now if they were not. */
  private printed(row: TableRow): TableRow & { cells: string[] } {
    if (!row.cells) this.fill(row, this.print(row.entryId, row.object));
    return row as TableRow & { cells: string[] };
  }

  private fill(row: TableRow, cells: string[]): void {
    row.cells = cells;
    row.cellKeys = undefined;
    row.text = `${row.namespace} ${cells.join(' ')}`.toLowerCase();
  }

  private deleted(entryId: string, obj: KubeObject): void {
    const row = this.rows.get(this.keyOf(entryId, obj));
    if (!row) return;
    row.deletedAt = this.clock.now();
    row.object = obj;
    this.fading.add(row.key);
    this.changed();
  }

  private drop(key: string): void {
    const row = this.rows.get(key);
    if (!row) return;
    this.rows.delete(key);
    this.fading.delete(key);
    this.order.remove(row);
    this.namespaceList = undefined;
  }

  // ---- entries ----

  private entries(): WatchEntry[] {
    return this.source.entries().filter((e) => this.entryIds.has(e.id));
  }

  private syncEntries(): void {
    const matching = this.source.entries().filter((e) => e.context === this.scope.context && e.type?.group === this.scope.group && e.type.resource === this.scope.resource);
    const ids = new Set(matching.map((e) => e.id));
    for (const id of this.entryIds) if (!ids.has(id)) this.dropEntry(id);
    const added = matching.filter((e) => !this.entryIds.has(e.id));
    this.entryIds = ids;
    const first = matching[0]?.type;
    const kind = first ? printerKind(first) : undefined;
    if (kind !== this.printKind || this.columns.length === 0 || added.length > 0) this.rebuildColumns(kind);
    for (const e of added) this.loadEntry(e.id);
    this.changed();
  }

  private rebuildColumns(kind: string | undefined): void {
    this.printKind = kind;
    const first = this.entries()[0];
    const namespaced = first?.type?.namespaced ?? true;
    const extra = first?.type && this.options.extra ? this.options.extra.columnsFor({ group: first.type.group, kind: first.type.kind }) : [];
    this.columns = tableColumns(kind, first ? this.crdColumns(first.id) : undefined, namespaced && this.namespace === '', extra);
    if (this.sort && !this.columns.some((c) => c.id === this.sort!.column)) this.sort = undefined;
    this.resort();
  }

  /** Every object of an entry from its informer's cache, replacing what the table had of it. */
  private loadEntry(entryId: string): void {
    const objects = this.source.entry(entryId)?.informer?.list() ?? [];
    const keep = this.rows.size > 0 ? new Set(objects.map((o) => this.keyOf(entryId, o))) : undefined;
    if (keep) for (const row of [...this.rows.values()]) if (row.entryId === entryId && !keep.has(row.key) && row.deletedAt === undefined) this.drop(row.key);
    for (const obj of objects) this.upsert(entryId, obj, true);
    if (this.visible) this.prePrinter.start();
    this.reshow();
  }

  private dropEntry(entryId: string): void {
    for (const row of [...this.rows.values()]) if (row.entryId === entryId) this.drop(row.key);
  }

  private lifecycle(entryId: string, event: TimedLifecycleEvent): void {
    if (!this.entryIds.has(entryId)) return;
    // A list (the first, a relist after a gap, after a resume) is the whole truth: rows it lacks go.
    if (event.type === 'list-done') this.loadEntry(entryId);
    this.changed();
  }

  private crdColumns(entryId: string) {
    const crd = this.source.customResourceDefinition?.(entryId);
    const version = this.source.entry(entryId)?.type?.version;
    return crd && version ? crdPrinterColumns(crd, version) : undefined;
  }

  // ---- sort, filter, extra ----

  private sortKeyOfRow(row: TableRow, column = this.sortColumn()): SortKey {
    if (!column) return undefined;
    return rowSortKey(column.source === 'printer' && column.header !== 'AGE' && column.header !== 'NAME' ? this.printed(row) : row, column, this.scope.context);
  }

  private sortColumn(): TableColumn | undefined {
    return this.sort && this.columns.find((c) => c.id === this.sort!.column);
  }

  private resort(): void {
    const column = this.sortColumn();
    for (const row of this.rows.values()) row.sortKey = this.sortKeyOfRow(row, column);
    this.order.reset(this.rows.values(), this.sort?.descending ?? false);
  }

  private applyFilter(): void {
    const filter = parseRowFilter(this.filterText);
    this.filterProblem = filter.problem;
    const ns = this.namespace;
    const parsed = filter.matches;
    const matches = parsed && ((row: TableRow) => parsed(this.printed(row)));
    if (!matches || this.filterText.trim() === '') this.order.setFilter(ns === '' ? TableOrder.everything : (row) => row.namespace === ns);
    else this.order.setFilter(ns === '' ? matches : (row) => row.namespace === ns && matches(row));
  }

  private extraChanged(context: string, kind: string, keys: readonly string[] | undefined): void {
    if (context !== this.scope.context || kind !== this.kind) return;
    if (this.sort?.column.startsWith('x:')) {
      if (!keys) this.resort();
      else {
        const wanted = new Set(keys);
        for (const row of this.rows.values()) if (wanted.has(row.namespace ? `${row.namespace}/${row.name}` : row.name)) this.order.move(row, () => (row.sortKey = this.sortKeyOfRow(row)));
      }
    }
    this.changed();
  }

  private reshow(): void {
    this.showing?.dispose();
    this.showing = undefined;
    const type = this.entries()[0]?.type;
    if (!this.visible || this.disposed || !this.options.extra || !type) return;
    if (this.options.extra.columnsFor({ group: type.group, kind: type.kind }).length === 0) return;
    const namespaces = !type.namespaced || this.namespace === '' ? 'all' : [this.namespace];
    this.showing = this.options.extra.show(this.scope.context, { group: type.group, kind: type.kind }, namespaces);
  }

  private namespaces(): string[] {
    if (this.entries()[0]?.type?.namespaced === false) return [];
    return (this.namespaceList ??= namespacesOf(this.rows.values(), this.entries()));
  }

  private paused(): boolean {
    return this.options.isPaused?.() ?? false;
  }

  private changed(): void {
    this.changes++;
    if (this.timer || this.disposed) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      for (const l of [...this.listeners]) l();
    }, this.options.throttleMs ?? 100);
  }
}
