import { groupVersion, type KubeObject, type ResourceType } from '../informer';
import { type Clock, type Disposable } from '../base';
import type { AdHocChange, AdHocWatch, AdHocWatchRequest, EntriesChange, EntryHandler, ObjectsRemoved, WatchConfig, WatchEntry } from '../manager';
import { STALE_GRACE_MS, StalenessTracker, staleBanner, type Staleness, type WatchLike } from '../ui/staleness';
import { RefreshThrottle } from '../ui/tree/refresh-throttle';
import { describeObject } from './describe-object';
import type { Description, ObjectTarget } from './describe-writer';
import { ObjectEventsWatch } from './object-events-watch';
import { ServiceEndpointsWatch, type DescribedWatch } from './service-endpoints-watch';

/** Least time between two re-renders of one description while its object or events change fast. */
export const DESCRIPTION_REFRESH_MS = 250;

/** While a description is open, it is re-rendered at least this often, so that its ages move on. */
export const AGE_REFRESH_MS = 10_000;

/** While its banner shows, a description is re-rendered this often, so "Stale for N s" counts as the YAML document's does. */
export const STALE_REFRESH_MS = 1000;

export { EVENTS_TYPE, EVENTS_V1_TYPE } from './object-events-watch';

/**
 * What a description shows: an object of a context, by type (resolved, or spelled as kubectl
 * spells it when it comes from an owner reference), namespace and name.
 */
export interface DescribeTarget {
  /** The configured context spec ("" = the current-context). */
  readonly spec: string;
  readonly type: ResourceType | string;
  readonly kind: string;
  readonly apiVersion: string;
  /** '' for a cluster-scoped object. */
  readonly namespace: string;
  readonly name: string;
}

/** What a description needs of the watch manager. */
export interface DescriptionSource {
  readonly configuration: WatchConfig;
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  contextSpecOf(id: string): string | undefined;
  addHandler(handler: EntryHandler): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch;
}

/** How a description learns since when a configured watch is stale. */
export interface DescriptionOptions {
  /**
   * The tree's staleness of a configured entry (`WatchTreeModel.stalenessOf`), so that the
   * banner reads exactly as the YAML document's and the tree's; without it the description
   * keeps its own tracker (it then knows an outage only from when it was opened).
   */
  readonly stalenessOf?: (entryId: string) => Staleness | undefined;
  /**
   * Lines the description adds after the describer's (a pod's or node's usage from
   * metrics.k8s.io), asked at each render (at least every 10 s while open); undefined: none.
   */
  readonly extraLines?: (target: DescribeTarget, obj: KubeObject, now: number) => readonly string[] | undefined;
}

/** One watch the banner looks at: the configured entry or an ad-hoc watch, and what it is for. */
interface Dependency {
  readonly id: string;
  readonly what: string;
  /** The object's own watch: its banner line is the YAML document's, word for word. */
  readonly isObject: boolean;
  readonly watch: WatchLike;
}

/** The kubectl spelling of a type from an owner reference: `replicaset.v1.apps`, or `pod` for the core group. */
export function spellingOf(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  return group ? `${kind.toLowerCase()}.${version}.${group}` : kind.toLowerCase();
}

/** The target a link points at, on the context of the description it is in. */
export function targetOf(link: ObjectTarget, spec: string): DescribeTarget {
  return { spec, type: spellingOf(link.apiVersion, link.kind), kind: link.kind, apiVersion: link.apiVersion, namespace: link.namespace, name: link.name };
}

/**
 * One open description: follows its object (through the configured watch of its type when
 * there is one without selectors, else a single-object watch `metadata.name=…`) and the
 * object's Events (a watch `involvedObject.uid=…`, re-made when the uid changes), and asks
 * for a re-render (`onChange`, at most every 250 ms) when either changes or a watch's state does.
 * Invariants: every watch it started is disposed by `dispose()`; a watch the manager ended
 * (stopped, context replaced) is asked for again on the manager's next entry change.
 */
export class LiveDescription implements Disposable {
  private entryId: string | undefined;
  private objectWatch: AdHocWatch | undefined;
  private eventsWatch: ObjectEventsWatch | undefined;
  private eventsUid: string | undefined;
  private last: KubeObject | undefined;
  private gone: { at: number; why: string } | undefined;
  /** A Service's EndpointSlices (or Endpoints), while a Service is described. */
  private endpointsWatch: ServiceEndpointsWatch | undefined;
  /** Since when each watch of this description is down (ad-hoc ones, and the entry without `stalenessOf`). */
  private readonly staleness = new StalenessTracker();
  private readonly throttle: RefreshThrottle;
  private readonly subscriptions: Disposable[];
  private disposed = false;

