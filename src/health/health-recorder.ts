import { systemClock, type Clock, type Disposable } from '../base';
import { type TimedLifecycleEvent } from '../informer';
import type { EntriesChange, EntryHandler, WatchEntry } from '../manager';
import { healthStateOf, type HealthState } from './health-state';
import { ADD, DELETE, DEFAULT_LAYOUT, UPDATE, type ChangeKind, type RateLayout } from './rate-buckets';
import { WatchTrack, type MarkerKind } from './watch-track';

/** What the recorder observes (a WatchManager is one). */
export interface HealthSource {
  entries(): WatchEntry[];
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  addHandler(handler: EntryHandler): Disposable;
}

export interface HealthRecorderOptions {
  /** The manager's clock (entry states are stamped with it). */
  clock?: Clock;
  /** How far back the recording reaches; default one hour. */
  windowMs?: number;
  /** Estimated bytes for all tracks together; default 32 MiB. */
  maxBytes?: number;
  /** Fine and coarse bucket widths; the window comes from `windowMs`. */
  layout?: Partial<Omit<RateLayout, 'windowMs'>>;
  /** The log line of a marker's event (src/ui/log's formatting); default `label: type`. */
  lineOf?: (label: string, event: TimedLifecycleEvent) => string;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Records the health of every watch the manager has, from the moment it is created: state spans
 * (from entry states and `state` lifecycle events), markers (expiries, relists, bookmarks,
 * restarts; a relist is its `list-started` event), the time the process was suspended (a span
 * across every band) and the event rate (every handler add, update, delete), over a window (default one
 * hour), within a memory cap. VS Code-free; no timer: old data is dropped as new data comes in.
 *
 * Invariants:
 * - One track per entry id; a removed entry's track ends with a `stopped` (or `paused`) span and
 *   is dropped once that is older than the window; an entry added again with the same id goes on
 *   in its old track.
 * - Estimated bytes stay under `maxBytes`: removed tracks go first (oldest first), then the oldest
 *   markers of the largest track (bookmarks before the others). Spans are never shed.
 * - The cost of a handler event is a map lookup and two counter increments.
 */
export class HealthRecorder implements Disposable {
  private readonly clock: Clock;
  private readonly maxBytes: number;
  private readonly lineOf: (label: string, event: TimedLifecycleEvent) => string;
  private layout: RateLayout;
  private readonly byId = new Map<string, WatchTrack>();
  private readonly subscriptions: Disposable[];
  private listeners: (() => void)[] = [];
  private paused = false;
  /** The instant of the last resume drawn (each is announced once per watch). */
  private lastResumeAt: number | undefined;
  /** Entries that have not shown since the last resume that they are current (as the CatchUpTracker judges): their watching is drawn catching-up. */
  private readonly catchingUp = new Set<string>();
  private disposed = false;

  constructor(
    private readonly source: HealthSource,
    options: HealthRecorderOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.lineOf = options.lineOf ?? ((label, event) => `[${label}] ${event.type}`);
    this.layout = { ...DEFAULT_LAYOUT, ...options.layout, windowMs: options.windowMs ?? DEFAULT_LAYOUT.windowMs };
    const count = (kind: ChangeKind) => (id: string) => {
      const track = this.byId.get(id);
      if (!track) return;
      track.count(this.clock.now(), kind);
      if (this.catchingUp.size > 0 && this.catchingUp.has(id)) this.caughtUp(track, this.clock.now());
      this.changed();
    };
    const onAdd = count(ADD);
    const onUpdate = count(UPDATE);
    const onDelete = count(DELETE);
    this.subscriptions = [
      source.onDidChangeEntries((change) => this.entriesChanged(change)),
      source.onLifecycle((id, event) => this.lifecycle(id, event)),
      source.addHandler({ onAdd: (id) => onAdd(id), onUpdate: (id) => onUpdate(id), onDelete: (id) => onDelete(id) }),
    ];
    for (const entry of source.entries()) this.track(entry);
  }

  /** The window in milliseconds. */
  get windowMs(): number {
    return this.layout.windowMs;
  }

  /** Every track, entries present and recently removed, in the order they were first seen. */
  tracks(): WatchTrack[] {
    this.trim(this.clock.now());
    return [...this.byId.values()];
  }

  track(entryOrId: WatchEntry | string): WatchTrack | undefined {
    if (typeof entryOrId === 'string') return this.byId.get(entryOrId);
    const entry = entryOrId;
    let track = this.byId.get(entry.id);
    if (!track) {
      track = new WatchTrack(entry.id, entry.label, this.layout);
      this.byId.set(entry.id, track);
    }
    track.label = entry.label;
    track.removedAt = undefined;
    track.enter(this.bandState(entry.id, healthStateOf(entry.state)), entry.state.since, entry.state.reason);
    return track;
  }

