import { Emitter, systemClock, type Clock, type Disposable } from '../base';
import type { AccessReviewCache } from '../cluster/access-review';
import { ClusterRegistry } from '../connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../connection/transport/transport-factory';
import { type KubeObject, type KubeTransport, type TimedLifecycleEvent } from '../informer';
import type { ReachabilityChange } from '../connection/reachability/cluster-reachability';
import { reachabilityEvent } from './reachability-event';
import { AdHocWatches, type AdHocWatch, type AdHocWatchRequest } from './ad-hoc-watch';
import { readKubeconfigForSync, sessionConnection, SessionSet, type ContextSession } from './context-session';
import { DefinitionWatches, definitionName, mayBeCustomResource } from './definition-watch';
import { EntryHandlerSet } from './entry-handlers';
import { describeEntry, EntrySignatures } from './entry-snapshot';
import { KubeconfigFollower } from './kubeconfig-file-watcher';
import { errorLine } from './labels';
import type { WatchManagerOptions } from './manager-options';
import { OperationQueue } from './operation-queue';
import { SlotReconciler } from './slot-reconciler';
import { originOf, resolveOrigin, type ObjectOrigin, type OriginResolution } from './object-origin';
import { normalizeConfig, type WatchConfig } from './watch-config';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from './watch-entry';

export type { ExtraInformerOptions, WatchManagerOptions } from './manager-options';

/**
 * Turns a WatchConfig into informers, one per (context, resource, namespace), and keeps them
 * matching the configuration and the kubeconfig on disk. A facade: the operation queue orders
 * what it is asked; the session set, the slot reconciler, the ad-hoc watches and the CRD
 * watches do the work.
 *
 * Invariants:
 * - Every mutating operation (start, stop, update, restart, reload) runs alone, in call order.
 * - One transport per context, shared by its informers and by discovery; disposed only after
 *   all of them stopped.
 * - What a consumer sees, replaying handler events (`addHandler`) and removals
 *   (`onObjectsRemoved`) in order, equals the union of the running informers' caches: an
 *   informer that is discarded or replaced is stopped first, then its objects are reported removed,
 *   then its successor starts.
 * - Nothing here throws for a bad configuration: unknown resource types, unusable kubeconfigs
 *   and unknown contexts become entries with an error. Unknown types are retried slowly (F22).
 * - After `stop()` resolves, no informer, request, timer or file watcher is left running.
 */
export class WatchManager implements Disposable {
  private config: WatchConfig;
  private readonly clock: Clock;
  private readonly clusterRegistry: ClusterRegistry;
  private readonly resumedSubscription: Disposable;
  private readonly reachabilitySubscription: Disposable;
  private running = false;
  private readonly queue = new OperationQueue();
  private readonly handlers = new EntryHandlerSet();
  private readonly entryChanges = new Emitter<EntriesChange>();
  private readonly lifecycle = new Emitter<{ entryId: string; event: TimedLifecycleEvent }>();
  private readonly removals = new Emitter<ObjectsRemoved>();
  private readonly listProgress = new Emitter<string>();
  private readonly definitionChanges = new Emitter<string[]>();
  private readonly signatures = new EntrySignatures();
  private readonly sessions: SessionSet;
  private readonly slots: SlotReconciler;
  /** Informers outside the configuration (descriptions), with the session they run on. */
  private readonly adHoc: AdHocWatches;
  /** CRD informers, one per session that watches a type that may be custom. */
  private readonly definitions: DefinitionWatches;
  private readonly files: KubeconfigFollower;

  constructor(
    config: WatchConfig,
    options: WatchManagerOptions = {},
  ) {
    this.config = normalizeConfig(config);
    const clock = (this.clock = options.clock ?? systemClock);
    this.clusterRegistry = options.clusterRegistry ?? new ClusterRegistry();
    const transportFactory = options.transportFactory ?? kubeConfigTransportFactoryWith(this.clusterRegistry, { healthCheck: options.healthCheck, clock });
    this.resumedSubscription = this.clusterRegistry.onResumed((awayMs) => this.announceResume(awayMs));
    this.reachabilitySubscription = this.clusterRegistry.onReachabilityChange((key, change) => this.announceReachability(key, change));
    const config_ = () => this.config;
    const running = () => this.running;
    this.slots = new SlotReconciler({
      clock,
      options,
      config: config_,
      running,
      enqueue: (op) => this.queue.run(op),
      publish: () => this.publish(),
      lifecycle: (entryId, event) => this.lifecycle.fire({ entryId, event }),
      listProgress: (entryId) => this.listProgress.fire(entryId),
      removed: (removed) => this.removals.fire(removed),
      dispatch: (id, call) => this.dispatch(id, call),
      resolved: (session) => this.definitions.ensure(session),
    });
    this.adHoc = new AdHocWatches({ clock, options, config: config_, running, session: (spec) => this.sessions.get(spec) });
    this.definitions = new DefinitionWatches({
      clock,
      options,
      running,
      needs: (session) => this.needsDefinitions(session),
      changed: (session, name) => this.definitionChanged(session, name),
      versionsChanged: (session, name) => this.slots.recheckWhere(session, (type) => definitionName(type) === name, 'definition'),
    });
    this.sessions = new SessionSet(
      { clock, transportFactory, editorProxy: options.editorProxy, execEnv: options.execEnv, execInteraction: options.execInteraction },
      {
        retire: (session, reason) => this.retireSession(session, reason),
        restart: (session, reason) => this.restartSession(session, reason),
        installed: (session) => this.slots.rebind(session),
        dropped: async (session, reason) => {
          await this.adHoc.end((s) => s === session, reason);
          await this.definitions.stop((s) => s === session);
        },
      },
    );
    this.files = new KubeconfigFollower(() => void this.reloadKubeconfig('kubeconfig changed on disk').catch(() => undefined), options.kubeconfigDebounceMs);
  }

