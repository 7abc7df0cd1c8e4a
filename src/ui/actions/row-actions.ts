import { Emitter, systemClock, type Clock, type Disposable } from '../../base';
import { applicableActions, streamNeeds, watchedOf, type ActionDefinition, type ActionId, type ActionTarget, type StreamId, type WatchedObject, type WriteJournal } from '../../actions';
import type { AccessQuery } from '../../cluster/access-review';
import type { AccessReviewCache } from '../../cluster/access-review';
import type { WatchEntry } from '../../manager';
import type { NodePresentation } from '../tree/node-presentation';
import type { ObjectRow, RowDecorationChange, RowDecorator } from '../tree/row-decorator';
import { markRow, markTooltip } from './write-marks';

/** How long a question no review could answer is not asked again (its action is offered meanwhile). */
const UNKNOWN_RETRY_MS = 30_000;

/** What the row actions read of the watch manager (a WatchManager is one). */
export interface RowActionSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  accessReviewsOf(id: string): AccessReviewCache | undefined;
}

/** The context-value token of an offered action or stream: `object.workload @scale @restart @forward`; menus match `/@scale\b/`. */
export function actionToken(id: ActionId | StreamId): string {
  return `@${id}`;
}

/** Kinds whose rows offer a port-forward (to the pod, or to a pod the Service or workload selects). */
const FORWARDABLE = new Set(['Pod', 'Service', 'Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet']);

/** The streams a row's object could offer, permissions aside: a shell into a Pod and a debug container in it, a forward to a Pod, Service or workload. */
function applicableStreams(target: ActionTarget): StreamId[] {
  const kind = target.type.kind;
  const core = target.type.group === '' || target.type.group === 'apps';
  if (!core || !FORWARDABLE.has(kind)) return [];
  return kind === 'Pod' ? ['forward', 'shell', 'debug'] : ['forward'];
}

/** The object of a row as an action target; undefined when its watch is gone or its type unknown. */
export function targetOfRow(source: Pick<RowActionSource, 'entry'>, row: Pick<ObjectRow, 'entryId' | 'namespace' | 'name'> & { object?: ObjectRow['object'] }): ActionTarget | undefined {
  const entry = source.entry(row.entryId);
  if (!entry?.type) return undefined;
  const object = entry.informer?.get(row.namespace || undefined, row.name) ?? row.object;
  if (!object) return undefined;
  return { context: entry.context, type: entry.type, namespace: row.namespace, name: row.name, object };
}

/**
 * The tree rows' actions and writes: each object row's context value carries a token for every
 * write action that applies to it and that the user may do (access reviews per type and
 * namespace, asked on first sight, the row drawn again when the answer comes; an answer that could
 * not be had offers the action and lets the server decide), and a write on its object marks it
 * (write-marks.ts). Read-only actions (Copy Name, Copy kubectl Command) need no token.
 *
 * Invariants: `decorate` never waits and never sends more than one review per question (the
 * cache shares them); after `dispose()` no listener is left on the journal or any access cache.
 */
export class RowActions implements RowDecorator, Disposable {
  private readonly changes = new Emitter<RowDecorationChange>();
  private readonly cacheSubscriptions = new Map<AccessReviewCache, Disposable>();
  private readonly journalSubscription: Disposable;
  private readonly clock: Clock;
  /** Questions no review could answer lately (server unreachable): offered without asking again until then. */
  private readonly unknownUntil = new Map<string, number>();

  constructor(
    private readonly source: RowActionSource,
    private readonly journal: WriteJournal,
    clock: Clock = systemClock,
  ) {
    this.clock = clock;
    this.journalSubscription = journal.onDidChange((record) => {
      const rows = this.rowsOf(record.watched);
      if (rows.length > 0) this.changes.fire({ rows });
    });
  }

  onDidChange(listener: (change: RowDecorationChange) => void): Disposable {
    return this.changes.on(listener);
  }

  decorate(row: ObjectRow, presentation: NodePresentation): NodePresentation {
    if (!presentation.contextValue.startsWith('object')) return presentation;
    const target = targetOfRow(this.source, row);
    if (!target) return presentation;
    const offered = [...this.offered(row.entryId, target).map((a) => a.id), ...this.offeredStreams(row.entryId, target)];
    const tokens = offered.map((id) => ` ${actionToken(id)}`).join('');
    const withActions = tokens ? { ...presentation, contextValue: `${presentation.contextValue}${tokens}` } : presentation;
    const mark = this.journal.markOf(watchedOf(target));
    return mark ? markRow(withActions, mark) : withActions;
  }

