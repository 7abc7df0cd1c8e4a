import { Emitter, type Disposable } from '../base';
import { type Informer, type InformerState, type KubeObject, type ResourceType } from '../informer';

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
