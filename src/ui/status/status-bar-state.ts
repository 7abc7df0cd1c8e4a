import type { CatchUp } from '../../health/catch-up';
import type { WatchEntry } from '../../manager';
import { statusBarModel, type StatusBarModel } from './status-bar-model';
import { TroubleTracker } from './trouble-tracker';

/**
 * The status bar indicator's memory: feed it every entries snapshot (on each manager change and
 * on each tick) and it answers with the model to show. It remembers the runs of failures that
 * the "for more than 30 s" rules need (TroubleTracker) and whether watching is paused.
 * No timers and no `vscode`: time comes in as `now`.
 */
export class StatusBarState {
  private readonly tracker = new TroubleTracker();
  private paused = false;

  /** `scopeOf` gives the tooltip's lines saying what the view shows (see `viewScope`); none without it. */
  /**
   * `scopeOf` gives the tooltip's lines saying what the view shows (see `viewScope`); none without it.
   * `catchUp` the catch-up after a resume in progress, if any (a CatchUpTracker's `current`).
   */
  constructor(
    private readonly scopeOf: (entries: readonly WatchEntry[]) => readonly string[] = () => [],
    private readonly catchUp: () => CatchUp | undefined = () => undefined,
  ) {}

  /** Paused on purpose: the model shows "Paused" whatever the entries. Resuming starts from a clean slate. */
  setPaused(paused: boolean): void {
    if (this.paused && !paused) this.tracker.clear();
    this.paused = paused;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Records the snapshot and returns what to show at `now`. */
  update(entries: readonly WatchEntry[], now: number): StatusBarModel {
    this.tracker.observe(entries, now);
    return statusBarModel({ entries, now, trouble: (id) => this.tracker.get(id), paused: this.paused, scope: this.scopeOf(entries), catchUp: this.catchUp() });
  }

  /** Records a snapshot without computing what to show (the feed draws later, with the tree). */
  record(entries: readonly WatchEntry[], now: number): void {
    this.tracker.observe(entries, now);
  }

  /** What to show at `now` for the last snapshot, without recording anything (e.g. a test looking ahead). */
  modelAt(entries: readonly WatchEntry[], now: number): StatusBarModel {
    return statusBarModel({ entries, now, trouble: (id) => this.tracker.get(id), paused: this.paused, scope: this.scopeOf(entries), catchUp: this.catchUp() });
  }
}
