import type { KubeObject } from '../../informer';
import { compareKeys, type SortKey } from './sort-key';
import type { FilterableRow } from './row-filter';

/** One object of a table. Fields not marked readonly belong to the model. */
export interface TableRow extends FilterableRow {
  readonly key: string;
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
  object: KubeObject;
  /** kubectl's cells as printed when the object last changed (for the filter and the diff); undefined until something reads them. */
  cells: string[] | undefined;
  text: string;
  labels: Readonly<Record<string, string>>;
  /** The key of the sort column, as last placed in the order. */
  sortKey: SortKey;
  /** The name's and namespace's natural keys, made once (neither ever changes). */
  nameKey?: string;
  namespaceKey?: string;
  /** Minus the creation time (NaN when unreadable), until the object changes. */
  ageKey?: number;
  /** The printed cells' sort keys, by cell, as far as made; cleared with new cells. */
  cellKeys?: unknown[];
  /** When the object went (clock ms): the row fades, then leaves. */
  deletedAt?: number;
  /** When it came, until the page has been told. */
  addedAt?: number;
  /** Columns (ids) that changed, and when, until the page has been told. */
  flash?: { at: number; columns: Set<string> };
}

/**
 * The rows of a table in sort order, and those that pass the filter, kept lazily so that a burst
 * of events costs one pass: rows that came or whose sort key changed wait in `pending`, rows that
 * went or moved in `gone`; the next read drops the gone in one filter, sorts the pending (k log k)
 * and merges them in (n + k). The filtered list is rebuilt in one pass only when a row came, went,
 * moved or changed whether it passes. Ties go by namespace, name, then key, so the order is total
 * and stable while rows update; an empty key (undefined) goes last in both directions.
 */
const everything = (): boolean => true;

export class TableOrder {
  /** The filter that keeps every row (the filtered list is then the sorted one itself). */
  static readonly everything = everything;

  private sorted: TableRow[] = [];
  private readonly pending = new Set<TableRow>();
  private readonly gone = new Set<TableRow>();
  private shown: TableRow[] | undefined;
  /** Every row in tie order (namespace, name, key), until a row comes or goes. */
  private tieOrder: TableRow[] | undefined;
  /** No row has a sort key (kubectl's order): the sorted rows are then the tie order itself. */
  private keyless = true;
  private descending = false;
  private passes: (row: TableRow) => boolean = everything;

  /**
   * Sets the order; `rows` must have their `sortKey` for it. O(n log n), comparing only the keys:
   * the rows start in their tie order (namespace, name, key; kept until a row comes or goes) and
   * Array.prototype.sort is stable, so equal keys keep it without comparing names (PERF B15: a
   * column of few values, STATUS or NAMESPACE, is mostly ties).
   */
  reset(rows: Iterable<TableRow>, descending: boolean): void {
    this.descending = descending;
    this.pending.clear();
    this.gone.clear();
    const all = [...rows];
    if (!this.tieOrder || this.tieOrder.length !== all.length) this.tieOrder = all.sort(compareIdentity);
    const kinds = keyKinds(this.tieOrder);
    this.keyless = kinds === 'none';
    // Arrays here are replaced, never changed in place, so the sorted rows may be the tie order itself.
    this.sorted = this.keyless ? this.tieOrder : this.tieOrder.slice().sort(sameKindComparator(kinds, descending) ?? ((a, b) => this.compareKeys(a, b)));
    this.shown = undefined;
  }

  setFilter(passes: (row: TableRow) => boolean): void {
    this.passes = passes;
    this.shown = undefined;
  }

  /** Rows that pass the filter, in order (brought up to date first). */
  visible(): readonly TableRow[] {
    this.flush();
    if (!this.shown) this.shown = this.passes === everything ? this.sorted : this.sorted.filter(this.passes);
    return this.shown;
  }

  insert(row: TableRow): void {
    this.tieOrder = undefined;
    this.pending.add(row);
    this.shown = undefined;
  }

