/** What the cluster overview's webview is sent and sends back (shared by the host and the page). */

/** One kind's count: a link that opens that kind. */
export interface KindCount {
  readonly group: string;
  readonly kind: string;
  /** The kubectl name: `pods`, `deployments.apps`. */
  readonly resource: string;
  /** Objects the watches hold now; undefined while they have not listed yet. */
  readonly count?: number;
  /** Why there is no count, or that it may be behind (`listing…`, `stale`, `forbidden`). */
  readonly note?: string;
}

export interface WarningLine {
  readonly at: number;
  readonly reason: string;
  readonly object: string;
  readonly message: string;
  readonly count: number;
}

export interface NodeLine {
  readonly name: string;
  readonly ready: string;
  /** `250m (6%)`, or undefined when there is no value (`note` says why). */
  readonly cpu?: string;
  readonly mem?: string;
  readonly cpuPercent?: number;
  readonly memPercent?: number;
  readonly note?: string;
}

export interface OverviewSnapshot {
  readonly type: 'snapshot';
  readonly context: string;
  readonly title: string;
  readonly now: number;
  /** The watches' health in one line (`5/5 watching`, or the worst state). */
  readonly health: string;
  readonly healthTone: 'ok' | 'warning' | 'error' | 'neutral';
  readonly counts: readonly KindCount[];
  /** Warning events of the last hour; undefined when Events are not watched (`eventsNote` says so). */
  readonly warnings?: readonly WarningLine[];
  readonly warningCount?: number;
  readonly eventsNote?: string;
  readonly nodes?: readonly NodeLine[];
  readonly nodesNote?: string;
}

export type OverviewHostMessage = OverviewSnapshot;

export type OverviewWebviewMessage = { readonly type: 'ready' } | { readonly type: 'open'; readonly group: string; readonly kind: string; readonly resource: string };

/** A kind's plural as the API paths and tables name it (`deployments`), from its kubectl name (`deployments.apps`). */
export function pluralOf(target: { readonly group: string; readonly resource: string }): string {
  const suffix = target.group ? `.${target.group}` : '';
  return suffix && target.resource.endsWith(suffix) ? target.resource.slice(0, -suffix.length) : target.resource;
}