  /** The configuration in force (normalised). */
  get configuration(): WatchConfig {
    return this.config;
  }

  // ---- events ----

  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable {
    return this.entryChanges.on(listener);
  }

  /** Every informer's lifecycle events, and the state changes of entries still resolving. */
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable {
    return this.lifecycle.on(({ entryId: id, event }) => listener(id, event));
  }

  /**
   * Fires with an entry's id as its informer's first list grows (at a bounded rate) and once its
   * preview ends: read `entry.informer.listPreview` then (a partial list, never the cluster's state).
   */
  onListProgress(listener: (entryId: string) => void): Disposable {
    return this.listProgress.on(listener);
  }

  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable {
    return this.removals.on(listener);
  }

  /** Receives the cache changes of every informer, present and future. A throwing handler is isolated. */
  addHandler(handler: EntryHandler): Disposable {
    return this.handlers.add(handler);
  }

  /** Fires with the ids of the entries whose type's CustomResourceDefinition came, changed or went. */
  onDidChangeDefinitions(listener: (entryIds: string[]) => void): Disposable {
    return this.definitionChanges.on(listener);
  }

  // ---- queries ----

  /**
   * The CustomResourceDefinition that serves an entry's type, as last seen; undefined for
   * Kubernetes' own types, before it is listed, or when the user may not read CRDs (403).
   */
  customResourceDefinition(id: string): KubeObject | undefined {
    const rec = this.slots.find(id);
    const type = rec?.slot.type;
    if (!rec || !type || !mayBeCustomResource(type)) return undefined;
    return this.definitions.get(rec.slot.session, type);
  }

  entries(): WatchEntry[] {
    return [...this.slots.records()].map(describeEntry);
  }

  entry(id: string): WatchEntry | undefined {
    const rec = this.slots.find(id);
    return rec && describeEntry(rec);
  }

  /**
   * The transport of an entry's context, shared with its watches (same backoff-friendly
   * connection, health check and credentials); undefined when the entry or its session is not
   * usable. Read it for each request: a context switch replaces it.
   */
  transportOf(id: string): KubeTransport | undefined {
    return this.slots.find(id)?.slot.session.transport;
  }

  /** A configured context's connection ("" = current-context; sessionConnection); undefined when not configured or before `start()`. */
  contextConnection(spec: string): ReturnType<typeof sessionConnection> | undefined {
    return this.sessionOf(spec, sessionConnection);
  }

  /** The context a spec resolved to and the kubeconfig files it was read from (for a CLI pinned to it); undefined when unusable. */
  contextKubeconfig(spec: string): { contextName: string; kubeconfigFiles: readonly string[] } | undefined {
    return this.sessionOf(spec, (s) => (s.transport && !s.retired ? { contextName: s.contextName, kubeconfigFiles: s.kubeconfigFiles } : undefined));
  }

  /** What the user of an entry's context may do (undefined: not usable); read it for each question, a context switch replaces it. */
  accessReviewsOf(id: string): AccessReviewCache | undefined {
    return this.slots.find(id)?.slot.session.access;
  }

  /**
   * Where `object` (read now from entry `id`'s watch) comes from: context, server, user and cluster
   * digests, session, uid, resourceVersion. Take it where the object is read (shown, opened,
   * targeted) and write through `resolveOrigin`, never `transportOf`; undefined when not usable.
   */
  originOf(id: string, object?: KubeObject): ObjectOrigin | undefined {
    const session = this.slots.find(id)?.slot.session;
    return session && originOf(session, object);
  }