  remove(row: TableRow): void {
    this.tieOrder = undefined;
    this.pending.delete(row);
    this.gone.add(row);
    this.shown = undefined;
  }

  /** A row's sort key or filter result may change: `update` sets its new fields. */
  move(row: TableRow, update: () => void): void {
    const before = this.passes(row);
    const oldKey = row.sortKey;
    update();
    if (!sameKey(oldKey, row.sortKey)) {
      this.gone.add(row);
      this.pending.add(row);
      this.shown = undefined;
    } else if (this.passes(row) !== before) this.shown = undefined;
  }

  /** The filter result of any row may have changed. */
  invalidate(): void {
    this.shown = undefined;
  }

  private flush(): void {
    if (this.gone.size > 0) {
      const gone = this.gone;
      this.sorted = this.sorted.filter((r) => !gone.has(r));
      gone.clear();
    }
    if (this.pending.size === 0) return;
    const added = [...this.pending].sort((a, b) => this.compare(a, b));
    this.pending.clear();
    const merged: TableRow[] = new Array(this.sorted.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length && j < added.length) merged[k++] = this.compare(this.sorted[i], added[j]) <= 0 ? this.sorted[i++] : added[j++];
    while (i < this.sorted.length) merged[k++] = this.sorted[i++];
    while (j < added.length) merged[k++] = added[j++];
    this.sorted = merged;
    // Arrays here are replaced, never changed in place, so the two may share one.
    if (this.keyless) this.tieOrder = merged;
  }

  private compare(a: TableRow, b: TableRow): number {
    return this.compareKeys(a, b) || compareIdentity(a, b);
  }

  /** The sort keys' order alone (0 for a tie). */
  private compareKeys(a: TableRow, b: TableRow): number {
    const x = a.sortKey;
    const y = b.sortKey;
    if (x === undefined && y === undefined) return 0;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    const c = compareKeys(x, y);
    return this.descending ? -c : c;
  }
}

/** What the rows' sort keys are: none, all text, all numbers, or a mix (some empty among them). */
function keyKinds(rows: readonly TableRow[]): 'none' | 'strings' | 'numbers' | 'mixed' {
  let strings = 0;
  let numbers = 0;
  for (const row of rows) {
    const t = typeof row.sortKey;
    if (t === 'string') strings++;
    else if (t === 'number') numbers++;
  }
  if (strings + numbers === 0) return 'none';
  if (strings === rows.length) return 'strings';
  return numbers === rows.length ? 'numbers' : 'mixed';
}

/**
 * A comparator of keys all of one kind, without the general one's checks (a sort of 100,000 rows
 * calls it some 1.7 million times); undefined for a mix, which the general one orders.
 */
function sameKindComparator(kinds: ReturnType<typeof keyKinds>, descending: boolean): ((a: TableRow, b: TableRow) => number) | undefined {
  if (kinds === 'strings') {
    // Equal keys first: a column of few values (STATUS, NODE) is mostly ties.
    return descending
      ? (a, b) => (a.sortKey === b.sortKey ? 0 : (a.sortKey as string) < (b.sortKey as string) ? 1 : -1)
      : (a, b) => (a.sortKey === b.sortKey ? 0 : (a.sortKey as string) < (b.sortKey as string) ? -1 : 1);
  }
  if (kinds === 'numbers') return descending ? (a, b) => (b.sortKey as number) - (a.sortKey as number) : (a, b) => (a.sortKey as number) - (b.sortKey as number);
  return undefined;
}

/** The namespaces of the rows and of the entries watching one namespace, sorted. */
export function namespacesOf(rows: Iterable<TableRow>, entries: readonly { namespace?: string }[]): string[] {
  const set = new Set<string>();
  for (const row of rows) set.add(row.namespace);
  for (const e of entries) if (e.namespace) set.add(e.namespace);
  return [...set].sort();
}

/** The tie order: namespace, name, then key (total: keys are unique). */
function compareIdentity(a: TableRow, b: TableRow): number {
  return a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function sameKey(a: SortKey, b: SortKey): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}
