import type { Disposable } from '../base';
import type { KubeObject, ResourceType } from '../informer';
import type { AdHocWatch, AdHocWatchRequest, EntryHandler, WatchConfig, WatchEntry } from '../manager';
import { ENDPOINT_SLICES, POD_TYPE, isOwnedBy, ownedTypeOf, podNamesOfSlices, type OwnedType } from './owned-types';

/** What the related objects need of the watch manager (a WatchManager is one). */
export interface RelatedSource {
  readonly configuration: WatchConfig;
  entries(): WatchEntry[];
  contextSpecOf(id: string): string | undefined;
  addHandler(handler: EntryHandler): Disposable;
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch;
}

/** A row whose related objects are asked for: a workload (what it owns) or a Service (its Pods). */
export interface RelatedOwner {
  /** Stable id of the asking row; rows under it have ids that start with it. */
  readonly key: string;
  /** The configured context spec ("" = the current-context) whose connection to use. */
  readonly spec: string;
  readonly context: string;
  readonly namespace: string;
  readonly kind: string;
  readonly name: string;
  readonly uid?: string;
}

/** One related object, with where it comes from. */
export interface RelatedItem {
  readonly object: KubeObject;
  readonly kind: string;
  /** The configured watch that holds it (then the row offers what object rows offer), if one does. */
  readonly entryId?: string;
  /** Its type once resolved, else as spelled. */
  readonly type: ResourceType | string;
}

export interface RelatedAnswer {
  readonly items: RelatedItem[];
  /** Why there is nothing to show yet ("listing replicasets…") or at all (the watch's problem). */
  readonly note?: string;
}

/** Where objects of one type in one namespace are read from: a configured watch, or an ad-hoc one. */
interface Source {
  readonly key: string;
  readonly entryId?: string;
  readonly type: ResourceType | string;
  objects(): Iterable<KubeObject>;
  readonly ready: boolean;
  readonly note?: string;
}

interface OpenAdHoc {
  readonly watch: AdHocWatch;
  readonly users: Set<string>;
  readonly subscription: Disposable;
}

/**
 * The objects related to a row, from the caches (issue 23, part 5): a Deployment's ReplicaSets,
 * a ReplicaSet's (StatefulSet's, DaemonSet's, Job's) Pods, a CronJob's Jobs, by `ownerReferences`;
 * a Service's Pods, as its EndpointSlices name them. A type the configuration watches (in that
 * namespace, without selectors) is read from its watch; any other is watched on demand through
 * the manager's ad-hoc watches, while some row that needs it is open.
 *
 * Invariants: an ad-hoc watch runs only while an open owner uses it (`release` of the last one
 * disposes it); `onDidChange` names the owners whose related objects may have changed, at most
 * once per microtask; after `dispose()` nothing runs.
 */
export class RelatedObjects implements Disposable {
  private readonly open = new Map<string, { owner: RelatedOwner; sources: Set<string> }>();
  private readonly adHoc = new Map<string, OpenAdHoc>();
  private readonly listeners = new Set<(keys: string[]) => void>();
  private readonly pending = new Set<string>();
  private flushQueued = false;
  private readonly subscription: Disposable;
  private disposed = false;

  constructor(private readonly source: RelatedSource) {
    const changed = (entryId: string, obj: KubeObject) => this.entryChanged(entryId, obj);
    this.subscription = source.addHandler({ onAdd: changed, onUpdate: (id, _old, obj) => changed(id, obj), onDelete: changed });
  }

  /** Open ad-hoc watches (tests: none once every owner is released). */
  get adHocCount(): number {
    return this.adHoc.size;
  }

