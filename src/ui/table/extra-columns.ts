import type { KubeObject } from '../../informer';

/**
 * Columns a resource table shows beside the ones kubectl prints for a kind: CPU and memory from
 * metrics.k8s.io for pods and nodes, sums on workloads. The table asks for them per kind, tells
 * the source what it shows (so values are fetched only for that), and redraws the cells of the
 * rows a change names. A source never blocks the table: a cell it cannot fill says why.
 */
export interface ExtraColumnSource {
  /** The columns for a kind (an empty list when the source has none for it). */
  columnsFor(kind: ExtraColumnKind): readonly ExtraColumn[];
  /**
   * A table now shows objects of `kind` in `namespaces` ('all' for every namespace, or a
   * cluster-scoped kind) on `context`. Values are fetched only while at least one showing is open;
   * dispose it when the table closes, hides or changes scope.
   */
  show(context: string, kind: ExtraColumnKind, namespaces: readonly string[] | 'all'): { dispose(): void };
  /** Values changed for these rows (keys `namespace/name`, or `name` when cluster-scoped); no keys: all rows of that kind. */
  onDidChange(listener: (change: ExtraColumnChange) => void): { dispose(): void };
}

export interface ExtraColumnKind {
  readonly group: string;
  readonly kind: string;
}

export interface ExtraColumnChange {
  readonly context: string;
  readonly kind: ExtraColumnKind;
  readonly keys?: readonly string[];
}

export interface ExtraColumn {
  /** Stable id, kept in the user's hidden and ordered columns (e.g. `cpu`, `mem`, `cpu%r`, `mem%l`). */
  readonly id: string;
  /** The header as k9s prints it: `CPU`, `MEM`, `%CPU/R`, `%MEM/L`. */
  readonly header: string;
  cell(context: string, obj: KubeObject): ExtraCell;
}

export interface ExtraCell {
  /** What the cell reads: `250m`, `128Mi`, `42%`; a short word when there is no value (`n/a`, `—`). */
  readonly text: string;
  /** The number a sort uses (undefined sorts after every value, whichever the direction). */
  readonly sortValue?: number;
  /** The hover: how fresh the value is (its sample's timestamp and window), or why there is none. */
  readonly title?: string;
  /** `muted` for no value, `warning` for stale or over a limit; theme colours decide how it looks. */
  readonly tone?: 'normal' | 'muted' | 'warning';
}
