import { TransportDisposedError, describeError } from '../base/api-error';
import { sleep } from '../base/sleep';
import { errorKey, FailurePolicy, repeatsLeadToRelist } from './failure-policy';
import { listAll } from './list-request';
import { ReflectorContext, RewatchRequestedError, ShortWatchError, type ReflectorHost, type ReflectorOptions } from './reflector-context';
import { groupVersion } from './resource-type';
import { StreamingListUnsupportedError } from './watch-list';
import { watchOnce, type WatchOutcome } from './watch-request';

export type { ReflectorHost, ReflectorOptions } from './reflector-context';

/** Retries at once in a row after which the next one backs off instead. */
const TIGHT_LOOP_GUARD = 3;

/** Streaming lists in a row ended or cut before their bookmark after which the type is listed by LIST (F47). */
export const INCOMPLETE_STREAMING_LISTS = 3;

/**
 * The list/watch state machine for one informer: the run loop. It owns the resourceVersion
 * (kept in its ReflectorContext):
 * - after a complete list, the list's resourceVersion;
 * - while watching, the resourceVersion of the last event or bookmark delivered.
 * A watch always resumes from that resourceVersion; only expiry (410), a persistent
 * too-large resourceVersion, repeated errors or a failed short watch lead to a relist.
 * A list is published to the store only when its last page has arrived (list-request.ts);
 * one watch request is watch-request.ts; what a failure leads to is failure-policy.ts.
 */
export class Reflector {
  private readonly r: ReflectorContext;
  private readonly policy: FailurePolicy;
  /** When the backoff after the last failure ends (clock ms); survives a restart. */
  private retryAt = 0;
  /**
   * Whether a restart already skipped the backoff wait since the last attempt that waited it
   * out: a restart retries at once only once, so repeated restarts do not burst lists at a
   * failing server.
   */
  private restartSkippedWait = false;

  constructor(host: ReflectorHost, options: ReflectorOptions) {
    this.r = new ReflectorContext(host, options);
    this.policy = new FailurePolicy(this.r);
  }

  private get o(): ReflectorOptions {
    return this.r.o;
  }

  get lastResourceVersion(): string {
    return this.r.resourceVersion;
  }

  /**
   * Re-opens the open watch from its resourceVersion at once (no relist, no backoff); does
   * nothing while listing or waiting. True when a watch was open.
   */
  rewatch(why: string): boolean {
    const rewatch = this.r.rewatch;
    rewatch?.(why);
    return rewatch !== undefined;
  }

