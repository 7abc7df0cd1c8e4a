import type { Clock } from '../../base';
import type { Staleness } from '../staleness';
import type { ExtraColumnSource } from './extra-columns';
import type { ColumnPrefs } from './table-columns';
import type { TableRow } from './table-rows';

/** How a TableModel is set up: its clock and pace, and what it borrows from the tree and the metrics. */
export interface TableModelOptions {
  clock?: Clock;
  /** Least time between two change notifications; default 100 ms. */
  throttleMs?: number;
  /** How long a deleted row fades before it leaves; default 2000 ms. */
  fadeMs?: number;
  /** A change older than this is not flashed when its row comes into view later; default 2000 ms. */
  flashMs?: number;
  /** The tree's staleness (so the table and the tree agree); none: never stale. */
  stalenessOf?: (entryId: string) => Staleness | undefined;
  /** While watching is paused the rows stay (drawn stale) instead of leaving with their informers. */
  isPaused?: () => boolean;
  /** CPU and memory, or any other borrowed columns. */
  extra?: ExtraColumnSource;
  /** The row's context value as the tree's (`object.pod @delete @shell ...`), for its context menu. */
  contextValueOf?: (row: TableRow) => string;
  columnPrefs?: ColumnPrefs;
  /**
   * Reads the informers' objects in a task of its own, after the constructor's: what the caller
   * sent VS Code meanwhile (a new panel and its page) goes out first, since the extension host
   * writes its messages only once the running task ends (PERF B15: VS Code then builds the page
   * while 100,000 rows are read). Until then the table has no rows and no columns.
   */
  loadLater?: boolean;
}
