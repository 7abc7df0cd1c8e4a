import { AbortedError, ApiError, Backoff, TransportError, defaultBackoff, describeError, type BackoffOptions, type Clock } from '../base';
import { type InformerPhase, type InformerState, type KubeTransport, type ResourceType, type TimedLifecycleEvent } from '../informer';
import { sleep } from '../base/sleep';
import { UnknownResourceError, resolveResourceType } from './discovery';

/** A failed resolution attempt and when the next one will be made. */
export interface ResolutionWait {
  /** The phase to show meanwhile: not-found, unreachable, unauthorized, forbidden or backing-off. */
  phase: InformerPhase;
  /** One line, safe to show (server messages and network error codes only). */
  reason: string;
  error: unknown;
  attempt: number;
  delayMs: number;
  /** Epoch milliseconds of the next attempt (on the clock). */
  retryAt: number;
}

export interface ResolveWithRetryOptions {
  clock: Clock;
  /** Aborting it ends the loop with AbortedError. */
  signal: AbortSignal;
  backoff?: Partial<BackoffOptions>;
  /** Deadline of one attempt's discovery requests; default 60 s. */
  attemptTimeoutMs?: number;
  /**
   * true: an unknown type is final and thrown as UnknownResourceError (the CLI).
   * false (default): it is retried slowly, at the backoff cap, so that a CRD installed later is
   * picked up (F22).
   */
  unknownIsFinal?: boolean;
  /** Called after each failed attempt, before waiting. */
  onWaiting?(wait: ResolutionWait): void;
}

/**
 * Resolves a resource type through discovery, retrying what may heal: the network (jittered
 * backoff), refusals and unknown types (slowly, at the cap), other server errors (backoff,
 * Retry-After honoured). Never retries in a tight loop; every wait runs on `clock` and ends at
 * once when `signal` fires.
 */
export async function resolveWithRetry(transport: KubeTransport, spelling: string, options: ResolveWithRetryOptions): Promise<ResourceType> {
  const { clock, signal } = options;
  const backoff = new Backoff(clock, { ...defaultBackoff, ...options.backoff });
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 60_000;
  for (;;) {
    if (signal.aborted) throw new AbortedError('resolution stopped');
    let failure: unknown;
    try {
      return await withDeadline(clock, signal, attemptTimeoutMs, (s) => resolveResourceType(transport, spelling, s));
    } catch (err) {
      if (signal.aborted) throw new AbortedError('resolution stopped');
      if (err instanceof UnknownResourceError && options.unknownIsFinal) throw err;
      failure = err;
    }
    const { phase, slow, reason, retryAfterMs } = classify(failure);
    const step = slow ? backoff.slow() : backoff.next();
    const delayMs = Math.max(step.delayMs, retryAfterMs ?? 0);
    const retryAt = clock.now() + delayMs;
    options.onWaiting?.({ phase, reason, error: failure, attempt: step.attempt, delayMs: Math.round(delayMs), retryAt });
    await sleep(clock, delayMs, signal);
  }
}

/** The state to show while waiting for the next attempt. */
export function resolutionWaitState(wait: ResolutionWait, at: number): InformerState {
  return { phase: wait.phase, reason: wait.reason, since: at, nextRetryAt: wait.retryAt, synced: false };
}

/**
 * A failed attempt as lifecycle events, the way an informer reports its own waits: the state it
 * shows meanwhile, then the backoff.
 */
export function resolutionWaitEvents(wait: ResolutionWait, at: number): TimedLifecycleEvent[] {
  return [
    { type: 'state', state: resolutionWaitState(wait, at), at },
    { type: 'backoff', attempt: wait.attempt, delayMs: wait.delayMs, cause: wait.reason, retryAt: wait.retryAt, at },
  ];
}

function classify(err: unknown): { phase: InformerPhase; slow: boolean; reason: string; retryAfterMs?: number } {
  if (err instanceof UnknownResourceError) return { phase: 'not-found', slow: true, reason: err.message };
  if (err instanceof ApiError) {
    const reason = `discovery failed: ${describeError(err)}`;
    if (err.code === 401) return { phase: 'unauthorized', slow: true, reason };
    if (err.code === 403) return { phase: 'forbidden', slow: true, reason };
    return { phase: 'backing-off', slow: false, reason, retryAfterMs: err.retryAfterMs };
  }
  if (err instanceof TransportError && err.code === 'ECREDENTIALS') return { phase: 'credentials-failed', slow: false, reason: err.message };
  if (err instanceof TransportError) return { phase: 'unreachable', slow: false, reason: `discovery failed: ${err.message}` };
  return { phase: 'backing-off', slow: false, reason: `discovery failed: ${describeError(err)}` };
}

/** Runs one attempt with its own deadline; the deadline surfaces as a TransportError. */
async function withDeadline<T>(clock: Clock, signal: AbortSignal, ms: number, fn: (s: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(new AbortedError('resolution stopped'));
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = clock.setTimer(() => {
    timedOut = true;
    ctl.abort(new AbortedError('deadline'));
  }, ms);
  try {
    return await fn(ctl.signal);
  } catch (err) {
    if (timedOut && !signal.aborted) throw new TransportError(`no answer to discovery within ${Math.round(ms / 1000)} s`, 'ETIMEDOUT');
    throw err;
  } finally {
    timer.cancel();
    signal.removeEventListener('abort', onAbort);
  }
}
