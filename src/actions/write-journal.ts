import { Emitter, describeError, systemClock, type Clock, type Disposable, type TimerHandle } from '../base';
import type { KubeObject } from '../informer';
import type { EntryHandler, WatchEntry } from '../manager';
import type { WatchedObject } from './action-plan';
import { typeName } from './action-target';
import { insideSelectors } from './selector-match';
import { watchShows, type Expectation } from './watch-expectation';

/**
 * Every write Kube Watch makes, from the moment it is sent until the watch shows it: the server
 * answers with a resourceVersion, and the write stays pending until an informer that watches the
 * object delivers that version (or the delete); then it is confirmed. If the watch has not shown
 * it within `confirmWithinMs`, the write is `behind`: the view may be behind (the watch is slow or
 * stale), never "failed" (the server said yes). Each write is one line in the log when its outcome
 * is known: context, user, verb, object, result. VS Code-free; the edit saves use it too.
 *
 * Invariants:
 * - A record's state only moves forward: sending → pending → confirmed | behind (→ confirmed), or
 *   sending → failed | unwatched | confirmed (the watch was quicker than the answer).
 * - Confirmed only by the watch (W10): the write's resourceVersion delivered, or for a delete or an
 *   eviction the delete event, or a synced cache without the object's uid. An object terminating
 *   (deletionTimestamp set) is not yet deleted: the record stays pending and says so.
 * - A write on an object no watch can see (none of its type and namespace, or outside every such
 *   watch's label and field selectors) is `unwatched`: "written, not visible to the watch".
 * - Exactly one info/warn/error line per write; a confirmation after `behind` is a debug line.
 * - Cache events cost nothing while no write waits (one size check).
 * - After `dispose()` no timer or handler is left.
 */

export type WriteState = 'sending' | 'pending' | 'confirmed' | 'behind' | 'failed' | 'unwatched';

/** What a write is, as the caller knows it before sending. */
export interface WriteInput {
  /** The kubeconfig user of the context (for the log); never a credential. */
  readonly user?: string;
  /** `scale`, `delete`, `update`, `apply`, … */
  readonly verb: string;
  /** The object whose change the watch must show (its `context` names the context). */
  readonly watched: WatchedObject;
  /** A few words on what changes (`replicas 2 → 3`); '' for none. */
  readonly summary?: string;
  /** Confirmed by the answer's resourceVersion (default), or by the object terminating or gone (an eviction's answer has none). */
  readonly confirm?: 'resourceVersion' | 'deletion';
}

export interface WriteRecord extends WriteInput {
  readonly id: number;
  readonly startedAt: number;
  state: WriteState;
  /** When the state last changed. */
  since: number;
  /** The resourceVersion the server answered with. */
  resourceVersion?: string;
  /** The answer was the object deleted (or terminating). */
  deleted?: boolean;
  /** The watch has shown the object terminating; the record waits for it to go. */
  terminating?: boolean;
  /** The result in words: the log line's end, the row's tooltip. */
  outcome?: string;
  /** The row shows the write until then (clock time); undefined while it waits. */
  markUntil?: number;
}

/** What the caller reports back. */
export interface WriteHandle {
  readonly record: WriteRecord;
  /** The server accepted the write; `answer` is its body (an object, or a Status for an eviction). */
  succeeded(answer: unknown): void;
  /** The server refused or could not be reached; `words` says what it means for the user. */
  failed(err: unknown, words?: string): void;
}

export interface JournalLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

/** What the journal reads of the watch manager (a WatchManager is one). */
export interface JournalWatchSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  addHandler(handler: EntryHandler): Disposable;
}

export interface WriteJournalOptions {
  clock?: Clock;
  /** How long the watch has to show a write before the row says the view may be behind; default 5 s. */
  confirmWithinMs?: number;
  /** How long a confirmed write keeps its mark; default 5 s. */
  showDoneMs?: number;
  /** How long a failed write, or one the watch has not shown, keeps its mark; default 60 s. */
  showTroubleMs?: number;
  /** Records kept for `records()`; default 200. */
  keep?: number;
}

const DEFAULT_CONFIRM_MS = 5000;

