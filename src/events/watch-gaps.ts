import type { Clock } from '../base';
import type { InformerState, TimedLifecycleEvent } from '../informer';

/** Why the events watch saw nothing for a while. */
export type GapKind = 'down' | 'suspended' | 'catching-up';

/** A span in which events may have happened that the feed did not see. `end` unset: still open. */
export interface WatchGap {
  readonly kind: GapKind;
  readonly start: number;
  readonly end?: number;
  /** In words, from the watch's state ("connection refused", "forbidden"). */
  readonly reason?: string;
}

/** How many gaps are kept; the oldest go first (a session with more outages than this has bigger problems). */
const MAX_GAPS = 500;

/**
 * The spans where an events watch did not deliver: down (it left `watching` after its first
 * sync: reconnecting, backing off, unreachable, refused), suspended (the process was away: a
 * `resumed` event's `awayMs` before it) and catching up (after a resume, until a bookmark, an
 * event, a finished list or a watch re-opened from its resourceVersion shows it is current).
 * Fed the informer's states and lifecycle events; no timer.
 *
 * Invariants: at most one open gap of each kind; an open gap ends with the first state or event
 * that shows the watch delivering again; before the first sync nothing is a gap (the first list
 * brings what exists); `stop()` ends open gaps at the given time.
 */
export class WatchGaps {
  private readonly closed: WatchGap[] = [];
  private openDown: { start: number; reason?: string } | undefined;
  private openCatchUp: number | undefined;
  private synced = false;

  constructor(private readonly clock: Clock) {}

  /** Every gap, oldest first, open ones last ending unset. */
  gaps(): WatchGap[] {
    const out = [...this.closed];
    if (this.openDown) out.push({ kind: 'down', start: this.openDown.start, ...(this.openDown.reason ? { reason: this.openDown.reason } : {}) });
    if (this.openCatchUp !== undefined) out.push({ kind: 'catching-up', start: this.openCatchUp });
    return out.sort((a, b) => a.start - b.start);
  }

  /** An informer state (its `onStateChange`). */
  state(state: InformerState): void {
    if (state.phase === 'watching') {
      this.synced = this.synced || state.synced;
      this.endDown(state.since);
      return;
    }
    if (!this.synced && !state.synced) return;
    this.synced = true;
    if (state.phase === 'listing' && this.openDown === undefined) return; // a relist from a live watch (410): the list brings what was missed
    if (!this.openDown) this.openDown = { start: state.since, reason: state.reason };
    else if (state.reason && state.phase !== 'connecting' && state.phase !== 'listing') this.openDown.reason = state.reason;
  }

  /** A lifecycle event of the informer, or the manager's `resumed`. */
  lifecycle(event: TimedLifecycleEvent): void {
    if (event.type === 'resumed') {
      if (!this.synced) return;
      this.push({ kind: 'suspended', start: event.at - event.awayMs, end: event.at });
      if (this.openCatchUp === undefined) this.openCatchUp = event.at;
      return;
    }
    if (this.openCatchUp === undefined) return;
    const reopened = event.type === 'watch-opened' && !event.streaming && event.resourceVersion !== '';
    if (event.type === 'bookmark' || event.type === 'list-done' || event.type === 'synced' || reopened) this.endCatchUp(event.at);
  }

  /** An event arrived: the watch is delivering. */
  delivered(): void {
    if (this.openCatchUp !== undefined) this.endCatchUp(this.clock.now());
  }

  /** The watch stopped (the feed closed or moved): open gaps end now. */
  stop(at = this.clock.now()): void {
    this.endDown(at);
    if (this.openCatchUp !== undefined) this.endCatchUp(at);
  }

  private endDown(at: number): void {
    if (!this.openDown) return;
    this.push({ kind: 'down', start: this.openDown.start, end: Math.max(at, this.openDown.start), ...(this.openDown.reason ? { reason: this.openDown.reason } : {}) });
    this.openDown = undefined;
  }

  private endCatchUp(at: number): void {
    const start = this.openCatchUp ?? at;
    this.openCatchUp = undefined;
    this.push({ kind: 'catching-up', start, end: Math.max(at, start) });
  }

  private push(gap: WatchGap): void {
    this.closed.push(gap);
    if (this.closed.length > MAX_GAPS) this.closed.shift();
  }
}
