import { Emitter, type Clock, type Disposable } from '../base';
import type { KubeObject, TimedLifecycleEvent } from '../informer';
import type { AdHocWatchRequest } from '../manager';
import type { FeedWatch } from './shared-watch';
import { readEvent, type EventRecord } from './event-record';
import { CORE_EVENTS, decideEventsScope, type EventsScope } from './events-scope';
import type { PermissionScope } from '../manager/permission-scope';
import type { ResourceType } from '../informer';
import { EventsStore } from './events-store';
import { WatchGaps, type WatchGap } from './watch-gaps';

/** What a feed needs from the manager around it (wired in src/vscode/events). */
export interface EventsFeedPorts {
  readonly clock: Clock;
  /** The configured context spec ("" = the current-context) the feed watches on. */
  readonly spec: string;
  /** `manager.watchAdHoc`. */
  watch(request: AdHocWatchRequest): FeedWatch;
  /** The tree's own watch of these Events, when it runs one (shared rather than watched twice). */
  shared?(type: ResourceType, namespace: string): FeedWatch | undefined;
  /** permissionScope for the context, with no configured namespaces (see events-scope.ts). */
  scopeOf(type: ResourceType, signal: AbortSignal): Promise<PermissionScope>;
  /** The manager's `resumed` lifecycle events (the process was away). */
  onResumed(listener: (event: TimedLifecycleEvent) => void): Disposable;
  /** Estimated bytes the kept events may take; default DEFAULT_EVENTS_MAX_BYTES. */
  readonly maxBytes?: number;
}

/** A new or changed event, with what the store held for it before (undefined: new). */
export interface EventArrival {
  readonly record: EventRecord;
  readonly previous?: EventRecord;
}

/** The feed's state, for the view: where it watches and why not. */
export interface FeedStatus {
  readonly scope?: EventsScope;
  /** While the scope is being decided. */
  readonly deciding: boolean;
  /** Why it cannot watch (scope denied, the context is unusable). */
  readonly problem?: string;
  /** Phases of its watches, by namespace ('' = cluster wide). */
  readonly phases: ReadonlyMap<string, string>;
}

/**
 * The remembering events feed of one context: decides the scope (events.k8s.io/v1 else core,
 * cluster wide else per namespace), reads the tree's watches of core Events where they cover that
 * scope, else runs one ad-hoc watch per namespace, keeps every Event it
 * sees in an EventsStore (past the server's TTL), and records the watches' gaps.
 *
 * Invariants: after `dispose()` no watch, subscription or decision is left; an events.k8s.io
 * watch answered 404 (the group is absent) switches the whole feed to core Events once; records
 * survive that switch and the watches' restarts; a gap is recorded per watch.
 */
export class EventsFeed implements Disposable {
  readonly store: EventsStore;
  private readonly watches = new Map<string, { watch: FeedWatch; gaps: WatchGaps; subscriptions: Disposable[]; watchSubscription?: Disposable }>();
  private readonly endedGaps: WatchGap[] = [];
  private readonly arrivals = new Emitter<EventArrival>();
  private readonly changes = new Emitter<void>();
  private readonly resumed: Disposable;
  private deciding: AbortController | undefined;
  private scope: EventsScope | undefined;
  private problem: string | undefined;
  private preferCore = false;
  private disposed = false;

  constructor(private readonly ports: EventsFeedPorts) {
    this.store = new EventsStore(ports.maxBytes);
    this.resumed = ports.onResumed((event) => {
      for (const w of this.watches.values()) w.gaps.lifecycle(event);
      this.changes.fire();
    });
    void this.decide();
  }

  /** Fires for every event put in the store (not for deletions). */
  onDidArrive(listener: (arrival: EventArrival) => void): Disposable {
    return this.arrivals.on(listener);
  }

  /** Fires when the scope, a watch's state or the gaps changed (the store has its own). */
  onDidChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  status(): FeedStatus {
    const phases = new Map([...this.watches].map(([ns, w]) => [ns, w.watch.state.phase as string]));
    return { scope: this.scope, deciding: this.deciding !== undefined, problem: this.problem, phases };
  }

  /** Every gap of every watch (ended watches' too), oldest first. */
  gaps(): WatchGap[] {
    return [...this.endedGaps, ...[...this.watches.values()].flatMap((w) => w.gaps.gaps())].sort((a, b) => a.start - b.start);
  }

