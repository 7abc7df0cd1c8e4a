import type { Clock } from './clock';

export interface BackoffOptions {
  /** First delay ceiling, default 800 ms. */
  initialMs: number;
  /** Largest delay ceiling, default 30 s. */
  maxMs: number;
  /** Growth per failure, default 2. */
  factor: number;
  /** After this long without a failure the next delay starts over from `initialMs`; default 2 min. */
  resetAfterMs: number;
  /**
   * Width of the window the first reconnect after a healthy period is drawn from, starting at
   * `initialMs/2`; default 1.6 s, so [0.4 s, 2 s). See `spread()`.
   */
  spreadMs: number;
}

export const defaultBackoff: BackoffOptions = { initialMs: 800, maxMs: 30_000, factor: 2, resetAfterMs: 120_000, spreadMs: 1600 };

/**
 * Capped exponential backoff with full jitter, in the manner of client-go's
 * ExponentialBackoffManager: the ceiling grows initial·factorⁿ up to max, each delay is drawn
 * uniformly from [ceiling/2, ceiling) so that many informers failing at once spread out while
 * none retries in a tight loop.
 */
export class Backoff {
  private attempt = 0;
  private lastFailureAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    readonly options: BackoffOptions = defaultBackoff,
  ) {}

  /** Registers a failure and returns how long to wait before the next attempt. */
  next(): { delayMs: number; attempt: number } {
    const now = this.clock.now();
    if (this.lastFailureAt !== undefined && now - this.lastFailureAt > this.options.resetAfterMs) this.attempt = 0;
    this.lastFailureAt = now;
    const ceiling = Math.min(this.options.maxMs, this.options.initialMs * this.options.factor ** this.attempt);
    this.attempt++;
    const delayMs = ceiling / 2 + this.clock.random() * (ceiling / 2);
    return { delayMs, attempt: this.attempt };
  }

  /**
   * Registers a failure like `next()`. When it is the first failure after a healthy period, the
   * delay is drawn from the wider window [initialMs/2, initialMs/2 + spreadMs): when a server
   * restarts or a load balancer drops its connections, every informer of the cluster loses its
   * watch in the same instant, and [400, 800) ms would bring 50 of them back at about 12 per
   * 100 ms. Later failures back off as `next()` does.
   */
  spread(): { delayMs: number; attempt: number } {
    const b = this.next();
    if (b.attempt !== 1) return b;
    const lo = this.options.initialMs / 2;
    const hi = Math.max(lo, Math.min(this.options.maxMs, lo + this.options.spreadMs));
    return { delayMs: lo + this.clock.random() * (hi - lo), attempt: b.attempt };
  }

  /** A delay from the spread window alone, without counting a failure. */
  spreadDelay(): number {
    const lo = this.options.initialMs / 2;
    return lo + this.clock.random() * this.options.spreadMs;
  }

  /** A slow retry at the cap, jittered the same way: for refusals that will not heal quickly. */
  slow(): { delayMs: number; attempt: number } {
    this.lastFailureAt = this.clock.now();
    this.attempt++;
    const ceiling = this.options.maxMs;
    return { delayMs: ceiling / 2 + this.clock.random() * (ceiling / 2), attempt: this.attempt };
  }

  reset(): void {
    this.attempt = 0;
    this.lastFailureAt = undefined;
  }
}