  /** Runs until `signal` fires. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    this.r.needList = true;
    this.r.relistReason = undefined;
    let consecutiveFailures = 0;
    let lastErrorKey = '';
    let sameErrorCount = 0;
    let retriesAtOnce = 0;
    if (!this.r.lastAttemptFailed) {
      this.o.backoff.reset(); // a (re)start after health is a fresh beginning: attempts count from 1 again
    } else if (this.restartSkippedWait && this.retryAt > this.o.clock.now()) {
      // A second restart while the server keeps failing waits out the backoff the first one skipped.
      const reason = 'restarted while failing: waiting out the backoff';
      this.r.host.setPhase('backing-off', reason, this.retryAt);
      try {
        await sleep(this.o.clock, this.retryAt - this.o.clock.now(), signal);
      } catch {
        return;
      }
      this.restartSkippedWait = false;
    } else {
      this.restartSkippedWait = true; // the backoff is kept: a failure now waits longer
    }
    this.r.host.setPhase('connecting');
    while (!signal.aborted) {
      this.r.watchOpened = false;
      this.r.watchFailedAtOnce = false;
      try {
        let outcome: WatchOutcome;
        if (this.r.needList && this.streams()) {
          // One request lists and then watches; it publishes the list at its bookmark.
          outcome = await watchOnce(this.r, signal, true);
        } else {
          if (this.r.needList) await listAll(this.r, signal, this.r.relistReason);
          outcome = await watchOnce(this.r, signal, false);
        }
        if (outcome === 'short') throw new ShortWatchError();
        this.r.lastAttemptFailed = false;
        consecutiveFailures = 0;
        retriesAtOnce = 0;
        lastErrorKey = '';
        sameErrorCount = 0;
        if (outcome === 'early') {
          // Ended cleanly but long before its timeout, with nothing in it: a server shutting
          // down or a proxy recycling connections, likely for every watch at once. Not a failure;
          // re-watch from the same resourceVersion after a short spread so they do not stampede.
          const delayMs = this.o.backoff.spreadDelay();
          const retryAt = this.o.clock.now() + delayMs;
          this.r.host.setPhase('connecting', 'the server ended the watch early', retryAt);
          try {
            await sleep(this.o.clock, delayMs, signal);
          } catch {
            break;
          }
        }
        continue; // F04: a watch that reached its timeout is re-opened at once
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof TransportDisposedError) {
          // Nothing can succeed on a disposed transport: no retry loop, wait to be stopped or restarted.
          this.r.host.setPhase('stopped', 'its connection to the cluster was closed');
          await aborted(signal);
          break;
        }
        // Asked for by the owner (after a resume): no failure; the same resourceVersion, at once.
        if (err instanceof RewatchRequestedError) continue;
        if (this.r.incompleteStreamingLists >= INCOMPLETE_STREAMING_LISTS && this.o.streamingList === 'auto') {
          // F47: as after a 422 (F33), remembered for the cluster's group/version; the paginated LIST at once.
          const why = `${this.r.incompleteStreamingLists} streaming lists in a row ended before their initial-events-end bookmark (${describeError(err)})`;
          this.r.incompleteStreamingLists = 0;
          this.o.streamingListMemory.remember(groupVersion(this.o.type), why);
          this.r.host.emit({ type: 'streaming-list-fallback', reason: why });
          continue;
        }
        if (err instanceof StreamingListUnsupportedError && this.o.streamingList === 'auto') {
          // F33/F34: remembered for the cluster's group/version; the paginated LIST at once.
          this.o.streamingListMemory.remember(groupVersion(this.o.type), err.why);
          this.r.host.emit({ type: 'streaming-list-fallback', reason: err.why });
          continue;
        }
        const decision = this.policy.decide(err);
        // An open watch lost after a healthy run: likely every watch of the cluster at once (B4).
        const spread = consecutiveFailures === 0 && this.r.watchOpened;
        consecutiveFailures++;
        this.r.lastAttemptFailed = true;
        const key = errorKey(err) + (this.r.watchFailedAtOnce ? ':at-once' : '');
        sameErrorCount = key === lastErrorKey ? sameErrorCount + 1 : 1;
        lastErrorKey = key;
        if (!decision.relist && sameErrorCount >= 2 && (repeatsLeadToRelist(err) || this.r.watchFailedAtOnce)) {
          decision.relist = true;
          decision.relistReason = `the same error repeated: ${decision.reason}`;
        }
        if (decision.relist) {
          this.r.needList = true;
          this.r.relistReason = decision.relistReason ?? decision.reason;
        }
        let wait = decision.wait;
        // Retrying at once (expiry, a bad line) is right once or twice, never as a loop.
        if (wait === 'none' && ++retriesAtOnce >= TIGHT_LOOP_GUARD) wait = 'backoff';
        if (wait === 'none') continue; // listAll or the next watch sets the phase
        retriesAtOnce = 0;
        const { delayMs, attempt } = this.delayFor(wait, spread);
        const retryAt = this.o.clock.now() + delayMs;
        this.retryAt = retryAt;
        this.r.host.setPhase(decision.phase, decision.reason, retryAt);
        this.r.host.emit({ type: 'backoff', attempt, delayMs: Math.round(delayMs), cause: decision.reason, retryAt });
        try {
          // The cluster answering again (to any informer) ends the wait early, within 1 s.
          await sleep(this.o.clock, delayMs, signal, this.o.transport.onReachable?.bind(this.o.transport));
        } catch {
          break;
        }
        this.restartSkippedWait = false;
      }
    }
  }

  /** Whether the next list is a streaming list (WatchList). */
  private streams(): boolean {
    switch (this.o.streamingList) {
      case 'never':
        return false;
      case 'always':
        return true;
      case 'auto':
        return this.o.streamingListMemory.refusal(groupVersion(this.o.type)) === undefined;
    }
  }

  private delayFor(wait: 'backoff' | 'slow' | number, spread: boolean): { delayMs: number; attempt: number } {
    if (wait === 'slow') return this.o.backoff.slow();
    if (wait === 'backoff' && spread) return this.o.backoff.spread();
    const b = this.o.backoff.next();
    if (wait === 'backoff') return b;
    return { delayMs: Math.max(b.delayMs, Math.min(wait, this.o.maxRetryAfterMs)), attempt: b.attempt };
  }
}

/** Resolves when `signal` fires. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
