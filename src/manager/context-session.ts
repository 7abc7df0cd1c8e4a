import type { ContextFingerprint } from '../cluster/context-identity';
import type { SwitchableTransport } from '../connection/transport/switchable-transport';
import type { StreamingListMemory } from '../informer/streaming-list-memory';
import type { EntryErrorKind } from './watch-entry';

/**
 * The manager's connection to one configured context ("" = the current-context), shared by all
 * its informers. Either usable (`transport` and `fingerprint` set, `problem` unset) or failed
 * (`problem` set: the kubeconfig or the context cannot be used; no transport).
 * Invariant: a usable session's transport is disposed exactly once, when the session is
 * replaced or the manager stops, and only after every informer on it has stopped.
 */
export interface ContextSession {
  /** As configured: a context name, or "" for the current-context. */
  readonly spec: string;
  /** The context the spec resolved to; "" when unknown. */
  readonly contextName: string;
  readonly transport?: SwitchableTransport;
  /** Where this cluster has no streaming list (WatchList); shared by the session's informers. */
  readonly streamingListMemory?: StreamingListMemory;
  fingerprint?: ContextFingerprint;
  /** Why the session is unusable. */
  readonly problem?: { message: string; kind: Extract<EntryErrorKind, 'kubeconfig' | 'context'>; since: number };
  /**
   * Set on a usable session when a later kubeconfig reload failed: the session keeps running on
   * the last good configuration, and entries show this.
   */
  reloadProblem?: string;
}