  tooltip(row: ObjectRow): string | undefined {
    const target = targetOfRow(this.source, row);
    const mark = target && this.journal.markOf(watchedOf(target));
    return mark ? markTooltip(mark, this.clock.now()) : undefined;
  }

  /**
   * The write actions offered on `target` now: those that apply and whose every access question
   * is answered allowed (or could not be answered). Unasked questions are asked; the row is drawn
   * again when they are answered.
   */
  offered(entryId: string, target: ActionTarget): ActionDefinition[] {
    return applicableActions(target).filter((action) => action.writes && this.allowedNow(entryId, action.needs(target)));
  }

  /** The streams offered on `target` now (shell, port-forward), asked as the write actions are. */
  offeredStreams(entryId: string, target: ActionTarget): StreamId[] {
    return applicableStreams(target).filter((stream) => this.allowedNow(entryId, streamNeeds(stream, target.namespace)));
  }

  /**
   * Whether every question is answered allowed now (or could not be answered lately: then the
   * server decides). Unasked questions are asked, and the rows drawn again once answered.
   * A namespaced question is asked for all namespaces first: a cluster-wide grant answers it in
   * every namespace with one review (a table across 1,000 namespaces asks a handful of questions,
   * not thousands); only a cluster-wide denial asks the namespace itself (a RoleBinding there).
   */
  private allowedNow(entryId: string, queries: readonly AccessQuery[]): boolean {
    const access = this.source.accessReviewsOf(entryId);
    if (!access) return true;
    this.follow(access);
    let allowed = true;
    for (const query of queries) {
      if (query.namespace) {
        const { namespace: _namespace, ...everywhere } = query;
        const wide = this.answerNow(entryId, access, everywhere);
        if (wide === true) continue;
        if (wide === undefined) {
          allowed = false;
          continue;
        }
      }
      if (this.answerNow(entryId, access, query) !== true) allowed = false;
    }
    return allowed;
  }

  /** One question's answer now: true (or not answerable lately), false, or undefined while it is asked. */
  private answerNow(entryId: string, access: AccessReviewCache, query: AccessQuery): boolean | undefined {
    const answer = access.peek(query);
    if (answer) {
      // RBAC may have changed: an old answer stands while it is asked again.
      if (access.stale(query)) void access.can(query).catch(() => undefined);
      return answer.allowed;
    }
    const key = JSON.stringify(query);
    if ((this.unknownUntil.get(key) ?? 0) > this.clock.now()) return true;
    void access.can(query).then(
      (a) => {
        if (!a.unknown) return;
        this.unknownUntil.set(key, this.clock.now() + UNKNOWN_RETRY_MS);
        this.changes.fire({ entryIds: [entryId] });
      },
      () => undefined,
    );
    return undefined;
  }

  dispose(): void {
    this.journalSubscription.dispose();
    for (const s of this.cacheSubscriptions.values()) s.dispose();
    this.cacheSubscriptions.clear();
    this.changes.dispose();
  }

  /** Draws the rows of a context again when its access answers change. */
  private follow(access: AccessReviewCache): void {
    if (this.cacheSubscriptions.has(access)) return;
    // A cache of a context switched away from is disposed (its emitter emptied): drop our entry for it.
    for (const [cache, sub] of this.cacheSubscriptions) {
      if (this.source.entries().some((e) => this.source.accessReviewsOf(e.id) === cache)) continue;
      sub.dispose();
      this.cacheSubscriptions.delete(cache);
    }
    this.cacheSubscriptions.set(
      access,
      access.onDidChange(() => {
        const entryIds = this.source.entries().filter((e) => this.source.accessReviewsOf(e.id) === access).map((e) => e.id);
        if (entryIds.length > 0) this.changes.fire({ entryIds });
      }),
    );
  }

  /** The rows showing `object`: one per watch entry of its context and type that covers its namespace. */
  private rowsOf(object: WatchedObject): { entryId: string; namespace: string; name: string }[] {
    return this.source
      .entries()
      .filter((e) => e.type && e.context === object.context && e.type.group === object.group && e.type.resource === object.resource && (e.namespace === '' || e.namespace === object.namespace))
      .map((e) => ({ entryId: e.id, namespace: object.namespace, name: object.name }));
  }
}
