import { Emitter, type Clock, type Disposable } from '../base';
import { ResourceCatalog } from '../catalog';
import { OriginRefused } from '../edit';
import { resourceTypeName, type Informer, type InformerState, type KubeObject, type ResourceType } from '../informer';
import type { WriteRequest } from '../informer/transport';
import { isOriginRefusal, type ObjectOrigin, type WatchManager } from '../manager';
import type { KindResolution, ManifestCluster, ManifestTarget, ObjectWatch, TypeWatch } from './manifest-cluster';

/**
 * The manifests engine's cluster, on the watch manager: the context the workspace compares with
 * (`kubeWatch.workspace.context` when set and watched, else the first configured context, the
 * current one by default), discovery through the resource catalog, and for each object the
 * tree's own informer when it watches the type in that namespace (no second watch), else an
 * ad-hoc watch of that name. Writes go through `resolveOrigin`: the cluster the comparison was
 * made on, or a refusal in words (W01).
 */
export class ManagerCluster implements ManifestCluster, Disposable {
  private readonly catalog: ResourceCatalog;
  private readonly changes = new Emitter<void>();
  private readonly subs: Disposable[];
  private lastTarget = '';
  private readonly ownCatalog: boolean;

  constructor(
    private readonly manager: WatchManager,
    /** The context chosen for a file's folder (the trusted setting), or undefined for the default. */
    private readonly chosen: (uri?: string) => string | undefined,
    clock: Clock,
    /** The view's catalog, shared (one discovery per context); else one of its own. */
    shared?: ResourceCatalog,
    /** Every context chosen in the workspace (one per folder), to tell when a target changed. */
    private readonly choices: () => readonly (string | undefined)[] = () => [chosen()],
  ) {
    this.ownCatalog = !shared;
    this.catalog = shared ?? new ResourceCatalog(manager, clock);
    this.subs = [
      this.catalog.onDidChange(() => this.changes.fire()),
      manager.onDidChangeEntries(() => this.targetMayHaveChanged()),
    ];
  }

  /** A setting changed: compare with the new contexts. */
  targetMayHaveChanged(): void {
    const key = JSON.stringify([this.target(), ...this.choices().map((c) => this.targetOf(c))]);
    if (key !== this.lastTarget) {
      this.lastTarget = key;
      this.changes.fire();
    }
  }

  target(uri?: string): ManifestTarget {
    return this.targetOf(this.chosen(uri));
  }

  private targetOf(choice: string | undefined): ManifestTarget {
    const specs = this.manager.configuration.contexts;
    const chosen = choice?.trim();
    let spec = specs[0] ?? '';
    if (chosen) {
      const current = this.manager.contextOrigin('')?.context;
      if (specs.includes(chosen)) spec = chosen;
      else if (specs.length === 0 && current === chosen) spec = '';
      else return { problem: `context "${chosen}" (kubeWatch.workspace.context) is not watched: add it to kubeWatch.contexts` };
    }
    const origin = this.manager.contextOrigin(spec);
    if (!origin) {
      const c = this.manager.contextConnection(spec);
      return { problem: c && 'problem' in c ? c.problem : 'no context to compare with (is the kubeconfig readable?)' };
    }
    // The session is the origin's, read here for its default namespace only.
    return { spec, context: origin.context, namespace: origin.session.namespace ?? 'default' };
  }

  resolve(spec: string, apiVersion: string, kind: string, signal: AbortSignal): Promise<KindResolution> {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    const find = (): KindResolution | undefined => {
      const state = this.catalog.state(spec);
      if (!state.groups) return state.problem && !state.loading ? { problem: state.problem } : undefined;
      const type = state.groups.find((g) => g.name === group)?.types.find((t) => t.kind === kind);
      if (type) return { type: { ...type, version } };
      if (state.loading) return undefined;
      return { unknown: `${kind} (${apiVersion})` };
    };
    return new Promise((resolve) => {
      const now = find();
      if (now) return resolve(now);
      const sub = this.catalog.onDidChange((s) => {
        if (s !== spec) return;
        const r = find();
        if (r) done(r);
      });
      const done = (r: KindResolution) => {
        sub.dispose();
        signal.removeEventListener('abort', aborted);
        resolve(r);
      };
      const aborted = () => done({ problem: 'cancelled' });
      signal.addEventListener('abort', aborted);
    });
  }

  /** The tree's informer of the type on `spec` when it covers `namespace`. */
  private treeInformer(spec: string, type: ResourceType, namespace: string | undefined): Informer | undefined {
    const entry = this.manager.entries().find((e) => e.informer && e.type && this.manager.contextSpecOf(e.id) === spec && resourceTypeName(e.type) === resourceTypeName(type) && (e.namespace === '' || e.namespace === (namespace ?? '')));
    return entry?.informer;
  }

