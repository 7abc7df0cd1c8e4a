/**
 * The grid's DOM: a header row and the rows of the current window inside a spacer as tall as
 * every row together, so the scroll bar is the table's while only some dozens of rows exist.
 * A real ARIA grid: role=grid with aria-rowcount/aria-colcount, rows with aria-rowindex (the
 * header is row 1); every column is in the DOM, so cells need no aria-colindex. The focused cell
 * is the grid's active descendant: it alone carries an id and a spoken label (`focusCell`), so a
 * window of rows is drawn with text and classes only (PERF B15).
 */
import type { ColumnView, RowView, TableSnapshot } from '../../ui/table/table-protocol';

export const ROW_HEIGHT = 22;

/** Every cell flashed so far (`rowKey|HEADER`), the last 50: on `<body data-flashes>` for tests. */
export const flashLog: string[] = [];

export interface GridElements {
  readonly grid: HTMLElement;
  readonly head: HTMLElement;
  readonly viewport: HTMLElement;
  readonly spacer: HTMLElement;
  readonly body: HTMLElement;
}

/** The cell's id, for aria-activedescendant. */
export function cellId(rowIndex: number, column: number): string {
  return `cell-${rowIndex}-${column}`;
}

/** What the header was last drawn from. */
let headerSignature: string | undefined;

/** Draws the header: a column header per shown column, sort state as aria-sort and an arrow. */
export function drawHeader(el: GridElements, columns: readonly ColumnView[], sort: TableSnapshot['sort'], focusColumn: number, onSort: (id: string) => void): void {
  // Kept while the same: a header replaced on every snapshot is a moving target for a click.
  const signature = JSON.stringify([columns, sort, focusColumn]);
  if (signature === headerSignature && el.head.firstChild) return;
  headerSignature = signature;
  const row = document.createElement('div');
  row.className = 'row head-row';
  row.setAttribute('role', 'row');
  row.setAttribute('aria-rowindex', '1');
  columns.forEach((c, i) => {
    const cell = document.createElement('div');
    cell.className = `cell${c.numeric ? ' numeric' : ''}${i === focusColumn ? ' focus-column' : ''}`;
    cell.setAttribute('role', 'columnheader');
    cell.setAttribute('aria-colindex', String(i + 1));
    cell.dataset.column = c.id;
    const sorted = sort?.column === c.id;
    cell.setAttribute('aria-sort', sorted ? (sort!.descending ? 'descending' : 'ascending') : 'none');
    cell.textContent = c.header + (sorted ? (sort!.descending ? ' ▼' : ' ▲') : '');
    cell.title = `Sort by ${c.header} (click again to reverse, a third time for kubectl's order)`;
    cell.addEventListener('click', () => onSort(c.id));
    row.append(cell);
  });
  el.head.replaceChildren(row);
}

/** The row elements of the last draw, by row key, with what they were drawn from: reused when that is unchanged. */
const drawnRows = new Map<string, { element: HTMLElement; signature: string; index: number }>();

/**
 * Draws the window's rows at their place; `focusIndex` is the focused row among all rows.
 * A row whose view and columns are as last drawn keeps its element (only its index is renumbered
 * when the window moved; `markFocus` re-marks the focus after every draw), so a scroll or a
 * one-cell change rebuilds only the rows that changed.
 */
export function drawRows(el: GridElements, snapshot: TableSnapshot, columns: readonly ColumnView[], focusIndex: number, focusColumn: number, flashSeen: Set<string>): void {
  setStyle(el.spacer, 'height', `${snapshot.total * ROW_HEIGHT}px`);
  setStyle(el.body, 'transform', `translateY(${snapshot.start * ROW_HEIGHT}px)`);
  const columnsSignature = columns.map((c) => `${c.id}:${c.header}:${c.numeric}`).join(',');
  const kept = new Map<string, { element: HTMLElement; signature: string; index: number }>();
  const rows = snapshot.rows.map((r, i) => {
    const index = snapshot.start + i;
    const signature = `${columnsSignature}|${JSON.stringify(r)}`;
    const previous = drawnRows.get(r.key);
    let drawn: { element: HTMLElement; signature: string; index: number };
    if (previous && previous.signature === signature && !kept.has(r.key)) {
      if (previous.index !== index) renumber(previous.element, index);
      drawn = { ...previous, index };
    } else drawn = { element: drawRow(r, index, columns, focusIndex, focusColumn, flashSeen), signature, index };
    kept.set(r.key, drawn);
    return drawn.element;
  });
  drawnRows.clear();
  for (const [key, drawn] of kept) drawnRows.set(key, drawn);
  const current = el.body.children;
  if (current.length !== rows.length || rows.some((row, i) => current[i] !== row)) el.body.replaceChildren(...rows);
}

