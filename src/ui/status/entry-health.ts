import type { WatchEntry } from '../../manager';
import { oneLine } from '../log/log-line';
import { formatSeconds } from '../log/time-text';
import type { Trouble } from './trouble-tracker';

/** How long a failure may last before the status bar changes its background: "more than 30 s". */
export const ESCALATION_MS = 30_000;

/** What an entry is doing, as the status bar groups it. */
export type EntryCondition =
  /** Watching: the cache is live. */
  | 'watching'
  /** Connecting or listing without a failure before it: a first list, a relist after expiry, a restart. */
  | 'starting'
  /** In a run of failures: waiting to retry, or retrying (connecting/listing after a failure). */
  | 'failing'
  /** No informer because the kubeconfig cannot be read or the context cannot be used. */
  | 'misconfigured'
  /** Stopped with no problem (being replaced or removed). */
  | 'stopped'
  /** Not watched because the user may not list and watch the type there: quiet, and not counted. */
  | 'not-allowed';

export type Severity = 'none' | 'warning' | 'error';

export interface EntryHealth {
  readonly entry: WatchEntry;
  readonly condition: EntryCondition;
  readonly severity: Severity;
  /** The run of failures, when `condition` is 'failing'. */
  readonly trouble?: Trouble;
  /** One line saying why `severity` is not 'none' ("unreachable for 45 s: connect ECONNREFUSED"). */
  readonly concern?: string;
}

const rank: Record<Severity, number> = { none: 0, warning: 1, error: 2 };

export function worse(a: Severity, b: Severity): Severity {
  return rank[a] >= rank[b] ? a : b;
}

export function severityRank(s: Severity): number {
  return rank[s];
}

/**
 * An entry's condition and severity at `now`, given its run of failures (from TroubleTracker).
 *
 * - error: the kubeconfig or context cannot be used (at once: nothing will heal it by waiting);
 *   or unauthorized, forbidden or unreachable for more than ESCALATION_MS;
 * - warning: failing (backing off, or unreachable/connecting after a failure, or not found) for
 *   more than ESCALATION_MS; or running on the last good kubeconfig because the current one
 *   cannot be read;
 * - none otherwise, including every failure younger than ESCALATION_MS;
 * - and when the server is back (`serverBackSince`: another watch of the same context has been
 *   watching since this run began), a network failure (unreachable, backing off) is a watch
 *   waiting for its retry: none, or warning once it has not caught up for ESCALATION_MS. Never
 *   red after an outage is over. Refusals (401, 403, 404) are about this watch and stay as above.
 */
export function entryHealth(entry: WatchEntry, trouble: Trouble | undefined, now: number, serverBackSince?: number): EntryHealth {
  // Red is for what may heal: a type the user may not watch is said once, quietly (issue 23).
  if (!entry.informer && entry.errorKind === 'not-allowed') return { entry, condition: 'not-allowed', severity: 'none' };
  if (!entry.informer && (entry.errorKind === 'kubeconfig' || entry.errorKind === 'context')) {
    const what = entry.errorKind === 'context' ? 'context' : 'kubeconfig';
    return { entry, condition: 'misconfigured', severity: 'error', concern: `${what}: ${oneLine(entry.error ?? 'cannot be used', 200)}` };
  }
  const phase = entry.state.phase;
  const reloadProblem = entry.informer && entry.errorKind === 'kubeconfig' && entry.error ? oneLine(entry.error, 200) : undefined;
  const base = (condition: EntryCondition): EntryHealth =>
    reloadProblem ? { entry, condition, severity: 'warning', concern: `kubeconfig: ${reloadProblem}` } : { entry, condition, severity: 'none' };
  if (phase === 'watching') return base('watching');
  if (phase === 'stopped') return base('stopped');
  if (!trouble) return base('starting');

  const reason = trouble.reason ? `: ${oneLine(trouble.reason, 200)}` : '';
  if (serverBackSince !== undefined && serverBackSince > trouble.since && (trouble.phase === 'unreachable' || trouble.phase === 'backing-off')) {
    // The server answers again (another watch of this context is back): this one only waits for
    // its turn to reconnect. Not red; yellow only if catching up itself takes long.
    if (now - serverBackSince > ESCALATION_MS) {
      return { entry, condition: 'failing', severity: 'warning', trouble, concern: `still reconnecting ${formatSeconds(now - serverBackSince)} after the server came back${reason}` };
    }
    return { ...base('failing'), trouble };
  }
  if (trouble.severeSince !== undefined && now - trouble.severeSince > ESCALATION_MS) {
    return { entry, condition: 'failing', severity: 'error', trouble, concern: `${trouble.phase} for ${formatSeconds(now - trouble.severeSince)}${reason}` };
  }
  if (now - trouble.since > ESCALATION_MS) {
    return { entry, condition: 'failing', severity: 'warning', trouble, concern: `failing for ${formatSeconds(now - trouble.since)}, last ${trouble.phase}${reason}` };
  }
  const healthy = base('failing');
  return { ...healthy, trouble };
}