export class WriteJournal implements Disposable {
  private readonly clock: Clock;
  private readonly confirmWithinMs: number;
  private readonly showDoneMs: number;
  private readonly showTroubleMs: number;
  private readonly keep: number;
  private readonly kept: WriteRecord[] = [];
  /** Writes waiting for the watch, by object name (the hot path checks the name first). */
  private readonly waiting = new Map<string, Set<WriteRecord>>();
  private readonly timers = new Map<WriteRecord, TimerHandle>();
  private readonly changes = new Emitter<WriteRecord>();
  private readonly lines = new Emitter<JournalLine>();
  private readonly handler: Disposable;
  private serial = 0;
  private disposed = false;

  constructor(
    private readonly source: JournalWatchSource,
    options: WriteJournalOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.confirmWithinMs = options.confirmWithinMs ?? DEFAULT_CONFIRM_MS;
    this.showDoneMs = options.showDoneMs ?? 5000;
    this.showTroubleMs = options.showTroubleMs ?? 60_000;
    this.keep = options.keep ?? 200;
    this.handler = source.addHandler({
      onAdd: (id, obj) => this.seen(id, obj, false),
      onUpdate: (id, _old, obj) => this.seen(id, obj, false),
      onDelete: (id, obj) => this.seen(id, obj, true),
    });
  }

  /** Fires when a record changes state or its mark ends. */
  onDidChange(listener: (record: WriteRecord) => void): Disposable {
    return this.changes.on(listener);
  }

  /** One line per write (and debug lines), for the watch log. */
  onLine(listener: (line: JournalLine) => void): Disposable {
    return this.lines.on(listener);
  }

  /** The newest records, oldest first. */
  records(): readonly WriteRecord[] {
    return this.kept;
  }

  /** The newest write on `object` whose mark is showing now, if any. */
  markOf(object: WatchedObject): WriteRecord | undefined {
    const now = this.clock.now();
    for (let i = this.kept.length - 1; i >= 0; i--) {
      const r = this.kept[i];
      if (!sameObject(r.watched, object)) continue;
      if (r.markUntil === undefined || r.markUntil > now) return r;
      return undefined;
    }
    return undefined;
  }

  /**
   * The user let go of what failed on `object` (the edit whose save failed was reverted or closed):
   * the marks of its failed writes end now, so no row or count outlives the edit. The records and
   * their log lines stay.
   */
  dismissFailed(object: WatchedObject): void {
    if (this.disposed) return;
    const now = this.clock.now();
    for (const r of this.kept) {
      if (r.state !== 'failed' || !sameObject(r.watched, object) || r.markUntil === undefined || r.markUntil <= now) continue;
      r.markUntil = now;
      this.timers.get(r)?.cancel();
      this.timers.delete(r);
      this.changes.fire(r);
    }
  }

