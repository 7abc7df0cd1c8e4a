import type { Clock, TimerHandle } from '../../src/base/clock';

/**
 * A clock whose time moves only when the test moves it, and whose timers fire only then:
 * `advance(ms)` fires what fell due (each at its own time, in order), `advanceToNext()` jumps to
 * the next timer. For planning logic stepped through simulated hours in milliseconds.
 */
export class ManualClock implements Clock {
  private t: number;
  private timers: { at: number; seq: number; fn: () => void; cancelled: boolean }[] = [];
  private seq = 0;

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  random(): number {
    return 0.5;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way (timers they set included). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (let due = this.nextDue(); due !== undefined && due <= end; due = this.nextDue()) this.fireNext();
    this.t = end;
  }

  /** The due time of the earliest pending timer, if any. */
  nextDue(): number | undefined {
    let min: number | undefined;
    for (const x of this.timers) if (!x.cancelled && (min === undefined || x.at < min)) min = x.at;
    return min;
  }

  /** Jumps to the earliest pending timer and fires it (and only it); false when none is pending. */
  fireNext(): boolean {
    const live = this.timers.filter((x) => !x.cancelled);
    if (live.length === 0) return false;
    const next = live.reduce((a, b) => (b.at < a.at || (b.at === a.at && b.seq < a.seq) ? b : a));
    this.timers = live.filter((x) => x !== next);
    if (next.at > this.t) this.t = next.at;
    next.fn();
    return true;
  }

  /** Timers not yet fired or cancelled. */
  pending(): number {
    return this.timers.filter((x) => !x.cancelled).length;
  }
}