  watchAll(spec: string, type: ResourceType, namespace: string | undefined): TypeWatch {
    const tree = this.treeInformer(spec, type, namespace);
    if (tree) return informerTypeWatch(() => tree, namespace, () => ({ dispose: () => undefined }));
    const adHoc = this.manager.watchAdHoc({ spec, type, namespace: namespace ?? '', purpose: `manifests ${type.kind}${namespace ? ` in ${namespace}` : ''}` });
    return {
      ...informerTypeWatch(() => adHoc.informer, namespace, (listener) => adHoc.onDidChange(listener)),
      state: () => adHoc.state,
      dispose: () => void adHoc.dispose(),
    };
  }

  watch(spec: string, type: ResourceType, namespace: string | undefined, name: string): ObjectWatch {
    const tree = this.treeInformer(spec, type, namespace);
    if (tree) return informerWatch(tree, namespace, name);
    const adHoc = this.manager.watchAdHoc({ spec, type, namespace: namespace ?? '', fieldSelector: `metadata.name=${name}`, purpose: `manifest ${type.kind} ${namespace ? `${namespace}/` : ''}${name}` });
    return {
      state: () => adHoc.state,
      object: () => adHoc.list()[0],
      onDidChange: (listener) => adHoc.onDidChange(() => listener()),
      dispose: () => void adHoc.dispose(),
    };
  }

  origin(spec: string, object?: KubeObject): ObjectOrigin | undefined {
    return this.manager.contextOrigin(spec, object);
  }

  async write<T>(origin: ObjectOrigin, request: WriteRequest, signal: AbortSignal): Promise<T> {
    const r = this.manager.resolveOrigin(origin);
    if (isOriginRefusal(r)) throw new OriginRefused(r.refused);
    if (!r.transport.write) throw new Error('this connection cannot write');
    return r.transport.write<T>(request, signal);
  }

  async read<T>(origin: ObjectOrigin, path: string, signal: AbortSignal): Promise<T> {
    const r = this.manager.resolveOrigin(origin);
    if (isOriginRefusal(r)) throw new OriginRefused(r.refused);
    return r.transport.getJson<T>(path, {}, signal);
  }

  onDidChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    if (this.ownCatalog) this.catalog.dispose();
    this.changes.dispose();
  }
}

/** One object of an informer the tree runs: read from its cache, told of its changes. */
function informerWatch(informer: Informer, namespace: string | undefined, name: string): ObjectWatch {
  const mine = (o: KubeObject) => o.metadata.name === name && (o.metadata.namespace ?? '') === (namespace ?? '');
  return {
    state: (): InformerState => informer.state,
    object: () => informer.get(namespace, name),
    onDidChange(listener) {
      const a = informer.addHandler({ name: `manifest ${name}`, onAdd: (o) => mine(o) && listener(), onUpdate: (_, o) => mine(o) && listener(), onDelete: (o) => mine(o) && listener() });
      const b = informer.onStateChange(() => listener());
      return { dispose: () => (a.dispose(), b.dispose()) };
    },
    dispose: () => undefined,
  };
}

/**
 * The objects of an informer in one namespace, told by name. `current` is the informer now (an
 * ad-hoc watch's is replaced when it restarts: `replaced` fires with 'informer' then, and the
 * handler moves to the new one).
 */
function informerTypeWatch(current: () => Informer | undefined, namespace: string | undefined, replaced: (listener: (change: string) => void) => Disposable): TypeWatch {
  const ns = namespace ?? '';
  return {
    state: () => current()?.state ?? { phase: 'connecting', reason: 'starting', since: 0, synced: false },
    get: (name) => current()?.get(namespace, name),
    onDidChange(listener) {
      let on: Informer | undefined;
      let subs: Disposable[] = [];
      const follow = () => {
        const informer = current();
        if (informer === on) return;
        for (const s of subs) s.dispose();
        on = informer;
        const mine = (o: KubeObject) => (o.metadata.namespace ?? '') === ns && listener(o.metadata.name);
        subs = informer ? [informer.addHandler({ name: 'manifests', onAdd: mine, onUpdate: (_, o) => mine(o), onDelete: mine }), informer.onStateChange(() => listener(undefined))] : [];
      };
      follow();
      const outer = replaced((change) => {
        if (change === 'objects') return;
        follow();
        listener(undefined);
      });
      return { dispose: () => (outer.dispose(), subs.forEach((s) => s.dispose())) };
    },
    dispose: () => undefined,
  };
}
