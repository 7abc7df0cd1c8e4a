import type { InformerState } from '../informer';

/**
 * The live state of one manifest document, as its lens says it. Honest by construction: "in sync"
 * needs a watch that is watching and has listed, and a dry run made on the live object the watch
 * holds now; anything less says what is known and since when.
 */
export type DocumentState =
  /** The watch is starting or the dry run is being made. */
  | { kind: 'checking'; context: string; why: string }
  | { kind: 'in-sync'; context: string }
  /** `conflicts`: the managers that own some of these fields (the apply must force, and says so). */
  | { kind: 'drifted'; context: string; fields: readonly string[]; conflicts: readonly string[] }
  | { kind: 'missing'; context: string; note?: string }
  /** The watch saw it deleted at `at` (clock ms). */
  | { kind: 'deleted'; context: string; at: number }
  | { kind: 'forbidden'; context: string; reason: string }
  /** The watch is down: `lastInSyncAt` is when it last showed in sync, if it did. */
  | { kind: 'unreachable'; context: string; cause: string; since: number; lastInSyncAt?: number }
  | { kind: 'unknown-kind'; context: string; apiVersion: string; type: string }
  /** The server refused the dry run: invalid fields (Problems has them on their lines), or another refusal. */
  | { kind: 'invalid'; context: string; message: string }
  /** No cluster to compare with (no context, context unusable). */
  | { kind: 'no-cluster'; reason: string };

export type DocumentStateKind = DocumentState['kind'];

/** What a dry run found, for the live object at `liveVersion` ('' when the object was absent). */
export type DryRunFinding =
  | { kind: 'same'; liveVersion: string }
  | { kind: 'drift'; liveVersion: string; fields: readonly string[]; conflicts: readonly string[] }
  | { kind: 'refused'; liveVersion: string; message: string; missingNamespace?: boolean }
  /** No answer (the connection failed, the server was busy: 429, 5xx): nothing is known of the document; the engine tries again. */
  | { kind: 'unanswered'; liveVersion: string; message: string };

/** What the engine knows of a document's object, to decide its state. */
export interface StateInputs {
  context: string;
  watch: InformerState;
  /** The object the watch holds now, if any (its resourceVersion). */
  liveVersion?: string;
  /** When the watch saw the object deleted (it had it, then a delete event). */
  deletedAt?: number;
  lastInSyncAt?: number;
  /** The last dry run's finding, if one ended. */
  finding?: DryRunFinding;
}

const DOWN: Partial<Record<InformerState['phase'], string>> = {
  unreachable: 'unreachable',
  'backing-off': 'reconnecting',
  unauthorized: 'not signed in (401)',
  'credentials-failed': 'credentials failed',
  stopped: 'stopped',
  'not-found': 'type not served',
};

/** The document's state from its inputs (see the file comment). */
export function documentState(i: StateInputs): DocumentState {
  const context = i.context;
  if (i.watch.phase === 'forbidden') return { kind: 'forbidden', context, reason: i.watch.reason ?? 'forbidden' };
  const live = i.watch.phase === 'watching' && i.watch.synced;
  if (!live) {
    if (!i.watch.synced && (i.watch.phase === 'connecting' || i.watch.phase === 'listing')) return { kind: 'checking', context, why: 'reading the cluster' };
    return { kind: 'unreachable', context, cause: DOWN[i.watch.phase] ?? i.watch.phase, since: i.watch.since, ...(i.lastInSyncAt !== undefined ? { lastInSyncAt: i.lastInSyncAt } : {}) };
  }
  if (i.finding?.kind === 'unanswered') return { kind: 'checking', context, why: `no answer to the comparison (${i.finding.message}); trying again` };
  if (i.liveVersion === undefined) {
    if (i.deletedAt !== undefined) return { kind: 'deleted', context, at: i.deletedAt };
    const f = i.finding;
    if (f?.kind === 'refused' && f.liveVersion === '' && !f.missingNamespace) return { kind: 'invalid', context, message: f.message };
    return { kind: 'missing', context, ...(f?.kind === 'refused' && f.missingNamespace ? { note: f.message } : {}) };
  }
  const f = i.finding;
  if (!f || f.liveVersion !== i.liveVersion) return { kind: 'checking', context, why: 'comparing' };
  if (f.kind === 'same') return { kind: 'in-sync', context };
  if (f.kind === 'drift') return { kind: 'drifted', context, fields: f.fields, conflicts: f.conflicts };
  return { kind: 'invalid', context, message: f.message };
}
