import { emptyStats, resourceTypeName, type InformerState } from '../informer';
import { labelOf } from './labels';
import type { EntryRecord } from './resource-slot';
import { CHECKING_ACCESS } from './slot-scoping';
import { NOT_ALLOWED, type EntriesChange, type WatchEntry } from './watch-entry';

/** What a consumer sees of one entry now: its informer's state, or why it has none. */
export function describeEntry(rec: EntryRecord): WatchEntry {
  const { slot } = rec;
  const session = slot.session;
  const context = session.contextName;
  const label = labelOf(context || slot.spec, slot.type ? resourceTypeName(slot.type) : slot.resource, rec.namespace);
  const protocol = session.transport?.protocol;
  const limited = slot.scope?.limited && slot.scope.namespaces.some((n) => n.namespace === rec.namespace) ? { limitedByAccess: true } : {};
  const base = { id: rec.id, context, resource: slot.resource, type: slot.type, namespace: rec.namespace, label, ...(protocol ? { protocol } : {}), ...limited };
  if (rec.informer) {
    const problem = session.reloadProblem;
    return { ...base, informer: rec.informer, state: rec.informer.state, stats: rec.informer.stats, ...(problem ? { error: problem, errorKind: 'kubeconfig' } : {}) };
  }
  if (session.problem) {
    const state: InformerState = { phase: 'stopped', reason: session.problem.message, since: session.problem.since, synced: false };
    return { ...base, state, stats: emptyStats(), error: session.problem.message, errorKind: session.problem.kind };
  }
  if (slot.wait) return { ...base, state: slot.wait.state, stats: emptyStats(), error: slot.wait.message, errorKind: slot.wait.kind };
  if (rec.denied) {
    const state: InformerState = { phase: 'stopped', reason: NOT_ALLOWED, since: slot.since, synced: false };
    return { ...base, state, stats: emptyStats(), error: rec.denied, errorKind: 'not-allowed' };
  }
  const reason = slot.scoping ? CHECKING_ACCESS : 'resolving the resource type';
  const state: InformerState = { phase: 'connecting', reason, since: slot.since, synced: false };
  return { ...base, state, stats: emptyStats() };
}

/**
 * Remembers what each entry looked like when last published, so that a change event names
 * only the entries that were added, removed or changed since.
 */
export class EntrySignatures {
  private signatures = new Map<string, string>();

  /** What changed since the last call, or undefined when nothing did. */
  diff(records: Iterable<EntryRecord>): EntriesChange | undefined {
    const next = new Map<string, string>();
    for (const rec of records) {
      const e = describeEntry(rec);
      next.set(rec.id, JSON.stringify([rec.serial, e.context, e.type && resourceTypeName(e.type), e.state.phase, e.state.reason, e.state.nextRetryAt, e.state.synced, e.error, e.limitedByAccess]));
    }
    const change: EntriesChange = { added: [], removed: [], changed: [] };
    for (const [id, sig] of next) {
      const before = this.signatures.get(id);
      if (before === undefined) change.added.push(id);
      else if (before !== sig) change.changed.push(id);
    }
    for (const id of this.signatures.keys()) if (!next.has(id)) change.removed.push(id);
    this.signatures = next;
    return change.added.length + change.removed.length + change.changed.length > 0 ? change : undefined;
  }
}
