import { Emitter, type Disposable } from '../base';
import type { TimedLifecycleEvent } from '../informer';
import type { EntriesChange, EntryHandler, WatchEntry } from '../manager';

/** What the tracker observes (a WatchManager is one). */
export interface CatchUpSource {
  entries(): WatchEntry[];
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  addHandler(handler: EntryHandler): Disposable;
}

/** The view is catching up after the process was away. */
export interface CatchUp {
  /** How long the process was away, as the wake detector measured it. */
  readonly awayMs: number;
  /** When the resume was noticed (manager clock). */
  readonly resumedAt: number;
  /** Watches that have not confirmed yet that they are current. */
  readonly pending: number;
  /** Watches that had to confirm. */
  readonly total: number;
}

/** Phases in which a watch cannot confirm anything (the server refuses it, or it is not running): it is not waited for. */
const CANNOT_CONFIRM = new Set(['unauthorized', 'forbidden', 'not-found', 'stopped']);

/**
 * After a resume (the machine slept, the process was stopped: the manager's `resumed` event),
 * which watches have not yet shown that they are current: a watch confirms with a bookmark, an
 * event, a finished list, or a watch opened from its resourceVersion (not a streaming list) that
 * arrives after the resume. Until every watch has, the view says it is catching up; then it clears.
 *
 * Invariants:
 * - `current()` is undefined unless a resume was noticed and some watch has not confirmed since.
 * - A watch that is removed, refused (401, 403, 404) or stopped is not waited for.
 * - A second resume while catching up starts over (every watch must confirm again), with the
 *   longer of the two absences.
 * - The cost of a handler event is one size check while nothing is pending, one set lookup while
 *   something is.
 */
export class CatchUpTracker implements Disposable {
  private readonly pending = new Set<string>();
  private state: { awayMs: number; resumedAt: number; total: number } | undefined;
  private readonly changes = new Emitter<string[]>();
  private readonly subscriptions: Disposable[];

  constructor(private readonly source: CatchUpSource) {
    const confirm = (id: string) => {
      if (this.pending.size > 0 && this.pending.has(id)) this.confirmed([id]);
    };
    this.subscriptions = [
      source.onLifecycle((id, event) => this.lifecycle(id, event)),
      source.addHandler({ onAdd: confirm, onUpdate: confirm, onDelete: confirm }),
      source.onDidChangeEntries(() => this.entriesChanged()),
    ];
  }

  /** The catch-up in progress, if any. */
  current(): CatchUp | undefined {
    return this.state && { ...this.state, pending: this.pending.size };
  }

  /** True while `entryId` has not confirmed since the resume. */
  isCatchingUp(entryId: string): boolean {
    return this.pending.has(entryId);
  }

  /** Fires with the entries whose catching up started or ended. */
  onDidChange(listener: (entryIds: string[]) => void): Disposable {
    return this.changes.on(listener);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.pending.clear();
    this.state = undefined;
    this.changes.dispose();
  }

  private lifecycle(id: string, event: TimedLifecycleEvent): void {
    if (event.type === 'resumed') return this.resumed(event.awayMs, event.at);
    if (this.pending.size === 0 || !this.pending.has(id)) return;
    // A watch opened after the resume from a resourceVersion has the server send every change
    // since at once (or 410, and then a list): current (the manager re-opens them on a resume).
    const resumedWatch = event.type === 'watch-opened' && !event.streaming && event.resourceVersion !== '';
    if (event.type === 'bookmark' || event.type === 'list-done' || event.type === 'synced' || resumedWatch) {
      if (event.at >= (this.state?.resumedAt ?? Number.POSITIVE_INFINITY)) this.confirmed([id]);
    } else if (event.type === 'state' && CANNOT_CONFIRM.has(event.state.phase)) {
      this.confirmed([id]);
    }
  }

  /** The manager announces a resume once per running watch, all at the same instant: the first starts the catch-up. */
  private resumed(awayMs: number, at: number): void {
    if (this.state && this.state.resumedAt === at) return;
    const ids = this.source.entries().filter((e) => e.informer && !CANNOT_CONFIRM.has(e.state.phase)).map((e) => e.id);
    if (ids.length === 0) return;
    const previous = [...this.pending];
    this.pending.clear();
    for (const id of ids) this.pending.add(id);
    this.state = { awayMs: Math.max(awayMs, this.state?.awayMs ?? 0), resumedAt: at, total: ids.length };
    this.changes.fire([...new Set([...previous, ...ids])]);
  }

  private entriesChanged(): void {
    if (this.pending.size === 0) return;
    const byId = new Map(this.source.entries().map((e) => [e.id, e]));
    const done = [...this.pending].filter((id) => {
      const entry = byId.get(id);
      return !entry || !entry.informer || CANNOT_CONFIRM.has(entry.state.phase);
    });
    if (done.length > 0) this.confirmed(done);
  }

  private confirmed(ids: string[]): void {
    for (const id of ids) this.pending.delete(id);
    if (this.pending.size === 0) this.state = undefined;
    this.changes.fire(ids);
  }
}

/** "catching up after 59 s away": what the status bar and the tree say while a catch-up lasts. */
export function catchUpText(awayMs: number): string {
  return `catching up after ${Math.max(1, Math.round(awayMs / 1000))} s away`;
}