  /**
   * The connection a write of `origin` goes through now: its own session, or a live one on the
   * same context, cluster and user; else a refusal in words (the current context moved to another
   * cluster): never another cluster's connection. Resolve it for each request.
   */
  resolveOrigin(origin: ObjectOrigin): OriginResolution {
    return resolveOrigin(origin, this.sessions.values());
  }

  /** The origin of `object` read on configured context `spec` (an ad-hoc watch's); undefined when the context is unusable. */
  contextOrigin(spec: string, object?: KubeObject): ObjectOrigin | undefined {
    return this.sessionOf(spec, (s) => originOf(s, object));
  }

  /** The kubeconfig user of an entry's context (for the write journal); undefined when unknown. */
  userOf(id: string): string | undefined {
    return this.slots.find(id)?.slot.session.userName;
  }

  private sessionOf<T>(spec: string, read: (session: ContextSession) => T): T | undefined {
    const session = this.sessions.get(spec);
    return session && read(session);
  }

  /**
   * The configured context spec ("" = the current-context) of an entry; undefined for an
   * unknown id. With `watchAdHoc`, lets a consumer watch more on an entry's context.
   */
  contextSpecOf(id: string): string | undefined {
    return this.slots.find(id)?.slot.spec;
  }

  /**
   * Starts an informer outside the configuration on the connection of a configured context: a
   * single object (`fieldSelector=metadata.name=…`) of a type nobody watches, or the Events of
   * one object (`involvedObject.uid=…`), or a Service's EndpointSlices (a label selector). It shares the context's transport and backoff, is
   * restarted with the others, and ends (`ended` set, 'ended' fired) when the manager stops or
   * the context is replaced; the consumer disposes it when done. Never throws: when watching is
   * stopped or the context is unusable, the watch comes back already ended.
   */
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch {
    return this.adHoc.watch(request);
  }

  /** How many ad-hoc watches are open (asked for and not yet disposed or ended). */
  get adHocWatchCount(): number {
    return this.adHoc.count;
  }

  // ---- operations ----

  /** Reads the kubeconfig and starts resolving and watching. Starting twice does nothing. */
  start(): Promise<void> {
    return this.queue.run(async () => {
      if (this.running) return;
      this.running = true;
      await this.sync('start');
    });
  }

  /** Stops every informer, resolution, timer and file watcher, and disposes the transports. */
  stop(): Promise<void> {
    return this.queue.run(async () => {
      this.running = false;
      this.files.stop();
      await this.slots.removeAll('stopped');
      await this.adHoc.end(() => true, 'watching stopped');
      await this.definitions.stop(() => true);
      this.sessions.disposeAll();
      this.publish();
    });
  }

  dispose(): void {
    this.resumedSubscription.dispose();
    this.reachabilitySubscription.dispose();
    void this.stop();
  }

  /**
   * Applies a new configuration: informers whose (context, resource, namespace) and options are
   * unchanged keep running untouched; the others are stopped (their objects reported removed),
   * rebuilt or added.
   */
  update(config: WatchConfig): Promise<void> {
    return this.queue.run(async () => {
      this.config = normalizeConfig(config);
      if (this.running) await this.sync('configuration changed');
    });
  }

  /**
   * Re-reads the kubeconfig (F21). Contexts whose server changed, or that now resolve to another
   * context, get a new transport and new informers (the old objects are reported removed);
   * contexts whose credentials alone changed keep their informers, which relist on a new
   * transport; contexts that no longer exist are stopped and become error entries. A kubeconfig
   * that cannot be read leaves running informers on the last good configuration.
   */
  reloadKubeconfig(reason: string): Promise<void> {
    return this.queue.run(async () => {
      if (this.running) await this.sync(reason);
    });
  }

  /**
   * Restarts one entry: its informer (F19: in-flight requests aborted, relist, cache kept) while
   * discovery is asked again about its type (F39: a version that moved is followed), or its
   * resolution at once, or, for a kubeconfig or context problem, a kubeconfig reload.
   * Unknown ids are ignored.
   */
  restart(id: string, reason: string): Promise<void> {
    return this.queue.run(async () => {
      const rec = this.slots.find(id);
      if (!rec || !this.running) return;
      // The user's permissions may have changed: where the type is watched is decided again.
      if (rec.slot.type && rec.slot.scope) {
        rec.slot.session.access?.invalidate();
        this.slots.rescope(rec.slot);
      }
      if (rec.informer) {
        this.slots.recheck(rec.slot, 'restart');
        return rec.informer.restart(reason);
      }
      if (rec.slot.session.problem) return this.sync(reason);
      if (rec.denied) return this.publish();
      this.slots.startResolution(rec.slot);
      this.publish();
    });
  }

