import type { Disposable } from '../../base';
import type { InformerState, TimedLifecycleEvent } from '../../informer';
import type { EntriesChange, ObjectsRemoved, WatchEntry } from '../../manager';
import { formatLifecycleEvent, isFailurePhase } from './format-lifecycle-event';
import { oneLine, prefixed, type LogLine, type LogSink } from './log-line';
import { clockTime } from '../../base/time-format';
import { formatDuration } from './time-text';
import { redactCredentials } from './redact';

/** What the writer reads from the watch manager (a WatchManager is one). */
export interface WatchEventSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
}

/** How many labels of removed entries are kept for their late events. */
const DEPARTED_LABELS = 1000;

/** What the writer remembers of one entry between events. */
interface EntryMemory {
  /** The last label seen: events that arrive after the entry is gone still name their watch. */
  label: string;
  state?: InformerState;
  /** Start of the current run of failures; unset while healthy. */
  troubleSince?: number;
  /** The last failure state and backoff cause of the current run. */
  lastFailure?: InformerState;
  lastCause?: string;
  /** Failed attempts (backoff waits) in the current run. */
  failures: number;
  /** The configuration problem last logged (kubeconfig or context), if any. */
  problem?: string;
  /** A failure state held for a moment, to be told in one line with the backoff that follows it. */
  pending?: { state: InformerState; line: LogLine };
  /** The failure (`phase: cause`) of the current run's latest attempts, how often in a row, since when. */
  streak?: { key: string; text: string; count: number; since: number };
  /** Failures already told in full in the current run: a repeat, even after another failure, is debug. */
  told: Set<string>;
  /** When the current run's latest backoff began. */
  lastBackoffAt?: number;
}

/**
 * Writes the life of every watch to a log sink: each lifecycle event (formatted by
 * `formatLifecycleEvent`), watches added and removed, objects removed from the view, and the
 * kubeconfig and context problems that no informer reports because none is running.
 *
 * Invariants:
 * - Every line is one line, prefixed with its watch's label, and passes `redactCredentials`
 *   before it reaches the sink: nothing that looks like a credential is ever written.
 * - The writer only observes: it never calls an operation of the source, and a sink that throws
 *   does not disturb the manager (the manager's emitter isolates listeners).
 * - After `dispose()` nothing more is written and the source holds no listener of the writer.
 */