  /** Records a write about to be sent. */
  begin(input: WriteInput): WriteHandle {
    const now = this.clock.now();
    const record: WriteRecord = { ...input, summary: input.summary ?? '', id: ++this.serial, startedAt: now, state: 'sending', since: now };
    this.kept.push(record);
    while (this.kept.length > this.keep) this.kept.shift();
    this.changes.fire(record);
    return {
      record,
      succeeded: (answer) => this.answered(record, answer),
      failed: (err, words) => this.refused(record, err, words),
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.handler.dispose();
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    this.waiting.clear();
    this.changes.dispose();
    this.lines.dispose();
  }

  // ---- outcomes ----

  private answered(record: WriteRecord, answer: unknown): void {
    if (record.state !== 'sending' || this.disposed) return;
    const meta = (answer as { metadata?: { resourceVersion?: unknown; deletionTimestamp?: unknown } } | undefined)?.metadata;
    if (typeof meta?.resourceVersion === 'string' && meta.resourceVersion !== '') record.resourceVersion = meta.resourceVersion;
    record.deleted = record.verb === 'delete' || record.confirm === 'deletion' || typeof meta?.deletionTimestamp === 'string';
    const typed = this.watchingEntries(record.watched);
    if (typed.length === 0) {
      this.settle(record, 'unwatched', `${this.accepted(record)}; no watch here shows ${typeName(record.watched)}${record.watched.namespace ? ` in ${record.watched.namespace}` : ''}, so nothing confirms it`, 'info');
      return;
    }
    const watching = typed.filter((e) => this.sees(e, record, answer));
    if (watching.length === 0) {
      this.settle(record, 'unwatched', `${this.accepted(record)}; written, not visible to the watch (${selectorWords(typed)}), so nothing confirms it`, 'info');
      return;
    }
    // The watch may have been quicker than the answer.
    for (const entry of watching) {
      const live = entry.informer?.get(record.watched.namespace || undefined, record.watched.name);
      const shown = watchShows(this.expectation(record), live, live === undefined && entry.state.synced);
      if (shown === 'terminating') record.terminating = true;
      else if (shown) return this.confirm(record, shown);
    }
    this.transition(record, 'pending');
    this.wait(record);
    this.timers.set(record, this.clock.setTimer(() => this.overdue(record), this.confirmWithinMs));
  }

  private refused(record: WriteRecord, err: unknown, words?: string): void {
    if (record.state !== 'sending' || this.disposed) return;
    this.settle(record, 'failed', words ?? describeError(err), 'error');
  }

  private overdue(record: WriteRecord): void {
    this.timers.delete(record);
    if (record.state !== 'pending') return;
    const states = this.watchingEntries(record.watched).map((e) => e.state.phase);
    const how = states.length > 0 && states.every((p) => p === 'watching') ? 'its watch is live but has not delivered it yet' : `its watch is ${states.map((p) => p.replace(/-/g, ' ')).join(', ') || 'gone'}`;
    if (record.terminating) {
      this.settle(record, 'behind', `${this.accepted(record)}; the watch shows it terminating, not gone within ${formatSeconds(this.confirmWithinMs)}: not confirmed deleted yet`, 'warn', true);
      return;
    }
    this.settle(record, 'behind', `${this.accepted(record)}; not shown by the watch within ${formatSeconds(this.confirmWithinMs)} (${how}): the view may be behind, the write did not fail`, 'warn', true);
  }

  private confirm(record: WriteRecord, shown: 'version' | 'terminating' | 'deleted'): void {
    const late = record.state === 'behind';
    this.unwait(record);
    this.timers.get(record)?.cancel();
    this.timers.delete(record);
    const took = this.clock.now() - record.startedAt;
    const when = took < 100 ? 'within 0.1 s' : `after ${formatSeconds(took)}`;
    const what = shown === 'deleted' ? 'the watch shows it deleted' : shown === 'terminating' ? 'the watch shows it terminating' : 'the watch shows it';
    const text = `${this.accepted(record)}; ${what} ${when}`;
    if (late) {
      record.outcome = text;
      this.transition(record, 'confirmed');
      this.lines.fire({ level: 'debug', text: this.line(record, `${text} (late)`) });
      this.expireMark(record, this.showDoneMs);
      return;
    }
    this.settle(record, 'confirmed', text, 'info');
  }

  /** Final state (or `behind`, which may still turn confirmed): the one log line, the mark's end. */
  private settle(record: WriteRecord, state: WriteState, outcome: string, level: JournalLine['level'], keepWaiting = false): void {
    if (!keepWaiting) this.unwait(record);
    record.outcome = outcome;
    this.transition(record, state);
    this.lines.fire({ level, text: this.line(record, outcome) });
    this.expireMark(record, state === 'confirmed' || state === 'unwatched' ? this.showDoneMs : this.showTroubleMs);
  }

  private transition(record: WriteRecord, state: WriteState): void {
    record.state = state;
    record.since = this.clock.now();
    this.changes.fire(record);
  }

  private expireMark(record: WriteRecord, ms: number): void {
    record.markUntil = this.clock.now() + ms;
    this.timers.get(record)?.cancel();
    this.timers.set(
      record,
      this.clock.setTimer(() => {
        this.timers.delete(record);
        if (record.state === 'behind') this.unwait(record);
        this.changes.fire(record);
      }, ms),
    );
  }

  // ---- the watch's side ----

  private seen(entryId: string, obj: KubeObject, deleted: boolean): void {
    if (this.waiting.size === 0) return;
    const records = this.waiting.get(obj.metadata.name ?? '');
    if (!records) return;
    const entry = this.source.entry(entryId);
    if (!entry?.type) return;
    for (const record of [...records]) {
      const w = record.watched;
      if ((obj.metadata.namespace ?? '') !== w.namespace || entry.context !== w.context || entry.type.group !== w.group || entry.type.resource !== w.resource) continue;
      const shown = watchShows(this.expectation(record), obj, deleted);
      if (shown === 'terminating') this.noteTerminating(record);
      else if (shown) this.confirm(record, shown);
    }
  }

  /** The watch shows the object terminating: not yet deleted; the record says so and waits. */
  private noteTerminating(record: WriteRecord): void {
    if (record.terminating) return;
    record.terminating = true;
    if (record.state === 'pending') {
      record.outcome = `${this.accepted(record)}; the watch shows it terminating, not yet gone`;
      this.changes.fire(record);
    }
  }

  /**
   * Whether `entry` can show the object: it has no selectors, or holds the object, or the object
   * as answered falls inside its selectors.
   */
  private sees(entry: WatchEntry, record: WriteRecord, answer: unknown): boolean {
    const labelSelector = entry.informer?.options.labelSelector;
    const fieldSelector = entry.informer?.options.fieldSelector;
    if (!labelSelector && !fieldSelector) return true;
    const held = entry.informer?.get(record.watched.namespace || undefined, record.watched.name);
    if (held && (!record.watched.uid || held.metadata.uid === record.watched.uid)) return true;
    const obj = answer as KubeObject | undefined;
    if (obj?.metadata?.name === record.watched.name && obj.kind !== 'Scale' && obj.kind !== 'Status') return insideSelectors(obj, labelSelector, fieldSelector) === true;
    return false;
  }

  private expectation(record: WriteRecord): Expectation {
    return { resourceVersion: record.resourceVersion, deletion: record.deleted === true, uid: record.watched.uid };
  }

  private watchingEntries(object: WatchedObject): WatchEntry[] {
    return this.source.entries().filter((e) => e.informer && e.type && e.context === object.context && e.type.group === object.group && e.type.resource === object.resource && (e.namespace === '' || e.namespace === object.namespace));
  }

  private wait(record: WriteRecord): void {
    const name = record.watched.name;
    let set = this.waiting.get(name);
    if (!set) this.waiting.set(name, (set = new Set()));
    set.add(record);
  }

  private unwait(record: WriteRecord): void {
    const set = this.waiting.get(record.watched.name);
    if (!set) return;
    set.delete(record);
    if (set.size === 0) this.waiting.delete(record.watched.name);
  }

  // ---- words ----

  private accepted(record: WriteRecord): string {
    if (record.resourceVersion) return `done at resourceVersion ${record.resourceVersion}`;
    return 'accepted by the server';
  }

  /** `[context] user: verb deployments.apps shop/web (replicas 2 → 3): outcome`. */
  private line(record: WriteRecord, outcome: string): string {
    const w = record.watched;
    const object = `${typeName(w)} ${w.namespace ? `${w.namespace}/` : ''}${w.name}`;
    const summary = record.summary ? ` (${record.summary})` : '';
    return `[${w.context || 'current context'}] ${record.user ?? 'unknown user'}: ${record.verb} ${object}${summary}: ${outcome}`;
  }
}

/** Why the watches of the object's type do not show it: their selectors. */
function selectorWords(entries: readonly WatchEntry[]): string {
  const selectors = [...new Set(entries.map((e) => [e.informer?.options.labelSelector && `label selector ${e.informer.options.labelSelector}`, e.informer?.options.fieldSelector && `field selector ${e.informer.options.fieldSelector}`].filter(Boolean).join(', ')))];
  return `outside its ${selectors.join('; ')}`;
}

function sameObject(a: WatchedObject, b: WatchedObject): boolean {
  return a.context === b.context && a.group === b.group && a.resource === b.resource && a.namespace === b.namespace && a.name === b.name;
}

/** `0.3 s`, `5 s`, `12 s`. */
function formatSeconds(ms: number): string {
  if (ms >= 10_000 || ms % 1000 === 0) return `${Math.round(ms / 1000)} s`;
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}
