import type { ForwardCounts } from './connection-tally';

/**
 * ready: connections go to `pod`; failing: they go to `pod` and its port refuses them (the last
 * connection failed before the pod answered); waiting: no running pod; reconnecting: the watches
 * behind it are down.
 */
export type ForwardPhase = 'starting' | 'ready' | 'failing' | 'waiting' | 'reconnecting' | 'stopped';

/** What the view shows of a forward. */
export interface ForwardStatus extends ForwardCounts {
  readonly phase: ForwardPhase;
  /** Why, in words (connection refused by pod web-1 port 80; no running pod of svc/web 80; the pod watch is unreachable). */
  readonly reason?: string;
  /** Since when (clock ms) the phase holds. */
  readonly since: number;
  readonly localAddress: string;
  readonly localPort: number;
  /** The pod new connections go to. */
  readonly pod?: string;
  readonly podPort?: number;
  /** Whether `pod` is Ready (false: Running but not Ready, used because no Ready pod is there, W14). */
  readonly podReady?: boolean;
  /** Connections a client uses now: waiting for a pod, opening, relayed and not finished by the client. */
  readonly open: number;
  readonly lastError?: string;
}

/** What a forward holds now (tests, the extension's test API): all 0 once stopped. */
export interface ForwardResources {
  readonly listeners: number;
  readonly streams: number;
  readonly sockets: number;
  readonly timers: number;
  readonly watches: number;
}
