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
  /** kubectl's cells as printed when the object last changed (for the filter and the diff). */
  cells: string[];
  text: string;
  labels: Readonly<Record<string, string>>;
  /** The key of the sort column, as last placed in the order. */
  sortKey: SortKey;
  /** When the object went (clock ms): the row fades, then leaves. */
  deletedAt?: number;
  /** When it came, until the page has been told. */
  addedAt?: number;
  /** Columns (ids) that changed, and when, until the page has been told. */
  flash?: { at: number; columns: Set<string> };
}

/**
 * The rows of a table in sort order, and those that pass the filter, kept incrementally: a row
 * whose sort key changes moves by a binary search (O(log n) to find, one splice), and the
 * filtered list is rebuilt in one pass only when a row came, went, moved or changed whether it
 * passes. Ties go by namespace, name, then key, so the order is total and stable while rows
 * update; an empty key (undefined) goes last in both directions.
 */
export class TableOrder {
  private sorted: TableRow[] = [];
  private shown: TableRow[] | undefined;
  private descending = false;
  private passes: (row: TableRow) => boolean = () => true;

  /** Sets the order; `rows` must have their `sortKey` for it. O(n log n). */
  reset(rows: Iterable<TableRow>, descending: boolean): void {
    this.descending = descending;
    this.sorted = [...rows].sort((a, b) => this.compare(a, b));
    this.shown = undefined;
  }

  setFilter(passes: (row: TableRow) => boolean): void {
    this.passes = passes;
    this.shown = undefined;
  }

  /** Rows that pass the filter, in order (rebuilt when stale). */
  visible(): readonly TableRow[] {
    if (!this.shown) this.shown = this.passesAll() ? this.sorted : this.sorted.filter(this.passes);
    return this.shown;
  }

  get size(): number {
    return this.sorted.length;
  }

  insert(row: TableRow): void {
    this.sorted.splice(this.lowerBound(row), 0, row);
    if (this.shown && this.passes(row)) this.shown = undefined;
  }

  remove(row: TableRow): void {
    const at = this.lowerBound(row);
    if (this.sorted[at] === row) this.sorted.splice(at, 1);
    else {
      const i = this.sorted.indexOf(row);
      if (i >= 0) this.sorted.splice(i, 1);
    }
    this.shown = undefined;
  }

  /** A row's sort key or filter result may have changed: `update` sets its new fields between remove and insert. */
  move(row: TableRow, update: () => void): void {
    const before = this.passes(row);
    const oldKey = row.sortKey;
    update();
    if (!sameKey(oldKey, row.sortKey)) {
      const newKey = row.sortKey;
      row.sortKey = oldKey;
      this.remove(row);
      row.sortKey = newKey;
      this.insert(row);
    }
    if (this.passes(row) !== before) this.shown = undefined;
  }

  /** The filter result of any row may have changed (a label, a deletion mark). */
  invalidate(): void {
    this.shown = undefined;
  }

  private passesAll(): boolean {
    return this.passes === TableOrder.everything;
  }

  static readonly everything = (): boolean => true;

  private lowerBound(row: TableRow): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.sorted[mid], row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private compare(a: TableRow, b: TableRow): number {
    const x = a.sortKey;
    const y = b.sortKey;
    if (x !== undefined || y !== undefined) {
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const c = compareKeys(x, y);
      if (c !== 0) return this.descending ? -c : c;
    }
    return a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  }
}

function sameKey(a: SortKey, b: SortKey): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}
