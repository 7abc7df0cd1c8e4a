/**
 * What an informer is doing right now. Exactly one state at a time; `since` is when it
 * was entered, `nextRetryAt` is set only for the waiting states.
 */
export type InformerPhase =
  | 'connecting'
  | 'listing'
  | 'watching'
  | 'backing-off'
  | 'unreachable'
  | 'unauthorized'
  /** The credentials could not be obtained (an exec plugin failed: exit code, bad output, timeout). */
  | 'credentials-failed'
  | 'forbidden'
  | 'not-found'
  | 'stopped';

export interface InformerState {
  phase: InformerPhase;
  /** Human-readable cause, for example the server's message or the network error. */
  reason?: string;
  /** Epoch milliseconds when this phase was entered. */
  since: number;
  /** Epoch milliseconds of the next attempt, while waiting to retry. */
  nextRetryAt?: number;
  /** True once a complete list has been published; stays true across reconnects. */
  synced: boolean;
}

/** Where the last seen resourceVersion came from. */
export type ResourceVersionSource = 'list' | 'event' | 'bookmark';

export interface InformerStats {
  resourceVersion?: string;
  resourceVersionSource?: ResourceVersionSource;
  resourceVersionAt?: number;
  lastEventAt?: number;
  lastBookmarkAt?: number;
  lists: number;
  relists: number;
  watches: number;
  expiries: number;
  errors: number;
  /** Handler events delivered: adds, updates, deletes. */
  events: number;
  objects: number;
}

export function emptyStats(): InformerStats {
  return { lists: 0, relists: 0, watches: 0, expiries: 0, errors: 0, events: 0, objects: 0 };
}

/** Phases in which the informer waits for a slow retry because the server refused it. */
export function isRefusedPhase(phase: InformerPhase): boolean {
  return phase === 'unauthorized' || phase === 'forbidden' || phase === 'not-found';
}