  /** Restarts every entry (see `restart`); reloads the kubeconfig first when a context has a problem. */
  restartAll(reason: string): Promise<void> {
    return this.queue.run(async () => {
      if (!this.running) return;
      if (this.sessions.anyProblem) await this.sync(reason);
      for (const session of this.sessions.values()) session.access?.invalidate();
      const restarts = [...this.slots.restart(() => true, reason), ...this.adHoc.restart(() => true, reason)];
      for (const slot of this.slots.values()) if (slot.type) this.slots.recheck(slot, 'restart');
      await Promise.all(restarts);
      this.publish();
    });
  }

  /**
   * Watches the kubeconfig files (their directories) and reloads, debounced, when one changes.
   * Follows the configured path as it changes; stopped by the returned Disposable or by `stop()`.
   */
  watchKubeconfigFiles(): Disposable {
    this.files.follow(this.config.kubeconfigPath);
    return { dispose: () => this.files.stop() };
  }

  // ---- reconciliation ----

  /**
   * Brings sessions, slots and entries in line with the configuration and the kubeconfig on
   * disk. The only place that creates or retires sessions.
   */
  private async sync(reason: string): Promise<void> {
    const files = readKubeconfigForSync(this.config.kubeconfigPath);
    const specs = this.config.contexts.length > 0 ? this.config.contexts : [''];
    // Slots and sessions the configuration no longer names.
    await this.slots.removeUnconfigured(specs, new Set(this.config.resources));
    await this.sessions.dropUnconfigured(specs);
    for (const spec of specs) await this.sessions.sync(spec, files, reason);
    this.slots.addConfigured(specs, this.config.resources, (spec) => this.sessions.get(spec));
    await this.slots.reconcileAll();
    await this.definitions.stop((session) => !this.needsDefinitions(session));
    this.files.arm(this.config.kubeconfigPath);
    this.publish();
  }

  /** Stops every informer and resolution of a session (objects reported removed), its ad-hoc watches and CRD watch. */
  private async retireSession(session: ContextSession, reason: string): Promise<void> {
    await this.slots.discardOn(session, reason);
    await this.adHoc.end((s) => s === session, reason);
    await this.definitions.stop((s) => s === session);
  }

  /** Restarts every informer of a session and retries its pending resolutions at once. */
  private async restartSession(session: ContextSession, reason: string): Promise<void> {
    const restarts = [...this.slots.restart((slot) => slot.session === session, reason), ...this.adHoc.restart((s) => s === session, reason)];
    const definitions = this.definitions.restart(session, reason);
    if (definitions) restarts.push(definitions);
    await Promise.all(restarts);
  }

  /**
   * Logs on every running watch that the process was away and its connections are being verified,
   * and re-opens every open watch from its resourceVersion: accepted again from there, the server
   * sends every change since, so the watch is current at once, where the open one would prove it
   * only with its next event or bookmark (a minute away on a quiet type).
   */
  private announceResume(awayMs: number): void {
    const at = this.clock.now();
    const why = `resumed after ${Math.round(awayMs / 1000)} s: re-opened from its resourceVersion`;
    for (const rec of this.slots.records()) {
      if (!rec.informer) continue;
      this.lifecycle.fire({ entryId: rec.id, event: { type: 'resumed', awayMs, at } });
      rec.informer.rewatch(why);
    }
  }

  /** Logs on every running watch of `clusterKey` that its cluster became unreachable or reachable again (F50). */
  private announceReachability(clusterKey: string, change: ReachabilityChange): void {
    const at = this.clock.now();
    const event = reachabilityEvent(change);
    for (const rec of this.slots.records()) if (rec.informer && rec.slot.session.clusterKey === clusterKey) this.lifecycle.fire({ entryId: rec.id, event: { ...event, at } });
  }

  // ---- custom resource definitions ----

  /** True while some slot of `session` has resolved a type that may be a custom resource. */
  private needsDefinitions(session: ContextSession): boolean {
    return this.slots.hasResolved(session, mayBeCustomResource);
  }

  private definitionChanged(session: ContextSession, name: string): void {
    const ids = this.slots.entryIdsOf(session, (type) => definitionName(type) === name);
    if (ids.length > 0) this.definitionChanges.fire(ids);
  }

  // ---- bookkeeping ----

  private dispatch(id: string, call: (h: EntryHandler) => void): void {
    this.handlers.dispatch(call, (err) =>
      this.lifecycle.fire({
        entryId: id,
        event: { type: 'handler-error', handler: 'watch manager consumer', message: errorLine(err, 'a handler threw'), at: this.clock.now() },
      }),
    );
  }

  /** Fires onDidChangeEntries with what changed since the last call, if anything did. */
  private publish(): void {
    const change = this.signatures.diff(this.slots.records());
    if (change) this.entryChanges.fire(change);
  }
}