  /** True when a watch of the feed ended (the manager stopped, the context was replaced): it must decide again. */
  get hasEndedWatch(): boolean {
    return [...this.watches.values()].some((w) => w.watch.ended !== undefined);
  }

  /** Decides the scope again and re-opens the watches (a context switch, RBAC changed); keeps the records. */
  async redecide(): Promise<void> {
    await this.decide();
  }

  dispose(): void {
    this.disposed = true;
    this.deciding?.abort();
    this.resumed.dispose();
    this.stopWatches();
    this.store.dispose();
    this.arrivals.dispose();
    this.changes.dispose();
  }

  private async decide(): Promise<void> {
    this.deciding?.abort();
    const deciding = new AbortController();
    this.deciding = deciding;
    this.changes.fire();
    let scope: EventsScope;
    try {
      scope = await decideEventsScope((type) => this.ports.scopeOf(type, deciding.signal), this.preferCore);
    } catch (err) {
      if (deciding.signal.aborted || this.disposed) return;
      this.problem = err instanceof Error ? err.message : String(err);
      this.deciding = undefined;
      this.changes.fire();
      return;
    }
    if (deciding.signal.aborted || this.disposed) return;
    this.deciding = undefined;
    this.problem = scope.denied;
    this.stopWatches();
    // Where the tree already watches core Events in every one of these namespaces, the feed reads its watches.
    const shared = scope.namespaces.map((namespace) => this.ports.shared?.(CORE_EVENTS, namespace));
    if (scope.namespaces.length > 0 && shared.every((w) => w !== undefined)) {
      this.scope = { ...scope, type: CORE_EVENTS };
      scope.namespaces.forEach((namespace, i) => this.observe(CORE_EVENTS, namespace, shared[i]!));
    } else {
      for (const w of shared) void w?.dispose();
      this.scope = scope;
      for (const namespace of scope.namespaces) this.startWatch(scope.type, namespace);
    }
    this.changes.fire();
  }

  private startWatch(type: ResourceType, namespace: string): void {
    this.observe(type, namespace, this.ports.watch({ spec: this.ports.spec, type, namespace: namespace || undefined, purpose: `the events feed${namespace ? ` in ${namespace}` : ''}` }));
  }

  /** Records what `watch` delivers and its gaps (and switches to core Events where events.k8s.io is not served). */
  private observe(type: ResourceType, namespace: string, watch: FeedWatch): void {
    const gaps = new WatchGaps(this.ports.clock);
    const entry: { watch: FeedWatch; gaps: WatchGaps; subscriptions: Disposable[]; watchSubscription?: Disposable } = { watch, gaps, subscriptions: [] };
    this.watches.set(namespace, entry);
    const follow = () => {
      for (const s of entry.subscriptions.splice(0)) s.dispose();
      const informer = watch.informer;
      if (!informer) return;
      entry.subscriptions.push(
        informer.onStateChange((state) => {
          gaps.state(state);
          if (state.phase === 'not-found' && type.group !== '' && !this.preferCore) {
            // events.k8s.io is not served here: core Events for the whole feed.
            this.preferCore = true;
            queueMicrotask(() => void this.decide());
          }
          this.changes.fire();
        }),
        informer.onLifecycle((event) => gaps.lifecycle(event)),
        informer.addHandler({
          name: 'events feed',
          onAdd: (obj) => this.arrive(obj, gaps),
          onUpdate: (_old, obj) => this.arrive(obj, gaps),
          onDelete: (obj) => this.store.markDeleted(readEvent(obj).uid, readEvent(obj)),
        }),
      );
      gaps.state(informer.state);
      // A shared watch listed before the feed came: what it holds is read now.
      if (watch.shared) for (const obj of informer.list()) this.arrive(obj, gaps);
    };
    entry.watchSubscription = watch.onDidChange((change) => {
      if (change === 'informer') follow();
      this.changes.fire();
    });
    follow();
  }

  private arrive(obj: KubeObject, gaps: WatchGaps): void {
    const record = readEvent(obj);
    const previous = this.store.get(record.uid);
    gaps.delivered();
    this.store.put(record);
    this.arrivals.fire({ record, previous });
  }

  private stopWatches(): void {
    for (const w of this.watches.values()) {
      w.gaps.stop();
      this.endedGaps.push(...w.gaps.gaps());
      for (const s of w.subscriptions) s.dispose();
      w.watchSubscription?.dispose();
      void w.watch.dispose();
    }
    this.watches.clear();
  }
}
