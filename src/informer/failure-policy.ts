import { AbortedError, ApiError, ProtocolError, TransportError, describeError } from '../base/api-error';
import type { InformerPhase } from './informer-state';
import { DeadlineError, ShortWatchError, type ReflectorContext, type ReflectorHost } from './reflector-context';
import type { StreamingListMemory } from './streaming-list-memory';
import { CONNECTION_REPLACED } from './transport';
import { StreamingListIncompleteError, StreamingListUnsupportedError } from './watch-list';

/** Why a loop iteration ended, and what to do next. */
export interface Decision {
  relist: boolean;
  relistReason?: string;
  /** 'backoff' = the jittered backoff; 'slow' = at the cap; a number = at least that long. */
  wait: 'none' | 'backoff' | 'slow' | number;
  phase: InformerPhase;
  reason: string;
}

const NETWORK_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/**
 * The reflector's failure policy: the table from an error to what happens next (relist or not,
 * how long to wait, the phase shown and why). Pure except for counting stats, logging, and the
 * cluster's streaming-list memory.
 */
export class FailurePolicy {
  private readonly host: ReflectorHost;
  private readonly memory: StreamingListMemory;

  constructor(private readonly r: ReflectorContext) {
    this.host = r.host;
    this.memory = r.o.streamingListMemory;
  }

  /** Maps a failure to what happens next. */
  decide(err: unknown): Decision {
    const stats = this.host.stats;
    if (err instanceof StreamingListUnsupportedError) {
      // Only with streamingList 'always': no fallback, the state says why.
      stats.errors++;
      return { relist: true, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    if (err instanceof StreamingListIncompleteError) {
      stats.errors++;
      return { relist: true, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    if (err instanceof ShortWatchError) {
      stats.errors++;
      // One early close may be a server shutting down gracefully; a repeat relists (F20).
      return { relist: false, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    if (err instanceof ApiError) {
      stats.errors++;
      this.memory.connectionSucceeded(); // the server answered
      const msg = describeError(err);
      if (err.isExpired) {
        stats.expiries++;
        this.r.resourceVersionUnavailable = true;
        this.host.emit({ type: 'expired', resourceVersion: this.r.resourceVersion || undefined, message: err.message });
        return { relist: true, relistReason: 'expired', wait: 'none', phase: 'listing', reason: `expired: ${err.message}` };
      }
      if (err.isResourceVersionTooLarge) {
        // A streaming list cannot wait for a resourceVersion the server does not have: start from scratch.
        if (this.r.needList) this.r.resourceVersionUnavailable = true;
        // F13: wait as advised and retry from the same resourceVersion; a repeat relists.
        return { relist: false, wait: err.retryAfterMs ?? 'backoff', phase: 'backing-off', reason: msg };
      }
      switch (err.code) {
        case 401:
          return { relist: true, wait: 'slow', phase: 'unauthorized', reason: err.message };
        case 403:
          return { relist: true, wait: 'slow', phase: 'forbidden', reason: err.message };
        case 404:
          // F40: the cache is kept (client-go never touches the store on an error). Only discovery
          // tells a transient 404 from a version that moved (F39) or a type gone (F30): the owner asks it.
          return { relist: true, wait: 'slow', phase: 'not-found', reason: err.message };
        case 400:
        case 422:
          return { relist: true, wait: 'slow', phase: 'backing-off', reason: `the server rejected the request: ${err.message}` };
      }
      if (err.retryAfterMs !== undefined) return { relist: false, wait: err.retryAfterMs, phase: 'backing-off', reason: msg };
      return { relist: false, wait: 'backoff', phase: 'backing-off', reason: msg };
    }
    if (err instanceof ProtocolError) {
      stats.errors++;
      this.host.emit({ type: 'warning', message: err.message, eventType: err.eventType });
      return { relist: false, wait: 'none', phase: 'connecting', reason: err.message };
    }
    if (err instanceof TransportError && err.code === CONNECTION_REPLACED) {
      // F24: after a wake the transport replaced a connection that did not answer in time by a
      // fresh one that did: the network is there, so the watch resumes on it at once.
      return { relist: false, wait: 'none', phase: 'connecting', reason: err.message };
    }
    if (err instanceof TransportError && err.code === 'ECREDENTIALS') {
      // F46: a failing exec plugin (or auth provider) is no news about the network; its message
      // says how it failed (exit code, bad output, timeout), never what it printed.
      stats.errors++;
      return { relist: false, wait: 'backoff', phase: 'credentials-failed', reason: err.message };
    }
    if (err instanceof TransportError) {
      stats.errors++;
      const unreachable = err.code !== undefined && NETWORK_UNREACHABLE.has(err.code);
      if (unreachable) this.memory.connectionFailed();
      return { relist: false, wait: 'backoff', phase: unreachable ? 'unreachable' : 'backing-off', reason: err.message };
    }
    if (err instanceof DeadlineError) {
      stats.errors++;
      return { relist: false, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    stats.errors++;
    const reason = err instanceof AbortedError ? err.message : describeError(err);
    this.host.emit({ type: 'warning', message: `unexpected failure: ${reason}` });
    return { relist: true, wait: 'backoff', phase: 'backing-off', reason };
  }
}

/** Errors that relist when they repeat (F16): server-side failures, not refusals or the network. */
export function repeatsLeadToRelist(err: unknown): boolean {
  if (err instanceof ShortWatchError) return true;
  if (err instanceof ApiError) return err.isResourceVersionTooLarge || (err.code >= 500 && err.code !== 503) || err.origin === 'event';
  return false;
}

/** Two failures with the same key are "the same error repeated". */
export function errorKey(err: unknown): string {
  if (err instanceof ApiError) return `api:${err.origin}:${err.code}:${err.reason}`;
  if (err instanceof TransportError) return `net:${err.code ?? ''}`;
  return err instanceof Error ? err.name : 'unknown';
}
