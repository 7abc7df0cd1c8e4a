import type { Clock, Disposable, TimerHandle } from '../../base';
import type { HealthSnapshot } from './health-messages';

export interface HealthFeedOptions {
  /** Shortest time between two snapshots while changes come in; default 500 ms (2 per second). */
  minIntervalMs?: number;
  /** A snapshot at least this often while the panel is open, so ages and the band's edge move; default 1,000 ms. */
  heartbeatMs?: number;
}

/** What the feed needs from the recorder. */
export interface FeedSource {
  onDidChange(listener: () => void): Disposable;
}

/**
 * Sends snapshots to an open panel: at most one per `minIntervalMs` while the recording changes,
 * one per `heartbeatMs` while it is quiet. Nothing runs while stopped: no timer, no listener.
 *
 * Invariant: at most one timer at a time; `start` after `start` and `stop` after `stop` are harmless.
 */
export class HealthFeed implements Disposable {
  private readonly minIntervalMs: number;
  private readonly heartbeatMs: number;
  private timer: TimerHandle | undefined;
  private timerDue = 0;
  private subscription: Disposable | undefined;
  private lastSent = -Infinity;
  private dirty = false;

  constructor(
    private readonly source: FeedSource,
    private readonly build: (now: number) => HealthSnapshot,
    private readonly post: (snapshot: HealthSnapshot) => void,
    private readonly clock: Clock,
    options: HealthFeedOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? 500;
    this.heartbeatMs = options.heartbeatMs ?? 1000;
  }

  get running(): boolean {
    return this.subscription !== undefined;
  }

  /** Timers running (0 or 1), for the "nothing left running" checks. */
  get openTimers(): number {
    return this.timer ? 1 : 0;
  }

  /** Listeners held on the recorder (0 or 1). */
  get openSubscriptions(): number {
    return this.subscription ? 1 : 0;
  }

  /** Starts feeding, with a snapshot at once. */
  start(): void {
    if (this.subscription) return;
    this.subscription = this.source.onDidChange(() => this.changed());
    this.send();
  }

  /** A snapshot now (the webview said it is ready, or asked again). */
  sendNow(): void {
    if (this.subscription) this.send();
  }

  stop(): void {
    this.subscription?.dispose();
    this.subscription = undefined;
    this.timer?.cancel();
    this.timer = undefined;
  }

  dispose(): void {
    this.stop();
  }

  private changed(): void {
    if (this.dirty) return;
    this.dirty = true;
    const due = Math.max(this.lastSent + this.minIntervalMs, this.clock.now());
    if (this.timer && this.timerDue <= due) return;
    this.schedule(due - this.clock.now());
  }

  private send(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const now = this.clock.now();
    this.dirty = false;
    this.lastSent = now;
    this.post(this.build(now));
    if (this.subscription) this.schedule(this.heartbeatMs);
  }

  private schedule(ms: number): void {
    this.timer?.cancel();
    this.timerDue = this.clock.now() + ms;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      if (this.subscription) this.send();
    }, ms);
  }
}
