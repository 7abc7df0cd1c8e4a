import type { RevisionRecord } from './release-record';

/** The statuses of an operation helm began and did not finish (its process died, a timeout, a Ctrl-C). */
export const PENDING_STATUSES = ['pending-install', 'pending-upgrade', 'pending-rollback'] as const;

/**
 * A release whose newest revision is stuck pending: helm refuses another upgrade or rollback
 * ("another operation (install/upgrade/rollback) is in progress") until it is resolved.
 */
export interface StuckAdvice {
  readonly status: string;
  readonly revision: number;
  /** The last revision that was deployed or superseded: the usual target of a rollback; undefined when none. */
  readonly rollbackTo: number | undefined;
  /** In the user's words: what happened and what usually unsticks it. */
  readonly text: string;
}

export function isPendingStatus(status: string): boolean {
  return (PENDING_STATUSES as readonly string[]).includes(status);
}

/** The advice for a release whose revisions (oldest first) end with a pending one; undefined otherwise. */
export function stuckAdviceOf(revisions: readonly RevisionRecord[]): StuckAdvice | undefined {
  const latest = revisions[revisions.length - 1];
  if (!latest || !isPendingStatus(latest.status)) return undefined;
  const earlier = revisions.slice(0, -1).reverse();
  const target = earlier.find((r) => r.status === 'deployed') ?? earlier.find((r) => r.status === 'superseded');
  const what = latest.status.replace('pending-', '');
  const text =
    latest.status === 'pending-install' || target === undefined
      ? `Stuck in ${latest.status} at revision ${latest.revision}: the ${what} never finished and helm refuses other operations. Uninstall the release (nothing was deployed before it) or, if the ${what} is really still running, wait for it.`
      : `Stuck in ${latest.status} at revision ${latest.revision}: the ${what} never finished and helm refuses other operations. Roll back to revision ${target.revision}, the last deployed one (helm rollback ${latest.name} ${target.revision}).`;
  return { status: latest.status, revision: latest.revision, rollbackTo: latest.status === 'pending-install' ? undefined : target?.revision, text };
}
