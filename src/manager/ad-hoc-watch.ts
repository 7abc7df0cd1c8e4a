import { Emitter, type Clock, type Disposable } from '../base';
import { resolveWithRetry } from '../cluster/resolve-with-retry';
import { Informer, resourceTypeName, type InformerState, type KubeObject, type ResourceType } from '../informer';
import type { ContextSession } from './context-session';
import { labelOf } from './labels';
import type { WatchManagerOptions } from './manager-options';
import type { WatchConfig } from './watch-config';

/**
 * What to watch outside the configuration, on the context of a configured spec: a resource
 * type (resolved or spelled as kubectl spells it, e.g. `replicasets.apps`), a namespace and a
 * field selector (`metadata.name=web`, `involvedObject.uid=…`).
 */
export interface AdHocWatchRequest {
  /** The configured context spec ("" = the current-context) whose connection to use. */
  readonly spec: string;
  readonly type: ResourceType | string;
  /** Unset or '' = all namespaces (always for cluster-scoped types). */
  readonly namespace?: string;
  readonly fieldSelector?: string;
  /** A label selector: the pods of a workload (`app=web`), a Service's EndpointSlices (`kubernetes.io/service-name=web`). */
  readonly labelSelector?: string;
  /** Only metadata travels (PartialObjectMetadata): labels and names without the objects' payloads. */
  readonly metadataOnly?: boolean;
  /** What the watch is for, in log lines (`describe pod shop/web-1`). */
  readonly purpose: string;
}

/** A change of an ad-hoc watch: its informer, state or cache (or it ended). */
export type AdHocChange = 'informer' | 'state' | 'objects' | 'ended';

/**
 * An informer the manager runs for a consumer outside the configuration (a description's
 * object or events). Invariants: `informer` is set while it runs; after `ended` is set nothing
 * runs any more (the manager stopped, or the context went away) and the consumer may ask again;
 * `dispose()` stops it (idempotent) and resolves once no request or timer of it is left.
 */
export class AdHocWatch implements Disposable {
  private readonly changes = new Emitter<AdHocChange>();
  private current: Informer | undefined;
  private subscriptions: Disposable[] = [];
  private endedWith: string | undefined;
  private endedAt: number | undefined;
  /** Set by the manager: stops the resolution and the informer and forgets this watch. */
  onDispose: (() => Promise<void>) | undefined;
  /** Why the type is not resolved yet (discovery failing, unknown type), if it is not. */
  problem: string | undefined;
  type: ResourceType | undefined;

  constructor(
    readonly request: AdHocWatchRequest,
    /** When it was asked for: the `since` of its state until an informer runs. */
    readonly since: number,
  ) {}

  get informer(): Informer | undefined {
    return this.current;
  }

  /** Why it ended: the manager stopped, the context changed; undefined while it runs or waits. */
  get ended(): string | undefined {
    return this.endedWith;
  }

  /** The informer's state, or a waiting (or stopped) state since it was asked for. */
  get state(): InformerState {
    if (this.current) return this.current.state;
    if (this.endedWith) return { phase: 'stopped', reason: this.endedWith, since: this.endedAt ?? this.since, synced: false };
    return { phase: 'connecting', reason: this.problem ?? 'resolving the resource type', since: this.since, synced: false };
  }

  /** The cached objects (the single object of a `metadata.name=` watch). */
  list(): KubeObject[] {
    return this.current?.list() ?? [];
  }

  onDidChange(listener: (change: AdHocChange) => void): Disposable {
    return this.changes.on(listener);
  }

  /** Manager side: a running informer for this watch. */
  attach(informer: Informer): void {
    this.current = informer;
    this.subscriptions = [
      informer.addHandler({ name: this.request.purpose, onAdd: () => this.fire('objects'), onUpdate: () => this.fire('objects'), onDelete: () => this.fire('objects') }),
      informer.onStateChange(() => this.fire('state')),
    ];
    this.fire('informer');
  }

  /** Manager side: the informer stopped for good (`at`, on the manager's clock); the watch tells its consumer it ended. */
  detach(why: string, at?: number): Informer | undefined {
    const informer = this.current;
    this.current = undefined;
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions = [];
    if (!this.endedWith) {
      this.endedWith = why;
      this.endedAt = at;
      this.fire('ended');
    }
    return informer;
  }