/** Sets a style only when it differs (an unchanged write still costs a style recalculation in some engines). */
function setStyle(element: HTMLElement, property: 'height' | 'transform', value: string): void {
  if (element.style[property] !== value) element.style[property] = value;
}

/** A kept row moved in the window: its row index follows. */
function renumber(row: HTMLElement, index: number): void {
  row.setAttribute('aria-rowindex', String(index + 2));
  row.dataset.index = String(index);
}

function drawRow(r: RowView, index: number, columns: readonly ColumnView[], focusIndex: number, focusColumn: number, flashSeen: Set<string>): HTMLElement {
  const row = document.createElement('div');
  row.className = `row${r.deleted ? ' deleted' : ''}${r.stale ? ' stale' : ''}${index === focusIndex ? ' focused' : ''}`;
  if (r.added && !flashSeen.has(`${r.key}#added`)) {
    row.classList.add('added');
    flashSeen.add(`${r.key}#added`);
  }
  row.setAttribute('role', 'row');
  row.setAttribute('aria-rowindex', String(index + 2));
  if (index === focusIndex) row.setAttribute('aria-selected', 'true');
  row.dataset.key = r.key;
  row.dataset.index = String(index);
  row.dataset.vscodeContext = r.context;
  r.cells.forEach((text, i) => {
    const cell = document.createElement('div');
    const column = columns[i];
    const tone = r.tones?.[i];
    cell.className = `cell${column?.numeric ? ' numeric' : ''}${tone ? ` ${tone}` : ''}`;
    cell.setAttribute('role', 'gridcell');
    const title = r.titles?.[i];
    if (column?.id === 'name' && r.stale) {
      const marker = document.createElement('span');
      marker.className = 'stale-marker';
      marker.textContent = '⚠ ';
      marker.setAttribute('aria-hidden', 'true');
      cell.append(marker, text);
      cell.title = `${r.stale}: the last state seen, not the live object`;
    } else {
      cell.textContent = text;
      if (title) cell.title = title;
    }
    if (r.deleted) cell.title = 'deleted';
    if (r.changed?.includes(i)) {
      const seen = `${r.key}#${i}#${text}`;
      if (!flashSeen.has(seen)) {
        cell.classList.add('flash');
        flashSeen.add(seen);
        flashLog.push(`${r.key}|${column?.header ?? i}`);
        if (flashLog.length > 50) flashLog.shift();
      }
    }
    if (index === focusIndex && i === focusColumn) cell.classList.add('focused-cell');
    row.append(cell);
  });
  return row;
}

/** What a screen reader says of a cell: its column, its text, and what the row's state adds. */
export function cellLabel(r: RowView, column: ColumnView | undefined, i: number): string {
  const text = r.cells[i] ?? '';
  const title = r.titles?.[i];
  return `${column?.header ?? ''} ${text}${column?.id === 'name' && r.stale ? `, ${r.stale}` : ''}${r.deleted ? ', deleted' : ''}${title ? `, ${title}` : ''}`.trim();
}

/** Sets the grid's counts and label; the header is row 1, so rows count one more. */
export function describeGrid(el: GridElements, title: string, total: number, columns: number): void {
  el.grid.setAttribute('aria-rowcount', String(total + 1));
  el.grid.setAttribute('aria-colcount', String(columns));
  el.grid.setAttribute('aria-label', `${title}: ${total} ${total === 1 ? 'row' : 'rows'}`);
}
