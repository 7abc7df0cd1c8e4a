import { ApiError } from '../base';
import type { AccessReviewCache } from '../cluster/access-review';
import type { KubeTransport } from '../informer';
import type { ActionPlan, PlannedWrite } from './action-plan';
import { refusalWords } from './refusal-words';
import type { WriteJournal } from './write-journal';

/** What running a plan needs: the transport of the target's origin (never looked up again by entry id), the journal, its access reviews and user. */
export interface ActionSession {
  readonly transport: Pick<KubeTransport, 'write'>;
  readonly journal: WriteJournal;
  readonly access?: AccessReviewCache;
  /** The kubeconfig user, for the journal and the words of a refusal. */
  readonly user?: string;
}

export interface WriteResult {
  readonly ok: boolean;
  /** The server's answer when it accepted the write. */
  readonly answer?: unknown;
  /** What happened, in words (a refusal says which verb on which resource). */
  readonly words: string;
  /** The HTTP status of a refusal (403, 409, 429, …). */
  readonly code?: number;
  /** What the refusal was, as thrown (ApiError, TransportError, …): the action flow reads it to tell "moved" from "unreachable". */
  readonly error?: unknown;
}

/**
 * Sends one planned write, journaled: pending until the watch shows it. A 403 makes the access
 * cache forget what it contradicts, so that the menus stop offering what the server refuses.
 * Never throws: a refusal comes back in words.
 */
export async function sendWrite(write: PlannedWrite, plan: Pick<ActionPlan, 'verb' | 'summary'>, session: ActionSession, signal: AbortSignal): Promise<WriteResult> {
  const handle = session.journal.begin({ user: session.user, verb: plan.verb, watched: write.watched, summary: plan.summary, confirm: write.confirm });
  try {
    if (!session.transport.write) throw new Error('this connection cannot write');
    const answer = await session.transport.write(write.request, signal);
    handle.succeeded(answer);
    return { ok: true, answer, words: 'done' };
  } catch (err) {
    const words = refusalWords(err, write.access, session.user);
    handle.failed(err, words);
    if (err instanceof ApiError && err.code === 403) session.access?.invalidate(write.access);
    return { ok: false, words, error: err, ...(err instanceof ApiError ? { code: err.code } : {}) };
  }
}

/** Sends a plan's writes in order, stopping at the first that fails; the last result. */
export async function runPlan(plan: ActionPlan, session: ActionSession, signal: AbortSignal): Promise<WriteResult> {
  let last: WriteResult = { ok: true, words: 'nothing to write' };
  for (const write of plan.writes) {
    last = await sendWrite(write, plan, session, signal);
    if (!last.ok) return last;
  }
  return last;
}