export class LifecycleLogWriter implements Disposable {
  private readonly memory = new Map<string, EntryMemory>();
  /**
   * Labels of entries already removed, for the events their informers send while stopping (a
   * pause removes the entries first): never a raw id in the log. The oldest go beyond the bound.
   */
  private readonly departed = new Map<string, string>();
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly source: WatchEventSource,
    private readonly sink: LogSink,
  ) {
    for (const entry of source.entries()) this.remember(entry);
    this.subscriptions = [
      source.onLifecycle((id, event) => this.onLifecycle(id, event)),
      source.onDidChangeEntries((change) => this.onEntries(change)),
      source.onObjectsRemoved((removed) => this.onRemoved(removed)),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.memory.clear();
    this.departed.clear();
  }

  private onLifecycle(id: string, event: TimedLifecycleEvent): void {
    const entry = this.source.entry(id);
    // Labels are updated (and a change announced) by onEntries only; an entry already gone keeps its last label.
    let mem = this.memory.get(id);
    if (!mem) {
      mem = { label: entry?.label ?? this.departed.get(id) ?? id, failures: 0, told: new Set() };
      if (entry) this.memory.set(id, mem);
    }
    const label = entry?.label ?? mem.label;
    const { state: previous, troubleSince, lastFailure, lastCause, failures } = mem;
    const line = formatLifecycleEvent(label, event, { previous, troubleSince, lastFailure, lastCause, failures });
    if (event.type === 'backoff') {
      this.attemptFailed(label, mem, event);
    } else {
      this.flushPending(mem);
      if (event.type === 'state' && isFailurePhase(event.state.phase)) {
        // Told with the backoff that the informer emits right after it; alone if none comes.
        const held = { state: event.state, line };
        mem.pending = held;
        queueMicrotask(() => {
          if (mem.pending === held) this.flushPending(mem);
        });
      } else if (!(event.type === 'watch-closed' && event.cause === 'failed' && mem.troubleSince !== undefined)) {
        // (A watch failing again inside a run of failures is told by its attempt's line.)
        this.write(line);
      }
    }
    switch (event.type) {
      case 'state':
        if (event.state.phase === 'watching' || event.state.phase === 'stopped') {
          endRun(mem);
        } else if (isFailurePhase(event.state.phase)) {
          mem.troubleSince ??= event.state.since;
          mem.lastFailure = event.state;
        }
        mem.state = event.state;
        break;
      case 'backoff':
        mem.troubleSince ??= event.at;
        mem.lastCause = event.cause;
        mem.lastBackoffAt = event.at;
        mem.failures++;
        break;
      case 'stopped':
        endRun(mem);
        break;
    }
  }

  private onEntries(change: EntriesChange): void {
    for (const id of change.added) {
      const entry = this.source.entry(id);
      if (!entry) continue;
      const mem = this.remember(entry);
      this.write({ level: 'info', message: prefixed(mem.label, 'watch added') });
      this.checkProblem(entry, mem);
    }
    for (const id of change.changed) {
      const entry = this.source.entry(id);
      if (!entry) continue;
      const before = this.memory.get(id)?.label;
      const mem = this.remember(entry);
      if (before !== undefined && before !== mem.label) this.write({ level: 'info', message: prefixed(mem.label, `the watch now follows context "${entry.context}" (it was ${before})`) });
      this.checkProblem(entry, mem);
    }
    for (const id of change.removed) {
      const mem = this.memory.get(id);
      const label = mem?.label ?? this.departed.get(id) ?? id;
      this.write({ level: 'info', message: prefixed(label, 'watch removed') });
      this.memory.delete(id);
      this.departed.delete(id);
      this.departed.set(id, label);
      if (this.departed.size > DEPARTED_LABELS) this.departed.delete(this.departed.keys().next().value as string);
    }
  }

  private onRemoved(removed: ObjectsRemoved): void {
    const label = this.source.entry(removed.entryId)?.label ?? this.memory.get(removed.entryId)?.label ?? this.departed.get(removed.entryId) ?? removed.entryId;
    const n = removed.objects.length;
    this.write({ level: 'info', message: prefixed(label, `${n} object${n === 1 ? '' : 's'} removed from the view: ${oneLine(removed.reason)}`) });
  }

  /**
   * Logs a kubeconfig or context problem once when it appears or changes, and once when it
   * clears. Problems of resolution (unknown resource, discovery) arrive as lifecycle events.
   */
  private checkProblem(entry: WatchEntry, mem: EntryMemory): void {
    const problem = entry.errorKind === 'kubeconfig' || entry.errorKind === 'context' ? entry.error : undefined;
    if (problem === mem.problem) return;
    const before = mem.problem;
    mem.problem = problem;
    if (problem === undefined) {
      if (before !== undefined) this.write({ level: 'info', message: prefixed(mem.label, 'the kubeconfig problem is resolved') });
      return;
    }
    const what = entry.errorKind === 'context' ? 'context problem' : 'kubeconfig problem';
    // A running informer on the last good kubeconfig keeps working: a warning, not an error.
    this.write({ level: entry.informer ? 'warn' : 'error', message: prefixed(mem.label, `${what}: ${oneLine(problem)}`) });
  }

  private remember(entry: WatchEntry): EntryMemory {
    let mem = this.memory.get(entry.id);
    if (!mem) this.memory.set(entry.id, (mem = { label: entry.label, failures: 0, told: new Set() }));
    mem.label = entry.label;
    return mem;
  }

  /**
   * One line per failed attempt: the failure (the state just before, or the backoff's cause),
   * the attempt's number in the run (the same count the recovery line gives), and the next try.
   * A failure already told in this run is repeated at debug only; when the failure changes, a
   * streak of two or more is summed up in one line.
   */
  private attemptFailed(label: string, mem: EntryMemory, event: Extract<TimedLifecycleEvent, { type: 'backoff' }>): void {
    const state = mem.pending?.state ?? mem.state;
    mem.pending = undefined;
    const phase = state && isFailurePhase(state.phase) ? state.phase : 'backing-off';
    const text = `${PHASE_WORDS[phase] ?? 'backing off'}: ${oneLine(event.cause)}`;
    const key = `${phase}\u0000${event.cause}`;
    const attempt = mem.failures + 1;
    if (mem.streak?.key !== key) {
      this.sumUpStreak(label, mem);
      mem.streak = { key, text, count: 0, since: event.at };
    }
    mem.streak.count++;
    const next = `failed attempt ${attempt}, next try in ${formatDuration(event.delayMs)} at ${clockTime(event.retryAt)}`;
    if (mem.told.has(key)) {
      this.write({ level: 'debug', message: prefixed(label, `${text} (again); ${next}`) });
      return;
    }
    mem.told.add(key);
    const level = phase === 'unauthorized' || phase === 'credentials-failed' || phase === 'forbidden' || phase === 'not-found' ? 'error' : 'warn';
    this.write({ level, message: prefixed(label, `${text}; ${next}`) });
  }

  /** `…: 6 failed attempts in a row over 1 min 20 s`, when the failure of a streak of two or more changes. */
  private sumUpStreak(label: string, mem: EntryMemory): void {
    const streak = mem.streak;
    mem.streak = undefined;
    if (!streak || streak.count < 2) return;
    const over = mem.lastBackoffAt !== undefined ? ` over ${formatDuration(mem.lastBackoffAt - streak.since)}` : '';
    this.write({ level: 'info', message: prefixed(label, `${streak.text}: ${streak.count} failed attempts in a row${over}`) });
  }

  /** Writes a held failure state that no backoff followed. */
  private flushPending(mem: EntryMemory): void {
    const held = mem.pending;
    mem.pending = undefined;
    if (held) this.write(held.line);
  }

  private write(line: LogLine): void {
    this.sink[line.level](redactCredentials(line.message));
  }
}

const PHASE_WORDS: Partial<Record<InformerState['phase'], string>> = {
  'backing-off': 'backing off',
  unreachable: 'unreachable',
  unauthorized: 'unauthorized',
  'credentials-failed': 'credentials failed',
  forbidden: 'forbidden',
  'not-found': 'not found',
};

function endRun(mem: EntryMemory): void {
  mem.streak = undefined;
  mem.told.clear();
  mem.lastBackoffAt = undefined;
  mem.troubleSince = undefined;
  mem.lastFailure = undefined;
  mem.lastCause = undefined;
  mem.failures = 0;
}
