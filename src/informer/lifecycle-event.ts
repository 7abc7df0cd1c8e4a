import type { InformerState } from './informer-state';

/**
 * Everything that happens to a watch, as a typed stream for the log channel, the CLI and tests.
 * No event ever carries a credential: reasons come from server Status messages and network
 * error codes only.
 */
export type LifecycleEvent =
  | { type: 'state'; state: InformerState }
  /** `streaming`: a streaming list (WatchList), one request that lists and then watches. */
  | { type: 'list-started'; relist: boolean; resourceVersion?: string; streaming?: boolean }
  | { type: 'list-page'; page: number; items: number }
  | { type: 'list-done'; items: number; pages: number; resourceVersion: string; durationMs: number; streaming?: boolean }
  | { type: 'list-restarted'; reason: string }
  /** The streaming list is not available here: the paginated LIST is used instead (remembered for the cluster). */
  | { type: 'streaming-list-fallback'; reason: string }
  | { type: 'synced'; resourceVersion: string; objects: number }
  /**
   * `protocol`: how the cluster's connection talks, when the transport says ('h2' or 'http/1.1').
   * `streaming`: a streaming list opened (its list is published at its bookmark, not here).
   */
  | { type: 'watch-opened'; resourceVersion: string; timeoutSeconds: number; protocol?: string; streaming?: boolean }
  | {
      type: 'watch-closed';
      resourceVersion?: string;
      /** ended: by the server at its timeout; ended-early: by the server, early and empty; failed; stopped: by us. */
      cause: 'ended' | 'ended-early' | 'failed' | 'stopped';
      reason: string;
      events: number;
      durationMs: number;
    }
  | { type: 'bookmark'; resourceVersion: string }
  | { type: 'expired'; resourceVersion?: string; message: string }
  | { type: 'relist'; reason: string }
  | { type: 'backoff'; attempt: number; delayMs: number; cause: string; retryAt: number }
  | { type: 'warning'; message: string; eventType?: string }
  | { type: 'handler-error'; handler: string; message: string }
  | { type: 'restart'; reason: string }
  /** The process was away (machine suspended, process stopped) for `awayMs`; its connections are being verified. */
  | { type: 'resumed'; awayMs: number }
  /**
   * The watch's cluster became unreachable (requests fail below HTTP while watches wait) or
   * reachable again (F50), said once per transition; `detail` says how it is probed or what answered.
   */
  | { type: 'reachability'; reachable: boolean; detail: string }
  | { type: 'stopped' };

export type LifecycleEventType = LifecycleEvent['type'];

/** A lifecycle event stamped with the time it happened. */
export type TimedLifecycleEvent = LifecycleEvent & { at: number };
