import type { Clock, Disposable, TimerHandle } from '../../base';
import type { WatchEntry } from '../../manager';
import { STALE_GRACE_MS, type Staleness, type StalenessTracker } from '../staleness';
import type { EntryPlace } from './tree-layout';
import type { TreeRefresh } from './tree-refresh';

const ONE_SECOND = 1000;

/**
 * The tree's clocks: the stale tick (a down watch's rows turn stale at the end of its grace, then
 * their stale time counts each second) and the countdown ("reconnecting in 4 s"), on one cadence.
 *
 * Invariants: no timer while every watch is live and none counts down; at most one re-render a
 * second (the countdown's own timer is off while a stale tick runs); none after `dispose()`.
 */
export class TreeTicks implements Disposable {
  /** Entries counting down to a retry ("reconnecting in 4 s"). */
  private waiting = new Set<string>();
  /** The countdown's own timer: armed only while no stale tick runs (see syncCountdownTimer). */
  private countdown: TimerHandle | undefined;
  /** Ticks while some watch is down: at the end of its grace, then each second its stale time moves. */
  private staleTimer: TimerHandle | undefined;
  private staleTimerAt = Number.POSITIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly staleness: StalenessTracker,
    private readonly places: ReadonlyMap<string, EntryPlace>,
    /** The entry as the manager describes it now. */
    private readonly entry: (id: string) => WatchEntry | undefined,
    private readonly refresh: TreeRefresh,
  ) {}

  /** The entries changed: restarts the countdowns, observes who is down, and re-arms the stale tick. */
  entriesChanged(entries: readonly WatchEntry[]): void {
    this.restartCountdown(entries);
    this.staleness.observe(entries, this.clock.now());
    this.scheduleStaleTick();
  }

  /**
   * True when the rows of `id` re-render on the stale tick anyway, within the second: its watch
   * is stale and the tick is armed. A change of its state (a retry that failed again) is then
   * drawn by that tick, not by a refresh of its own between two ticks: VS Code re-renders a
   * refreshed node's whole subtree, and closes a row's hover whenever it re-renders (V01).
   */
  ticksWith(id: string): boolean {
    return this.staleTimer !== undefined && this.places.has(id) && this.staleness.staleness(id, this.clock.now()) !== undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.countdown?.cancel();
    this.countdown = undefined;
    this.staleTimer?.cancel();
    this.staleTimer = undefined;
  }

  /**
   * Arms the stale timer for the next moment a down watch's rows change: the end of its grace
   * (its objects turn stale, on time), then each whole second of stale time, on one cadence for
   * all: the seconds of the earliest outage. Watches fail milliseconds apart (each has its own
   * `since`); a tick per watch would re-render the tree several times a second, where one tick
   * shows every stale time to the second (each rounded down at that instant). No timer while
   * all are live.
   */
  private scheduleStaleTick(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    const outages = this.staleness.down().filter((id) => this.places.has(id)).map((id) => this.staleness.outage(id)).filter((o): o is Staleness => o !== undefined);
    const anchor = Math.min(...outages.map((o) => o.since));
    let next = Number.POSITIVE_INFINITY;
    for (const outage of outages) {
      const graceEnd = outage.since + STALE_GRACE_MS + 1;
      next = Math.min(next, now < graceEnd ? graceEnd : anchor + (Math.floor((now - anchor) / ONE_SECOND) + 1) * ONE_SECOND + 1);
    }
    if (next === this.staleTimerAt && this.staleTimer) return;
    this.staleTimer?.cancel();
    this.staleTimer = undefined;
    this.staleTimerAt = next;
    if (next !== Number.POSITIVE_INFINITY) this.staleTimer = this.clock.setTimer(() => this.staleTick(), Math.max(0, next - now));
    this.syncCountdownTimer();
  }

  /** Refreshes the subtrees of the stale watches only (their watch node re-renders its objects). */
  private staleTick(): void {
    this.staleTimer = undefined;
    this.staleTimerAt = Number.POSITIVE_INFINITY;
    if (this.disposed) return;
    const now = this.clock.now();
    for (const id of this.staleness.down()) {
      const place = this.places.get(id);
      if (place && this.staleness.staleness(id, now)) this.refresh.mark(place.watchNode);
    }
    this.markCountdowns(now);
    if (this.refresh.hasDirty) this.refresh.request();
    this.scheduleStaleTick();
  }

  /** Ticks once a second while some watch counts down to a retry, so "reconnecting in N s" and "next try in N s" count. */
  private restartCountdown(entries: readonly WatchEntry[]): void {
    const now = this.clock.now();
    this.waiting = new Set(entries.filter((e) => e.state.phase !== 'watching' && (e.state.nextRetryAt ?? 0) > now).map((e) => e.id));
    this.syncCountdownTimer();
  }

  /**
   * One re-render a second, not two: while a stale tick runs (each second of a down watch's
   * stale time) it counts down too, and the countdown's own timer is off. A refresh re-renders
   * the node's whole subtree, and VS Code closes a row's hover whenever the row re-renders, so
   * two cadences out of phase would leave a stale row's tooltip hardly any time to show.
   */
  private syncCountdownTimer(): void {
    if (this.staleTimer || this.waiting.size === 0 || this.disposed) {
      this.countdown?.cancel();
      this.countdown = undefined;
      return;
    }
    this.countdown ??= this.clock.setTimer(() => this.tick(), ONE_SECOND);
  }

  private tick(): void {
    this.countdown = undefined;
    if (this.disposed) return;
    this.markCountdowns(this.clock.now());
    if (this.refresh.hasDirty) this.refresh.request();
    this.syncCountdownTimer();
  }

  /** Marks the nodes of the entries counting down for a refresh; forgets those whose retry is due or that watch again. */
  private markCountdowns(now: number): void {
    for (const id of [...this.waiting]) {
      const place = this.places.get(id);
      const entry = this.entry(id);
      if (!place || !entry || entry.state.phase === 'watching' || entry.state.nextRetryAt === undefined) {
        this.waiting.delete(id);
        continue;
      }
      this.refresh.mark(place.watchNode);
      if (place.watchNode !== place.node) this.refresh.mark(place.node);
      if ((entry.state.nextRetryAt ?? 0) <= now) this.waiting.delete(id);
    }
  }
}
