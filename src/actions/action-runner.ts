import { ApiError } from '../base';
import type { AccessReviewCache } from '../cluster/access-review';
import type { KubeObject, KubeTransport } from '../informer';
import type { ActionPlan, PlannedOn, PlannedWrite } from './action-plan';
import { refusalWords } from './refusal-words';
import type { WriteJournal } from './write-journal';

/** What running a plan needs: the transport of the target's origin (never looked up again by entry id), the journal, its access reviews and user. */
export interface ActionSession {
  /** Writes; reads too when it can (`getJson`), to say how an object moved when a precondition refused a write. */
  readonly transport: Pick<KubeTransport, 'write'> & Partial<Pick<KubeTransport, 'getJson'>>;
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
  /**
   * The object moved since the plan was made (changed, or deleted and re-created under its name):
   * a precondition refused the write (409 Conflict, a failed JSON patch `test`, a uid mismatch),
   * nothing was written, and the plan must be made again and shown again.
   */
  readonly moved?: boolean;
  /** What the refusal was, as thrown (ApiError, TransportError, …): the action flow reads it to tell "moved" from "unreachable". */
  readonly error?: unknown;
}

/**
 * Sends one planned write, journaled: pending until the watch shows it. A 403 makes the access
 * cache forget what it contradicts, so that the menus stop offering what the server refuses.
 * A write refused by its preconditions comes back `moved`, in words that say how the object
 * moved. Never throws: a refusal comes back in words.
 */
export async function sendWrite(write: PlannedWrite, plan: Pick<ActionPlan, 'verb' | 'summary'>, session: ActionSession, signal: AbortSignal): Promise<WriteResult> {
  const handle = session.journal.begin({ user: session.user, verb: plan.verb, watched: write.watched, summary: plan.summary, confirm: write.confirm });
  try {
    if (!session.transport.write) throw new Error('this connection cannot write');
    const answer = await session.transport.write(write.request, signal);
    handle.succeeded(answer);
    return { ok: true, answer, words: 'done' };
  } catch (err) {
    const movement = write.plannedOn && err instanceof ApiError && (err.code === 409 || err.code === 422) ? await howItMoved(write.plannedOn, err, session, signal) : undefined;
    const words = movement?.words ?? refusalWords(err, write.access, session.user);
    handle.failed(err, words);
    if (err instanceof ApiError && err.code === 403) session.access?.invalidate(write.access);
    return { ok: false, words, error: err, ...(err instanceof ApiError ? { code: err.code } : {}), ...(movement ? { moved: movement.moved } : {}) };
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

const AGAIN = 'nothing was written; the plan is shown again';

/**
 * Whether a 409 or 422 means the object moved since the plan, and the words: the object is read
 * fresh and its uid and resourceVersion compared with the plan's. Without a read, a 409 and a 422
 * about `metadata.uid` count as moved; a 422 the read shows unmoved stays the server's refusal.
 */
async function howItMoved(on: PlannedOn, err: ApiError, session: ActionSession, signal: AbortSignal): Promise<{ moved: boolean; words: string } | undefined> {
  const title = on.title ?? 'The object';
  let now: KubeObject | undefined;
  if (session.transport.getJson && on.path) {
    try {
      now = await session.transport.getJson<KubeObject>(on.path, {}, signal);
    } catch (readErr) {
      if (readErr instanceof ApiError && readErr.code === 404) return { moved: false, words: `${title} was deleted since this was planned: nothing was written.` };
      now = undefined;
    }
  }
  if (now) {
    if (on.uid && now.metadata.uid && now.metadata.uid !== on.uid) return { moved: true, words: `${title} was deleted and re-created since this was planned (uid ${on.uid} → ${now.metadata.uid}): ${AGAIN}` };
    if (on.resourceVersion && now.metadata.resourceVersion !== on.resourceVersion) return { moved: true, words: `${title} changed since this was planned (rv ${on.resourceVersion} → ${now.metadata.resourceVersion ?? '?'}): ${AGAIN}` };
    return undefined;
  }
  const uidRefused = err.code === 409 ? /precondition/i.test(err.message) && /uid/i.test(err.message) : (err.status.details?.causes ?? []).some((c) => c.field === 'metadata.uid');
  if (uidRefused) return { moved: true, words: `${title} was deleted and re-created since this was planned (uid ${on.uid ?? '?'} is gone): ${AGAIN}` };
  if (err.code === 409) return { moved: true, words: `${title} changed since this was planned (rv ${on.resourceVersion ?? '?'} → a newer one): ${AGAIN}` };
  return undefined;
}
