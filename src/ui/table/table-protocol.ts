/**
 * The messages between a resource table's host (src/vscode/table) and its page
 * (src/webview/table). The host sorts and filters; the page asks for the rows it can show and
 * draws them, so a message carries a window of rows, never the whole table.
 */

/** The keys' actions: each runs the command the tree's context menu runs on the row. */
export type TableAction = 'describe' | 'yaml' | 'edit' | 'logs' | 'shell' | 'forward' | 'delete';

/** One column as the page draws it. */
export interface ColumnView {
  readonly id: string;
  readonly header: string;
  /** Numbers, quantities and durations line up on the right. */
  readonly numeric: boolean;
  readonly hidden: boolean;
}

/** One row of the window. `cells` follow the shown (not hidden) columns, in order. */
export interface RowView {
  readonly key: string;
  readonly cells: readonly string[];
  /** Hovers by cell index (extra columns say how fresh a value is). */
  readonly titles?: Readonly<Record<number, string>>;
  /** Tones by cell index: `muted` or `warning` (theme colours). */
  readonly tones?: Readonly<Record<number, 'muted' | 'warning'>>;
  /** Cells whose value changed since the page last saw this row: they flash once. */
  readonly changed?: readonly number[];
  /** The object is gone: the row fades, then leaves. */
  readonly deleted?: boolean;
  /** The row is new: it slides in (the focused row stays where it is). */
  readonly added?: boolean;
  /** Why this row is not live ("stale 40 s · unreachable"): drawn with a marker on the row. */
  readonly stale?: string;
  /** The row's `data-vscode-context` (JSON): the object and the actions its context menu offers. */
  readonly context: string;
}

/** The table's state and a window of its rows. */
export interface TableSnapshot {
  readonly type: 'snapshot';
  readonly title: string;
  /** What reopens this table after a reload (the page keeps it as its state). */
  readonly state: TableState;
  /** Kinds `:` can go to (the watched types), for suggestions. */
  readonly kinds?: readonly string[];
  /** Every column, in the user's order, hidden ones included (the page shows the others). */
  readonly columns: readonly ColumnView[];
  readonly sort?: { readonly column: string; readonly descending: boolean };
  readonly filter: string;
  /** Why the filter text is not a filter; the text stays as typed and every row shows. */
  readonly filterProblem?: string;
  /** '' for all namespaces. */
  readonly namespace: string;
  /** Namespaces to choose from; empty for a cluster-scoped kind. */
  readonly namespaces: readonly string[];
  /** Rows that pass the filter and the namespace choice. */
  readonly total: number;
  /** Rows before the filter. */
  readonly all: number;
  /** Index of the first row sent. */
  readonly start: number;
  readonly rows: readonly RowView[];
  /** Where the focused row now is among the filtered rows (-1 when filtered out or gone). */
  readonly focusIndex: number;
  /** The focused row's key that `focusIndex` is for (the page may have moved on since). */
  readonly focusKey?: string;
  /** One line above the grid while a watch behind the table is stale or paused, or none is watched. */
  readonly banner?: string;
  /** The key help's extra line: which keys do nothing on this kind. */
  readonly note?: string;
  /** When the host sent it (epoch ms): the page records it with each draw, so a benchmark can tell the host's share of a delay from the page's. */
  readonly sentAt?: number;
}

export type HostMessage = TableSnapshot | { readonly type: 'focus-filter' } | { readonly type: 'problem'; readonly text: string };

export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'window'; readonly start: number; readonly count: number }
  | { readonly type: 'focus'; readonly key: string }
  | { readonly type: 'sort'; readonly column: string }
  | { readonly type: 'filter'; readonly text: string }
  | { readonly type: 'namespace'; readonly namespace: string }
  | { readonly type: 'columns'; readonly order: readonly string[]; readonly hidden: readonly string[] }
  | { readonly type: 'action'; readonly action: TableAction; readonly key: string }
  | { readonly type: 'goto'; readonly text: string };

/** What the panel remembers across a reload of the window (its serializer's state). */
export interface TableState {
  readonly context: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly filter?: string;
}
