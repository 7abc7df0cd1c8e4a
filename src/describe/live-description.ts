import { groupVersion, type Clock, type Disposable, type KubeObject, type ResourceType } from '../informer';
import type { AdHocChange, AdHocWatch, AdHocWatchRequest, EntriesChange, EntryHandler, ObjectsRemoved, WatchConfig, WatchEntry } from '../manager';
import { RefreshThrottle } from '../ui/tree/refresh-throttle';
import { describeObject } from './describe-object';
import type { Description, ObjectTarget } from './describe-writer';
import { STALE_AFTER_MS, staleBanner, type WatchDependency } from './stale-banner';

/** Least time between two re-renders of one description while its object or events change fast. */
export const DESCRIPTION_REFRESH_MS = 250;

/** While a description is open, it is re-rendered at least this often, so that its ages move on. */
export const AGE_REFRESH_MS = 10_000;

/** core/v1 Events: the watch of an object's events (`involvedObject.uid=…`). */
export const EVENTS_TYPE: ResourceType = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

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
  private eventsWatch: AdHocWatch | undefined;
  private eventsUid: string | undefined;
  private last: KubeObject | undefined;
  private gone: { at: number; why: string } | undefined;
  private readonly throttle: RefreshThrottle;
  private readonly subscriptions: Disposable[];
  private disposed = false;

  constructor(
    private readonly source: DescriptionSource,
    readonly target: DescribeTarget,
    private readonly clock: Clock,
    onChange: () => void,
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
        this.throttle.request();
      }),
    ];
    this.ensureWatches(true);
  }

  /** The ad-hoc watches this description runs now (object and events). */
  get runningWatches(): number {
    return [this.objectWatch, this.eventsWatch].filter((w) => w && !w.ended).length;
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
    const dependencies = this.dependencies();
    const banner = staleBanner(dependencies, now) ?? [];
    // A watch just went down: look again when it has been down long enough for the banner.
    for (const d of dependencies) if (d.state.phase !== 'watching' && now - d.state.since < STALE_AFTER_MS) this.throttle.request(d.state.since + STALE_AFTER_MS);
    // Ages ("12s", "x6 over 5m") move on even when nothing changes.
    this.throttle.request(now + AGE_REFRESH_MS);
    const what = `${this.target.kind} ${this.target.namespace ? `${this.target.namespace}/` : ''}${this.target.name}`;
    if (!this.last) {
      const objectState = dependencies[0]?.state;
      const text = objectState?.synced ? `${what} was not found.\n` : `Waiting for ${what}… (${objectState?.reason ?? objectState?.phase ?? 'starting'})\n`;
      return { text: [...banner, ...(banner.length ? [''] : []), text].join('\n'), links: [] };
    }
    if (this.gone) banner.push(`${this.gone.why === 'deleted' ? 'Deleted' : this.gone.why} at ${new Date(this.gone.at).toISOString()}: the last known state follows.`);
    const events = this.eventsWatch?.informer ? this.eventsWatch.list() : this.eventsWatch ? [] : undefined;
    return describeObject(this.last, { kind: this.target.kind, apiVersion: this.target.apiVersion, events, now, banner });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.throttle.dispose();
    for (const s of this.subscriptions) s.dispose();
    void this.objectWatch?.dispose();
    void this.eventsWatch?.dispose();
    this.objectWatch = undefined;
    this.eventsWatch = undefined;
  }

  private current(): KubeObject | undefined {
    if (this.entryId) return this.source.entry(this.entryId)?.informer?.get(this.target.namespace || undefined, this.target.name);
    return this.objectWatch?.list().find((o) => o.metadata.name === this.target.name);
  }

  private dependencies(): WatchDependency[] {
    const out: WatchDependency[] = [];
    const what = `${this.target.kind} ${this.target.name}`;
    const entry = this.entryId ? this.source.entry(this.entryId) : undefined;
    if (entry) out.push({ what: entry.label, state: entry.state });
    else if (this.objectWatch) out.push({ what, state: this.objectWatch.state });
    if (this.eventsWatch) out.push({ what: `the events of ${what}`, state: this.eventsWatch.state });
    return out;
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
    if (uid !== this.eventsUid || (reaskEnded && this.eventsWatch?.ended)) {
      void this.eventsWatch?.dispose();
      this.eventsWatch = undefined;
      this.eventsUid = uid;
      if (uid) {
        this.eventsWatch = this.adHoc({
          spec: this.target.spec,
          type: EVENTS_TYPE,
          namespace: this.target.namespace || undefined,
          fieldSelector: `involvedObject.uid=${uid}`,
          purpose: `the events of ${this.target.kind} ${this.target.name}`,
        });
      }
    }
  }

  private adHoc(request: AdHocWatchRequest): AdHocWatch {
    const watch = this.source.watchAdHoc(request);
    watch.onDidChange((change: AdHocChange) => {
      if (this.disposed) return;
      if (change === 'objects' && watch === this.objectWatch) this.objectWatchChanged();
      if (change === 'informer' || change === 'objects') this.ensureWatches();
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