  /** Manager side: the type resolution is waiting. */
  waiting(problem: string): void {
    this.problem = problem;
    this.fire('state');
  }

  dispose(): Promise<void> {
    const stop = this.onDispose;
    this.onDispose = undefined;
    this.changes.dispose();
    return stop ? stop() : Promise.resolve();
  }

  private fire(change: AdHocChange): void {
    this.changes.fire(change);
  }
}

/** What the ad-hoc watches need from the manager around them. */
export interface AdHocHost {
  readonly clock: Clock;
  readonly options: WatchManagerOptions;
  config(): WatchConfig;
  running(): boolean;
  session(spec: string): ContextSession | undefined;
}

/**
 * The open ad-hoc watches, each with the session it runs on. Invariant: a watch is here from
 * when it is asked for until it is disposed or ended; ending it stops its resolution and
 * informer before its consumer hears `ended`.
 */
export class AdHocWatches {
  private readonly open = new Map<AdHocWatch, { session: ContextSession; resolving: AbortController }>();

  constructor(private readonly host: AdHocHost) {}

  /** How many are open (asked for and not yet disposed or ended). */
  get count(): number {
    return this.open.size;
  }

  /** See `WatchManager.watchAdHoc`. Never throws. */
  watch(request: AdHocWatchRequest): AdHocWatch {
    const { clock, options } = this.host;
    const running = this.host.running();
    const watch = new AdHocWatch(request, clock.now());
    const session = this.host.session(request.spec);
    const transport = session?.transport;
    if (!running || !session || !transport) {
      watch.detach(running ? (session?.problem?.message ?? 'the context is not configured') : 'watching is stopped');
      return watch;
    }
    const resolving = new AbortController();
    this.open.set(watch, { session, resolving });
    watch.onDispose = () => this.stopOne(watch, 'closed');
    const config = this.host.config();
    const maxMs = config.maxBackoffMs ?? options.informerOptions?.backoff?.maxMs;
    const typed =
      typeof request.type === 'string'
        ? resolveWithRetry(transport, request.type, {
            clock,
            signal: resolving.signal,
            backoff: { ...options.informerOptions?.backoff, ...(maxMs ? { maxMs } : {}) },
            attemptTimeoutMs: options.informerOptions?.requestTimeoutMs,
            onWaiting: (wait) => watch.waiting(wait.reason),
          })
        : Promise.resolve(request.type);
    typed.then(
      (type) => {
        if (resolving.signal.aborted || !this.open.has(watch) || !this.host.running()) return;
        watch.type = type;
        watch.problem = undefined;
        const extra = options.informerOptions ?? {};
        const informer = new Informer({
          ...extra,
          transport,
          type,
          namespace: request.namespace || undefined,
          fieldSelector: request.fieldSelector,
          labelSelector: request.labelSelector,
          metadataOnly: request.metadataOnly,
          streamingList: this.host.config().streamingList ?? extra.streamingList,
          streamingListMemory: session.streamingListMemory,
          backoff: maxMs ? { ...extra.backoff, maxMs } : extra.backoff,
          clock,
          name: `${labelOf(session.contextName || session.spec, resourceTypeName(type), request.namespace ?? '')} for ${request.purpose}`,
        });
        watch.attach(informer);
        informer.start();
      },
      () => undefined, // aborted: the watch was disposed or ended
    );
    return watch;
  }

  /** Ends the ad-hoc watches on the sessions `which` picks: stopped, forgotten, their consumers told. */
  async end(which: (session: ContextSession) => boolean, why: string): Promise<void> {
    await Promise.all([...this.open].filter(([, owner]) => which(owner.session)).map(([watch]) => this.stopOne(watch, why)));
  }

  /** Restarts the running informers of the ad-hoc watches on the sessions `which` picks. */
  restart(which: (session: ContextSession) => boolean, reason: string): Promise<void>[] {
    const restarts: Promise<void>[] = [];
    for (const [watch, owner] of this.open) if (which(owner.session) && watch.informer) restarts.push(watch.informer.restart(reason));
    return restarts;
  }

  private async stopOne(watch: AdHocWatch, why: string): Promise<void> {
    const owner = this.open.get(watch);
    this.open.delete(watch);
    owner?.resolving.abort();
    await watch.detach(why, this.host.clock.now())?.stop();
  }
}
