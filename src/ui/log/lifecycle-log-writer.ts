import type { Disposable, InformerState, TimedLifecycleEvent } from '../../informer';
import type { EntriesChange, ObjectsRemoved, WatchEntry } from '../../manager';
import { formatLifecycleEvent, isFailurePhase } from './format-lifecycle-event';
import { oneLine, prefixed, type LogLine, type LogSink } from './log-line';
import { redactCredentials } from './redact';

/** What the writer reads from the watch manager (a WatchManager is one). */
export interface WatchEventSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
}

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
  }

  private onLifecycle(id: string, event: TimedLifecycleEvent): void {
    const entry = this.source.entry(id);
    // Labels are updated (and a change announced) by onEntries only; an entry already gone keeps its last label.
    let mem = this.memory.get(id);
    if (!mem) {
      mem = { label: entry?.label ?? id, failures: 0 };
      if (entry) this.memory.set(id, mem);
    }
    const label = entry?.label ?? mem.label;
    const { state: previous, troubleSince, lastFailure, lastCause, failures } = mem;
    this.write(formatLifecycleEvent(label, event, { previous, troubleSince, lastFailure, lastCause, failures }));
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
      this.write({ level: 'info', message: prefixed(mem?.label ?? id, 'watch removed') });
      this.memory.delete(id);
    }
  }

  private onRemoved(removed: ObjectsRemoved): void {
    const label = this.source.entry(removed.entryId)?.label ?? this.memory.get(removed.entryId)?.label ?? removed.entryId;
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
    if (!mem) this.memory.set(entry.id, (mem = { label: entry.label, failures: 0 }));
    mem.label = entry.label;
    return mem;
  }

  private write(line: LogLine): void {
    this.sink[line.level](redactCredentials(line.message));
  }
}

function endRun(mem: EntryMemory): void {
  mem.troubleSince = undefined;
  mem.lastFailure = undefined;
  mem.lastCause = undefined;
  mem.failures = 0;
}