  /** Called on any change; cheap listeners only (a throttle), since it runs on every event. */
  onDidChange(listener: () => void): Disposable {
    this.listeners = [...this.listeners, listener];
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  /** While true, entries that go away end in a `paused` span rather than `stopped`. */
  setPaused(paused: boolean): void {
    this.paused = paused;
  }

  /**
   * A new window: spans and markers are kept (and trimmed to it), the rate counts start over
   * (their rings are sized for the window).
   */
  setWindow(windowMs: number): void {
    if (windowMs === this.layout.windowMs || !(windowMs > 0)) return;
    this.layout = { ...this.layout, windowMs };
    for (const [id, old] of this.byId) {
      const track = new WatchTrack(id, old.label, this.layout);
      track.spans.push(...old.spans);
      for (const m of old.markers) track.mark(m.kind, m.at, m.line);
      track.removedAt = old.removedAt;
      this.byId.set(id, track);
    }
    this.trim(this.clock.now());
    this.changed();
  }

  /** Estimated bytes of every track. */
  get bytes(): number {
    let sum = 0;
    for (const t of this.byId.values()) sum += t.bytes;
    return sum;
  }

  /** Listener count, for the "nothing left running" checks. */
  get subscriptionCount(): number {
    return this.disposed ? 0 : this.subscriptions.length + this.listeners.length;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.listeners = [];
  }

  private entriesChanged(change: EntriesChange): void {
    const now = this.clock.now();
    if (change.added.length + change.changed.length > 0) {
      const entries = new Map(this.source.entries().map((e) => [e.id, e]));
      for (const id of [...change.added, ...change.changed]) {
        const entry = entries.get(id);
        if (entry) this.track(entry);
      }
    }
    for (const id of change.removed) {
      this.catchingUp.delete(id);
      const track = this.byId.get(id);
      if (!track || track.removedAt !== undefined) continue;
      track.enter(this.paused ? 'paused' : 'stopped', now);
      track.removedAt = now;
    }
    this.trim(now);
    this.changed();
  }

  private lifecycle(id: string, event: TimedLifecycleEvent): void {
    const track = this.byId.get(id);
    // A removed entry's band ends with its removal; its informer's last words (the `stopped`
    // state it may report after the manager let it go) do not reopen it.
    if (!track || track.removedAt !== undefined) return;
    if (event.type === 'state') {
      track.enter(this.bandState(id, healthStateOf(event.state)), event.state.since, event.state.reason);
    } else if (event.type === 'resumed') {
      this.suspended(event.at - event.awayMs, event.at, event.awayMs);
    } else if (this.catchingUp.has(id) && confirmsCurrent(event) && event.at >= (this.lastResumeAt ?? Infinity)) {
      this.caughtUp(track, event.at);
      const kind = markerKind(event);
      if (kind) track.mark(kind, event.at, this.lineOf(track.label, event));
    } else {
      const kind = markerKind(event);
      if (!kind) return;
      track.mark(kind, event.at, this.lineOf(track.label, event));
    }
    this.trim(this.clock.now());
    this.changed();
  }

  /**
   * The process was away from `from` to `to` (the manager announces it once per running watch,
   * all at the same instant): every band, the idle ones too, is drawn suspended for that time,
   * never in the state it happened to be in when the process stopped.
   */
  private suspended(from: number, to: number, awayMs: number): void {
    if (this.lastResumeAt === to) return;
    this.lastResumeAt = to;
    const reason = `process suspended ${Math.max(1, Math.round(awayMs / 1000))} s`;
    this.catchingUp.clear();
    for (const track of this.byId.values()) {
      track.suspend(from, to, reason);
      if (track.removedAt !== undefined || track.state === 'stopped' || track.state === 'paused') continue;
      this.catchingUp.add(track.id);
      if (track.state === 'watching') track.restate('catching-up', to);
    }
  }

  /** The band state of an entry's state: watching is drawn catching-up until the entry shows it is current. */
  private bandState(id: string, state: HealthState): HealthState {
    return state === 'watching' && this.catchingUp.has(id) ? 'catching-up' : state;
  }

  /** The entry showed it is current (an event, a bookmark, a list, a watch opened from its resourceVersion). */
  private caughtUp(track: WatchTrack, at: number): void {
    this.catchingUp.delete(track.id);
    if (track.state === 'catching-up') track.enter('watching', at);
  }

  /** Drops what left the window, then sheds until under the memory cap. */
  private trim(now: number): void {
    const cutoff = now - this.layout.windowMs;
    for (const [id, track] of this.byId) {
      if (track.removedAt !== undefined && track.removedAt < cutoff) this.byId.delete(id);
      else track.forgetBefore(cutoff);
    }
    let excess = this.bytes - this.maxBytes;
    if (excess <= 0) return;
    const removed = [...this.byId.values()].filter((t) => t.removedAt !== undefined).sort((a, b) => a.removedAt! - b.removedAt!);
    for (const track of removed) {
      if (excess <= 0) return;
      excess -= track.bytes;
      this.byId.delete(track.id);
    }
    while (excess > 0) {
      let largest: WatchTrack | undefined;
      for (const t of this.byId.values()) if ((t.markers.length > 0 || t.spans.length > 1) && (!largest || t.bytes > largest.bytes)) largest = t;
      if (!largest) return; // only fixed-size rings and open spans left: the cap is below what they need
      const freed = largest.shed(excess);
      if (freed <= 0) return;
      excess -= freed;
    }
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/** The marker an event is drawn as, if any. */
function markerKind(event: TimedLifecycleEvent): MarkerKind | undefined {
  switch (event.type) {
    case 'expired':
      return 'expired';
    case 'list-started':
      // Every relist starts with one (after an expiry, a restart, repeated errors); the `relist`
      // event only precedes some of them, so it is not drawn, lest a relist show twice.
      return event.relist ? 'relist' : undefined;
    case 'bookmark':
      return 'bookmark';
    case 'restart':
      return 'restart';
    default:
      return undefined;
  }
}

/** What shows a watch is current after a resume (as the CatchUpTracker judges it). */
function confirmsCurrent(event: TimedLifecycleEvent): boolean {
  if (event.type === 'watch-opened') return !event.streaming && event.resourceVersion !== '';
  return event.type === 'bookmark' || event.type === 'list-done' || event.type === 'synced';
}