  constructor(
    private readonly source: DescriptionSource,
    readonly target: DescribeTarget,
    private readonly clock: Clock,
    onChange: () => void,
    private readonly options: DescriptionOptions = {},
  ) {
    this.throttle = new RefreshThrottle(clock, DESCRIPTION_REFRESH_MS, onChange);
    const mine = (id: string, obj: KubeObject) => id === this.entryId && (obj.metadata.namespace ?? '') === target.namespace && obj.metadata.name === target.name;
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => mine(id, obj) && this.objectChanged(obj),
        onUpdate: (id, _old, obj) => mine(id, obj) && this.objectChanged(obj),
        onDelete: (id, obj, unknown) => mine(id, obj) && this.objectGone(obj, unknown ? 'deleted while the watch was away' : 'deleted'),
      }),
      source.onObjectsRemoved((removed) => {
        const obj = removed.objects.find((o) => mine(removed.entryId, o));
        if (obj) this.objectGone(obj, `removed from the view (${removed.reason})`);
      }),
      source.onDidChangeEntries(() => {
        this.ensureWatches(true);
        this.observeStaleness();
        this.throttle.request();
      }),
    ];
    this.ensureWatches(true);
  }

  /** The ad-hoc watches this description runs now (object, events, a Service's EndpointSlices). */
  get runningWatches(): number {
    return [this.objectWatch, this.eventsWatch?.dependency?.watch, this.endpointsWatch?.dependency?.watch].filter((w) => w && !w.ended).length;
  }

  /** True when the Events come from events.k8s.io/v1 because core/v1 Events are refused or not served. */
  get usesEventsV1(): boolean {
    return this.eventsWatch?.usesEventsV1 ?? false;
  }

  /** True when a Service's description follows its core Endpoints because EndpointSlices are not served or refused. */
  get usesEndpointsObject(): boolean {
    return this.endpointsWatch?.usesEndpoints ?? false;
  }

  /** The description as it stands: banner (stale, deleted), the describer's fields, Events. */
  render(): Description {
    const now = this.clock.now();
    const live = this.current();
    if (live) {
      this.last = live;
      this.gone = undefined;
    }
    this.ensureWatches();
    this.observeStaleness();
    const dependencies = this.dependencies();
    const banner = this.banner(dependencies, now);
    // Ages ("12s", "x6 over 5m") move on even when nothing changes; a stale time each second.
    this.throttle.request(now + (banner.length ? STALE_REFRESH_MS : AGE_REFRESH_MS));
    const what = `${this.target.kind} ${this.target.namespace ? `${this.target.namespace}/` : ''}${this.target.name}`;
    if (!this.last) {
      const objectState = dependencies.find((d) => d.isObject)?.watch.state;
      const text = objectState?.synced ? `${what} was not found.\n` : `Waiting for ${what}… (${objectState?.reason ?? objectState?.phase ?? 'starting'})\n`;
      return { text: [...banner, ...(banner.length ? [''] : []), text].join('\n'), links: [] };
    }
    if (this.gone) banner.push(`${this.gone.why === 'deleted' ? 'Deleted' : this.gone.why} at ${new Date(this.gone.at).toISOString()}: the last known state follows.`);
    const events = this.eventsWatch?.list();
    const related = this.endpointsWatch?.related();
    const extra = this.gone ? undefined : this.options.extraLines?.(this.target, this.last, now);
    return describeObject(this.last, { kind: this.target.kind, apiVersion: this.target.apiVersion, events, now, banner, related, extra });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.throttle.dispose();
    for (const s of this.subscriptions) s.dispose();
    void this.objectWatch?.dispose();
    this.eventsWatch?.dispose();
    this.endpointsWatch?.dispose();
    this.objectWatch = undefined;
    this.eventsWatch = undefined;
    this.endpointsWatch = undefined;
    this.staleness.clear();
  }

  private current(): KubeObject | undefined {
    if (this.entryId) return this.source.entry(this.entryId)?.informer?.get(this.target.namespace || undefined, this.target.name);
    return this.objectWatch?.list().find((o) => o.metadata.name === this.target.name);
  }

  /** Every watch the description shows data of: the object's first, then its events, then related objects'. */
  private dependencies(): Dependency[] {
    const out: Dependency[] = [];
    const what = `${this.target.kind} ${this.target.name}`;
    const entry = this.entryId ? this.source.entry(this.entryId) : undefined;
    if (entry) out.push({ id: entry.id, what: entry.label, isObject: true, watch: entry });
    else if (this.objectWatch) out.push({ id: 'object', what, isObject: true, watch: adHocWatchLike('object', this.objectWatch) });
    const own: (DescribedWatch | undefined)[] = [this.eventsWatch?.dependency, this.endpointsWatch?.dependency];
    for (const d of own) if (d) out.push({ id: d.id, what: d.what, isObject: false, watch: adHocWatchLike(d.id, d.watch) });
    return out;
  }

  /** Tells the tracker the state of every watch (on each change of one, so it sees every outage from its start). */
  private observeStaleness(): void {
    if (this.disposed) return;
    const watches = this.dependencies()
      .filter((d) => !(d.id === this.entryId && this.options.stalenessOf))
      .map((d) => d.watch);
    this.staleness.observe(watches, this.clock.now());
  }

  private stalenessOf(d: Dependency, now: number): Staleness | undefined {
    return d.id === this.entryId && this.options.stalenessOf ? this.options.stalenessOf(d.id) : this.staleness.staleness(d.id, now);
  }

  /**
   * The stale banner, in the words of the YAML document's (`staleBanner`, after the same 1 s
   * grace): the object's watch down, that line alone (all the text is then the last state
   * seen); else one line per other watch down, naming it ("the watch of the Events of Pod web-1").
   */
  private banner(dependencies: readonly Dependency[], now: number): string[] {
    for (const d of dependencies) {
      // A watch just went down: look again when its grace is over.
      const outage = this.staleness.outage(d.id);
      if (outage && now - outage.since <= STALE_GRACE_MS) this.throttle.request(outage.since + STALE_GRACE_MS + 1);
      else if (d.id === this.entryId && this.options.stalenessOf && d.watch.state.phase !== 'watching' && now - d.watch.state.since <= STALE_GRACE_MS) this.throttle.request(d.watch.state.since + STALE_GRACE_MS + 1);
    }
    const object = dependencies.find((d) => d.isObject);
    const objectStale = object && this.stalenessOf(object, now);
    if (objectStale) return [staleBanner(objectStale, now)!];
    const lines: string[] = [];
    for (const d of dependencies) {
      if (d.isObject) continue;
      const line = staleBanner(this.stalenessOf(d, now), now, d.what);
      if (line) lines.push(line);
    }
    return lines;
  }

  /** The configured watch that holds this object: same context and type, covering its namespace, no selectors. */
  private findEntry(): WatchEntry | undefined {
    const config = this.source.configuration;
    if (config.labelSelector?.trim() || config.fieldSelector?.trim()) return undefined;
    const { type, kind, apiVersion, namespace, spec } = this.target;
    const sameType = (t: ResourceType) =>
      typeof type === 'string' ? t.kind === kind && groupOf(groupVersion(t)) === groupOf(apiVersion) : t.group === type.group && t.resource === type.resource;
    return this.source
      .entries()
      .find((e) => e.type && e.informer && sameType(e.type) && (e.namespace === '' || e.namespace === namespace) && this.source.contextSpecOf(e.id) === spec);
  }

  /**
   * Starts or swaps the watches this description needs; with `reaskEnded`, also asks again for
   * those the manager ended (on its entry changes: it may run again), else an ended watch
   * stays, showing since when it is down.
   */
  private ensureWatches(reaskEnded = false): void {
    if (this.disposed) return;
    if (this.target.kind === 'Service') {
      if (!this.endpointsWatch) this.endpointsWatch = new ServiceEndpointsWatch((request) => this.adHoc(request), this.target.spec, this.target.namespace, this.target.name);
      else this.endpointsWatch.ensure(reaskEnded);
    }
    if (this.entryId && !this.source.entry(this.entryId)?.informer) this.entryId = undefined;
    if (!this.entryId) {
      const entry = this.findEntry();
      if (entry) {
        this.entryId = entry.id;
        void this.objectWatch?.dispose();
        this.objectWatch = undefined;
      } else if (!this.objectWatch || (reaskEnded && this.objectWatch.ended)) {
        void this.objectWatch?.dispose();
        this.objectWatch = this.adHoc({
          spec: this.target.spec,
          type: this.target.type,
          namespace: this.target.namespace,
          fieldSelector: `metadata.name=${this.target.name}`,
          purpose: `describe ${this.target.kind} ${this.target.namespace ? `${this.target.namespace}/` : ''}${this.target.name}`,
        });
      }
    }
    const uid = (this.current() ?? this.last)?.metadata.uid;
    if (uid !== this.eventsUid) {
      this.eventsWatch?.dispose();
      this.eventsWatch = undefined;
      this.eventsUid = uid;
      if (uid) this.eventsWatch = new ObjectEventsWatch((request) => this.adHoc(request), this.target.spec, this.target.namespace, uid, `${this.target.kind} ${this.target.name}`);
    } else {
      this.eventsWatch?.ensure(reaskEnded);
    }
  }

  private adHoc(request: AdHocWatchRequest): AdHocWatch {
    const watch = this.source.watchAdHoc(request);
    watch.onDidChange((change: AdHocChange) => {
      if (this.disposed) return;
      if (change === 'objects' && watch === this.objectWatch) this.objectWatchChanged();
      if (change === 'informer' || change === 'objects' || change === 'state') this.ensureWatches();
      this.observeStaleness();
      this.throttle.request();
    });
    return watch;
  }

  private objectWatchChanged(): void {
    const obj = this.current();
    if (obj) this.objectChanged(obj);
    else if (this.last && !this.gone) this.objectGone(this.last, 'deleted');
  }

  private objectChanged(obj: KubeObject): void {
    this.last = obj;
    this.gone = undefined;
    if (obj.metadata.uid !== this.eventsUid) this.ensureWatches();
    this.throttle.request();
  }

  private objectGone(obj: KubeObject, why: string): void {
    this.last = obj;
    this.gone = { at: this.clock.now(), why };
    this.throttle.request();
  }
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** An ad-hoc watch as the staleness tracker reads it. */
function adHocWatchLike(id: string, watch: AdHocWatch): WatchLike {
  return { id, state: watch.state, informer: watch.informer };
}
