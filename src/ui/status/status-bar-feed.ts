import type { Clock, Disposable, TimerHandle } from '../../base';
import type { CatchUp } from '../../health/catch-up';
import type { EntriesChange, WatchEntry } from '../../manager';
import type { StatusBarModel } from './status-bar-model';
import { StatusBarState } from './status-bar-state';

/** What the feed reads from the watch manager (a WatchManager is one). */
export interface StatusBarFeedSource {
  entries(): WatchEntry[];
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
}

export interface StatusBarFeedOptions {
  /**
   * The tree's refreshes (the tree model's `onDidChange`). When given, the indicator is drawn in
   * the same turn as the tree, from the same entries, so the two never disagree: "0/7" never
   * shows beside five nodes that say "watching". Without it, each entries change draws at once.
   */
  viewChanges?: (listener: () => void) => Disposable;
  /**
   * With `viewChanges`, when the view shows the tree's refreshes later than the model makes them
   * (VS Code delays tree refreshes): the model's refreshes. Each arms the fallback, so the
   * indicator follows even while the view is hidden and never asks for its rows.
   */
  viewRequests?: (listener: () => void) => Disposable;
  /** Least clock time between two draws that change only the tooltip (its resourceVersions); default 1000 ms. */
  tooltipRefreshMs?: number;
  /**
   * With `viewChanges`: how long an entries change may wait for the tree's refresh before the
   * indicator draws anyway (the tree may have nothing to redraw); default 250 ms, above the
   * tree's 100 ms refresh window.
   */
  fallbackMs?: number;
  /** The tooltip's lines saying what the view shows (context, namespaces, selectors; `viewScope(...).lines`). */
  scopeOf?: (entries: readonly WatchEntry[]) => readonly string[];
  /** The catch-up after a resume in progress (a CatchUpTracker's `current`): drawn with the tree, which shows it too. */
  catchUp?: () => CatchUp | undefined;
}

const TICK_MS = 1000;

/**
 * When the status bar indicator draws, and what: VS Code-free pacing around StatusBarState.
 *
 * - Every entries snapshot is recorded at once (the failure runs need each phase change).
 * - A draw happens with the tree's refresh (see `viewChanges`), or at once on an entries change
 *   without a tree; every second while the model is `ticking` (countdowns, 30 s thresholds),
 *   from the entries of the last refresh, so a tick never shows what the tree does not yet.
 * - The tooltip's resourceVersions follow the watches while all is healthy: every tree refresh
 *   recomputes them. A draw that changes only the tooltip is throttled to one per
 *   `tooltipRefreshMs`, so a storm of events costs at most one tooltip update a second.
 * - `show` is called only when something shown changed.
 *
 * Invariant: at most one tick, one tooltip and one fallback timer pending; none after dispose.
 */
export class StatusBarFeed implements Disposable {
  private readonly state: StatusBarState;
  private readonly tooltipRefreshMs: number;
  private readonly fallbackMs: number;
  private readonly subscriptions: Disposable[];
  private current: StatusBarModel;
  private shownKey = '';
  private shownTooltip = '';
  private shownAt = Number.NEGATIVE_INFINITY;
  private tick: TimerHandle | undefined;
  private tooltipTimer: TimerHandle | undefined;
  private fallback: TimerHandle | undefined;
  private disposed = false;
  private readonly withView: boolean;
  /** The entries of the last full refresh: what the tree shows too (ticks redraw from it, so they never run ahead of the tree). */
  private snapshot: WatchEntry[];
  /** Draws so far (for tests and the benchmark). */
  draws = 0;

  constructor(
    private readonly source: StatusBarFeedSource,
    private readonly clock: Clock,
    private readonly show: (model: StatusBarModel) => void,
    options: StatusBarFeedOptions = {},
  ) {
    this.state = new StatusBarState(options.scopeOf, options.catchUp);
    this.tooltipRefreshMs = options.tooltipRefreshMs ?? 1000;
    this.fallbackMs = options.fallbackMs ?? 250;
    const withView = options.viewChanges;
    this.withView = withView !== undefined;
    this.subscriptions = [
      source.onDidChangeEntries(() => {
        this.state.record(this.source.entries(), this.clock.now());
        if (!withView) this.refresh();
        else this.armFallback();
      }),
      ...(withView ? [withView(() => this.refresh())] : []),
      ...(withView && options.viewRequests ? [options.viewRequests(() => this.armFallback())] : []),
    ];
    this.snapshot = source.entries();
    this.current = this.state.update(this.snapshot, clock.now());
    this.draw(this.current, true);
    this.armTick();
  }

  /** The model on display. */
  get model(): StatusBarModel {
    return this.current;
  }

  setPaused(paused: boolean): void {
    this.state.setPaused(paused);
    this.refresh();
  }

  /** Recomputes from the entries now and draws what changed. */
  refresh(): void {
    if (this.disposed) return;
    this.fallback?.cancel();
    this.fallback = undefined;
    this.snapshot = this.source.entries();
    this.current = this.state.update(this.snapshot, this.clock.now());
    this.draw(this.current, false);
    this.armTick();
  }

  /** Time alone moved: redraw the last snapshot at the new time (with a view, never newer entries than the tree shows). */
  private ticked(): void {
    this.tick = undefined;
    if (this.disposed) return;
    if (!this.withView) return this.refresh();
    this.current = this.state.modelAt(this.snapshot, this.clock.now());
    this.draw(this.current, false);
    this.armTick();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const t of [this.tick, this.tooltipTimer, this.fallback]) t?.cancel();
    this.tick = this.tooltipTimer = this.fallback = undefined;
  }

  /** Draws within `fallbackMs` even if the view never reports drawing. */
  private armFallback(): void {
    if (!this.fallback && !this.disposed) this.fallback = this.clock.setTimer(() => this.refresh(), this.fallbackMs);
  }

  private draw(model: StatusBarModel, force: boolean): void {
    const key = JSON.stringify([model.text, model.background, model.ariaLabel]);
    const now = this.clock.now();
    if (!force && key === this.shownKey) {
      if (model.tooltip === this.shownTooltip) return;
      const due = this.shownAt + this.tooltipRefreshMs;
      if (now < due) {
        if (!this.tooltipTimer) this.tooltipTimer = this.clock.setTimer(() => this.tooltipDue(), due - now);
        return;
      }
    }
    this.tooltipTimer?.cancel();
    this.tooltipTimer = undefined;
    this.shownKey = key;
    this.shownTooltip = model.tooltip;
    this.shownAt = now;
    this.draws++;
    this.show(model);
  }

  private tooltipDue(): void {
    this.tooltipTimer = undefined;
    if (this.disposed) return;
    this.current = this.state.modelAt(this.withView ? this.snapshot : this.source.entries(), this.clock.now());
    this.draw(this.current, false);
  }

  private armTick(): void {
    this.tick?.cancel();
    this.tick = undefined;
    if (this.current.ticking && !this.disposed) this.tick = this.clock.setTimer(() => this.ticked(), TICK_MS);
  }
}
