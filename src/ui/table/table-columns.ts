import type { KubeObject } from '../../informer';
import { printObject, type PrinterColumn } from '../printers';
import type { ExtraColumn } from './extra-columns';
import { columnKindOf, naturalKey, sortKeyOf, type ColumnKind, type SortKey } from './sort-key';
import type { TableRow } from './table-rows';
import type { ColumnView } from './table-protocol';

/** A column of a table: one of kubectl's (`cell` indexes the printed row) or a borrowed one. */
export type TableColumn =
  | { readonly id: string; readonly header: string; readonly source: 'namespace' }
  | { readonly id: string; readonly header: string; readonly source: 'printer'; readonly cell: number; readonly kind: ColumnKind }
  | { readonly id: string; readonly header: string; readonly source: 'extra'; readonly extra: ExtraColumn };

/** Which columns a user hid and in which order they put them (ids), per kind. */
export interface ColumnPrefs {
  readonly order: readonly string[];
  readonly hidden: readonly string[];
}

const EMPTY_OBJECT: KubeObject = { metadata: {} } as KubeObject;

/**
 * The columns of a kind as `kubectl get -o wide` prints them (NAMESPACE first when several
 * namespaces show), then the extra columns. Ids are the headers lower-cased (`restarts`,
 * `nominated node`), extra ones prefixed `x:`; stable, so the user's order and hidden set keep.
 */
export function tableColumns(printKind: string | undefined, crdColumns: readonly PrinterColumn[] | undefined, withNamespace: boolean, extra: readonly ExtraColumn[]): TableColumn[] {
  const headers = printObject(EMPTY_OBJECT, printKind, 0, crdColumns).columns;
  const types = new Map((crdColumns ?? []).map((c) => [c.name.toUpperCase(), c.type]));
  const columns: TableColumn[] = withNamespace ? [{ id: 'namespace', header: 'NAMESPACE', source: 'namespace' }] : [];
  const seen = new Set<string>(columns.map((c) => c.id));
  headers.forEach((header, cell) => {
    let id = header.toLowerCase();
    while (seen.has(id)) id = `${id}'`;
    seen.add(id);
    columns.push({ id, header, source: 'printer', cell, kind: columnKindOf(header, types.get(header)) });
  });
  for (const x of extra) columns.push({ id: `x:${x.id}`, header: x.header, source: 'extra', extra: x });
  return columns;
}

/** The columns in the user's order (new ones where kubectl puts them), each with whether it is hidden. NAME is never hidden. */
export function arrangeColumns(columns: readonly TableColumn[], prefs: ColumnPrefs | undefined): Array<{ column: TableColumn; hidden: boolean }> {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const ordered: TableColumn[] = [];
  for (const id of prefs?.order ?? []) {
    const c = byId.get(id);
    if (c && !ordered.includes(c)) ordered.push(c);
  }
  columns.forEach((c, i) => {
    if (ordered.includes(c)) return;
    // A column the prefs do not name goes after its kubectl predecessor.
    const before = columns.slice(0, i).reverse().find((p) => ordered.includes(p));
    ordered.splice(before ? ordered.indexOf(before) + 1 : 0, 0, c);
  });
  const hidden = new Set(prefs?.hidden ?? []);
  return ordered.map((column) => ({ column, hidden: column.id !== 'name' && hidden.has(column.id) }));
}

/** How the page draws a column. */
export function columnView(column: TableColumn, hidden: boolean): ColumnView {
  const numeric = column.source === 'extra' || (column.source === 'printer' && /^(RESTARTS|READY|AGE|DATA|COUNT|ACTIVE|COMPLETIONS|DURATION|UP-TO-DATE|AVAILABLE|DESIRED|CURRENT|CAPACITY|LAST SEEN|LAST SCHEDULE)$/.test(column.header));
  return { id: column.id, header: column.header, numeric, hidden };
}

/**
 * A row's key for sorting by `column`: AGE by the creation time itself (so it never drifts),
 * borrowed columns by their `sortValue`. Keys of the name, namespace, creation time and printed
 * cells are made once and kept on the row until what they come from changes (the model clears
 * them), so sorting by a column again only compares.
 */
export function rowSortKey(row: TableRow, column: TableColumn, context: string): SortKey {
  switch (column.source) {
    case 'namespace':
      return (row.namespaceKey ??= naturalKey(row.namespace));
    case 'extra':
      return column.extra.cell(context, row.object).sortValue;
    case 'printer': {
      // NAME is the object's name: no need to print the row for it.
      if (column.header === 'NAME' && column.cell === 0) return (row.nameKey ??= naturalKey(row.name));
      if (column.header === 'AGE') {
        const key = (row.ageKey ??= -Date.parse(row.object.metadata.creationTimestamp ?? ''));
        return Number.isNaN(key) ? undefined : key;
      }
      const keys = (row.cellKeys ??= []);
      // An empty cell's key is undefined and made again each time: that is quick (the empty texts are a set).
      return (keys[column.cell] ??= sortKeyOf(row.cells?.[column.cell] ?? '', column.kind)) as SortKey;
    }
  }
}

/** Makes a row's name, namespace and creation-time keys ahead of a sort by them (the background preparation's quick pass). */
export function warmSortKeys(row: TableRow): void {
  row.nameKey ??= naturalKey(row.name);
  row.namespaceKey ??= naturalKey(row.namespace);
  row.ageKey ??= -Date.parse(row.object.metadata.creationTimestamp ?? '');
}

/** The ids of kubectl's columns whose cell differs (durations aside: they follow from time). */
export function changedColumns(columns: readonly TableColumn[], before: readonly string[], after: readonly string[]): string[] {
  const ids: string[] = [];
  for (const c of columns) if (c.source === 'printer' && c.kind !== 'duration' && before[c.cell] !== after[c.cell]) ids.push(c.id);
  return ids;
}
