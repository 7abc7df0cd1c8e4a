import type { Clock } from '../base/clock';

/**
 * How an informer makes its list: `auto` tries the streaming list (WatchList) and falls back to
 * the paginated LIST when the server cannot do it; `always` never falls back (the state says
 * why it fails); `never` always uses the paginated LIST.
 */
export type StreamingListMode = 'auto' | 'always' | 'never';

export const STREAMING_LIST_MODES: readonly StreamingListMode[] = ['auto', 'always', 'never'];

/** One hour: a server may be upgraded meanwhile, so a refusal is not remembered forever. */
export const STREAMING_LIST_MEMORY_MS = 60 * 60 * 1000;

/**
 * Which group/versions of one cluster were found not to support the streaming list, and why.
 * Shared by every informer of the cluster, so that only the first one pays for the discovery.
 *
 * Invariants:
 * - An entry is forgotten after `ttlMs` on the injected clock.
 * - Every entry is forgotten when the cluster answers again after a connection failure
 *   (`connectionFailed()` then `connectionSucceeded()`): it may be another server now.
 */
export class StreamingListMemory {
  private readonly refused = new Map<string, { reason: string; at: number }>();
  private failedSinceLastSuccess = false;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = STREAMING_LIST_MEMORY_MS,
  ) {}

  /** Why `groupVersion` does not support the streaming list, or undefined when it may. */
  refusal(groupVersion: string): string | undefined {
    const entry = this.refused.get(groupVersion);
    if (!entry) return undefined;
    if (this.clock.now() - entry.at >= this.ttlMs) {
      this.refused.delete(groupVersion);
      return undefined;
    }
    return entry.reason;
  }

  /** Remembers that `groupVersion` cannot serve the streaming list. */
  remember(groupVersion: string, reason: string): void {
    this.refused.set(groupVersion, { reason, at: this.clock.now() });
  }

  /** The cluster could not be reached (refused, reset, DNS, TLS). */
  connectionFailed(): void {
    this.failedSinceLastSuccess = true;
  }

  /** The cluster answered; after a failure, everything remembered is forgotten. */
  connectionSucceeded(): void {
    if (!this.failedSinceLastSuccess) return;
    this.failedSinceLastSuccess = false;
    this.refused.clear();
  }
}