  onDidChange(listener: (ownerKeys: string[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The related objects of `owner` now; the owner stays open (its sources watched) until released. */
  related(owner: RelatedOwner): RelatedAnswer {
    if (this.disposed) return { items: [] };
    const sources = new Set<string>();
    this.open.set(owner.key, { owner, sources });
    if (owner.kind === 'Service') return this.podsOfService(owner, sources);
    const owned = ownedTypeOf(owner.kind);
    if (!owned || !owner.uid) return { items: [] };
    const from = this.sourceOf(owner, owned, undefined, sources);
    const items: RelatedItem[] = [];
    for (const obj of from.objects()) if (isOwnedBy(obj, owner.uid)) items.push({ object: obj, kind: owned.kind, entryId: from.entryId, type: from.type });
    return { items: byName(items), note: items.length === 0 ? (from.note ?? (from.ready ? `no ${plural(owned)}` : `listing ${plural(owned)}…`)) : undefined };
  }

  /** The owner's row closed (or went): it and every open row under it stop using their sources. */
  release(ownerKey: string): void {
    for (const key of [...this.open.keys()]) if (key === ownerKey || key.startsWith(`${ownerKey}>`)) this.open.delete(key);
    for (const [key, w] of [...this.adHoc]) {
      for (const user of [...w.users]) if (!this.open.has(user)) w.users.delete(user);
      if (w.users.size === 0) this.closeAdHoc(key);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.subscription.dispose();
    for (const key of [...this.adHoc.keys()]) this.closeAdHoc(key);
    this.open.clear();
    this.listeners.clear();
  }

  /** A Service's Pods: the Pods its EndpointSlices name, read from the Pods' watch. */
  private podsOfService(owner: RelatedOwner, sources: Set<string>): RelatedAnswer {
    const slices = this.sourceOf(owner, ENDPOINT_SLICES, `kubernetes.io/service-name=${owner.name}`, sources);
    const names = podNamesOfSlices([...slices.objects()].filter((s) => s.metadata.namespace === owner.namespace));
    if (names.length === 0) return { items: [], note: slices.note ?? (slices.ready ? 'no endpoints' : 'listing endpointslices…') };
    const pods = this.sourceOf(owner, POD_TYPE, undefined, sources);
    const wanted = new Set(names);
    const items: RelatedItem[] = [];
    for (const obj of pods.objects()) if (obj.metadata.name && wanted.has(obj.metadata.name)) items.push({ object: obj, kind: 'Pod', entryId: pods.entryId, type: pods.type });
    return { items: byName(items), note: items.length === 0 ? (pods.note ?? (pods.ready ? 'its endpoints name no listed pod' : 'listing pods…')) : undefined };
  }

  /** Where `owner`'s namespace's objects of `type` are read from; recorded as one of its sources. */
  private sourceOf(owner: RelatedOwner, type: OwnedType, labelSelector: string | undefined, sources: Set<string>): Source {
    const entry = labelSelector === undefined ? this.configuredEntry(owner, type) : undefined;
    if (entry?.informer) {
      const informer = entry.informer;
      const key = `entry:${entry.id}`;
      sources.add(key);
      return { key, entryId: entry.id, type: entry.type ?? type.spelling, objects: () => inNamespace(informer.store.values(), owner.namespace), ready: entry.state.synced };
    }
    const key = JSON.stringify([owner.spec, type.spelling, owner.namespace, labelSelector ?? '']);
    let open = this.adHoc.get(key);
    if (open?.watch.ended) {
      this.closeAdHoc(key);
      open = undefined;
    }
    if (!open) {
      const watch = this.source.watchAdHoc({ spec: owner.spec, type: type.spelling, namespace: owner.namespace, labelSelector, purpose: `the ${plural(type)} of ${owner.kind.toLowerCase()} ${owner.namespace}/${owner.name}` });
      const subscription = watch.onDidChange(() => this.fireUsers(key));
      open = { watch, users: new Set(), subscription };
      this.adHoc.set(key, open);
    }
    open.users.add(owner.key);
    sources.add(key);
    const { watch } = open;
    const ready = watch.informer?.state.synced === true;
    const problem = watch.ended ?? (watch.problem || (watch.informer && !ready && watch.state.reason && watch.state.phase !== 'listing' && watch.state.phase !== 'connecting' ? `${watch.state.phase}: ${watch.state.reason}` : undefined));
    return { key, type: watch.type ?? type.spelling, objects: () => watch.list(), ready, note: problem };
  }

  /** The configured watch of `type` that covers the owner's namespace with every object (no selector), if any. */
  private configuredEntry(owner: RelatedOwner, type: OwnedType): WatchEntry | undefined {
    const config = this.source.configuration;
    if (config.labelSelector || config.fieldSelector) return undefined;
    return this.source
      .entries()
      .find((e) => e.informer && e.type?.group === type.group && e.type.resource === type.resource && (e.namespace === '' || e.namespace === owner.namespace) && this.source.contextSpecOf(e.id) === owner.spec);
  }

  private entryChanged(entryId: string, obj: KubeObject): void {
    if (this.open.size === 0) return;
    const key = `entry:${entryId}`;
    for (const [ownerKey, { owner, sources }] of this.open) if (sources.has(key) && owner.namespace === (obj.metadata.namespace ?? '')) this.pending.add(ownerKey);
    this.flushSoon();
  }

  private fireUsers(adHocKey: string): void {
    for (const [ownerKey, { sources }] of this.open) if (sources.has(adHocKey)) this.pending.add(ownerKey);
    this.flushSoon();
  }

  private flushSoon(): void {
    if (this.flushQueued || this.pending.size === 0) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const keys = [...this.pending];
      this.pending.clear();
      if (this.disposed || keys.length === 0) return;
      for (const l of [...this.listeners]) l(keys);
    });
  }

  private closeAdHoc(key: string): void {
    const open = this.adHoc.get(key);
    if (!open) return;
    this.adHoc.delete(key);
    open.subscription.dispose();
    void open.watch.dispose();
  }
}

function* inNamespace(objects: Iterable<KubeObject>, namespace: string): Generator<KubeObject> {
  for (const obj of objects) if ((obj.metadata.namespace ?? '') === namespace) yield obj;
}

function byName(items: RelatedItem[]): RelatedItem[] {
  return items.sort((a, b) => ((a.object.metadata.name ?? '') < (b.object.metadata.name ?? '') ? -1 : 1));
}

function plural(type: OwnedType): string {
  return type.resource;
}
