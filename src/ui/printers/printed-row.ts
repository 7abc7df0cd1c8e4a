import type { Tone } from '../tree/tone';

/**
 * One object as `kubectl get` prints it, plus what a one-line tree row can show of it.
 *
 * A tree item has a label (the name), a description in a proportional font that VS Code cuts at
 * the right edge, and a tooltip. So:
 * - `columns`/`cells` are kubectl's whole row (NAME included, wide columns after the default
 *   ones), for the tooltip;
 * - `summary` is the description, fields in priority order: what must survive a narrow side bar
 *   comes first. The first field is always the status (a pod's STATUS and READY, a Deployment's
 *   READY, an Event's TYPE), so that it is the last thing cut.
 */
export interface PrintedRow {
  /** kubectl's column headers (`NAME`, `READY`, `STATUS`, ...). */
  columns: string[];
  /** One cell per column, already formatted as kubectl prints it (`<none>`, `3 (5m ago)`, `2d`). */
  cells: string[];
  /** Index of the first wide-only column (`-o wide`), or `columns.length` when none. */
  wideFrom: number;
  /** The description's fields, most important first; empty fields are left out. */
  summary: string[];
  health: Health;
  /** What the tooltip adds under the row (a condition's message, an Event's full message). */
  notes?: string[];
  /** The label, when the name is not the best one (Events: their reason). */
  label?: string;
}

/** How an object is doing: the row's icon (a codicon id) and tone. */
export interface Health {
  icon: string;
  tone: Tone;
}

/** The description: the summary's fields joined by " · ". */
export function describeRow(row: PrintedRow): string {
  return row.summary.filter((f) => f !== '').join(' · ');
}

/** A key that changes whenever what a row shows changes (ages aside, which follow from time). */
export function rowKey(row: PrintedRow): string {
  return JSON.stringify([row.label ?? '', row.summary, row.health.icon, row.health.tone, row.cells, row.notes ?? []]);
}

/** Builds a row; `wide` columns go after the default ones. */
export function row(columns: [string, string][], init: Omit<PrintedRow, 'columns' | 'cells' | 'wideFrom'>, wide: [string, string][] = []): PrintedRow {
  const all = [...columns, ...wide];
  return { columns: all.map(([c]) => c), cells: all.map(([, v]) => v), wideFrom: columns.length, ...init };
}

/**
 * The row as `kubectl get` prints it (default columns, or all with `wide`): headers over
 * cells, each column padded to its widest entry plus three spaces, as kubectl's tabwriter
 * aligns them. Two lines, no trailing spaces.
 */
export function kubectlLines(printed: PrintedRow, wide = false): [string, string] {
  const n = wide ? printed.columns.length : printed.wideFrom;
  const headers = printed.columns.slice(0, n);
  const cells = printed.cells.slice(0, n).map((c) => c.replace(/\s*\n\s*/g, ' '));
  const widths = headers.map((h, i) => Math.max(h.length, cells[i].length));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] + 3)))
      .join('')
      .trimEnd();
  return [line(headers), line(cells)];
}
