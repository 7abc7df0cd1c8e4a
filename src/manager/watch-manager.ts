import { clusterKeyOf, contextFingerprint } from '../cluster/context-identity';
import { UnknownResourceError } from '../cluster/discovery';
import { KubeConfigError, kubeconfigCandidates, readKubeConfigFiles, selectContext, type KubeConfigFiles } from '../cluster/kubeconfig-loader';
import { resolutionWaitEvents, resolutionWaitState, resolveWithRetry, type ResolutionWait } from '../cluster/resolve-with-retry';
import { SwitchableTransport } from '../connection/transport/switchable-transport';
import { CredentialRegistry } from '../connection/credentials/credential-registry';
import { Emitter, systemClock, type Clock, type Disposable } from '../base';
import { Informer, emptyStats, StreamingListMemory, resourceTypeName, type InformerOptions, type InformerState, type KubeObject, type KubeTransport, type TimedLifecycleEvent } from '../informer';
import { AdHocWatch, type AdHocWatchRequest } from './ad-hoc-watch';
import type { ContextSession } from './context-session';
import { DefinitionWatch, definitionName, mayBeCustomResource } from './definition-watch';
import { KubeconfigFileWatcher } from './kubeconfig-file-watcher';
import { entryId, slotKey, type EntryRecord, type ResourceSlot } from './resource-slot';
import { kubeConfigTransportFactoryWith, type TransportFactory } from '../connection/transport/transport-factory';
import { ClusterRegistry } from '../connection/registry/cluster-registry';
import type { HealthCheckTiming } from '../connection/h2/session-health-check';
import { informerOptionsKey, normalizeConfig, type WatchConfig } from './watch-config';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from './watch-entry';

/** Informer settings the configuration does not carry, applied to every informer. */
export type ExtraInformerOptions = Partial<
  Pick<
    InformerOptions,
    'pageSize' | 'minWatchTimeoutSeconds' | 'noDataGraceMs' | 'requestTimeoutMs' | 'maxRetryAfterMs' | 'backoff' | 'transform' | 'streamingList' | 'watchListProgressMs'
  >
>;

export interface WatchManagerOptions {
  /** Time for every informer, resolution retry and debounce; default the system clock. */
  clock?: Clock;
  /** Builds one transport per context; default KubeConfigTransport, sharing clusters through `clusterRegistry`. */
  transportFactory?: TransportFactory;
  /**
   * Shares reachability and wake detection among the contexts of one cluster; default a
   * registry of the manager's own (its wake detector runs while any transport is in use).
   */
  clusterRegistry?: ClusterRegistry;
  /** The HTTP/2 PING health check of the default transports; default read-idle 30 s, PING timeout 15 s. */
  healthCheck?: Partial<HealthCheckTiming>;
  informerOptions?: ExtraInformerOptions;
  /** Quiet time after a kubeconfig file changes before it is re-read; default 250 ms of wall time. */
  kubeconfigDebounceMs?: number;
  /** The editor's proxy (VS Code `http.proxy`), used where HTTPS_PROXY / HTTP_PROXY name none. */
  editorProxy?: string;
  /** The environment exec credential plugins inherit; default process.env. */
  execEnv?: NodeJS.ProcessEnv;
}

/**
 * Turns a WatchConfig into informers, one per (context, resource, namespace), and keeps them
 * matching the configuration and the kubeconfig on disk.
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
  private readonly transportFactory: TransportFactory;
  /** One credential provider per kubeconfig user, shared by every context on it (an exec plugin runs once for all). */
  private readonly credentials: CredentialRegistry;
  private readonly clusterRegistry: ClusterRegistry;
  private readonly resumedSubscription: Disposable;
  private running = false;
  private readonly sessions = new Map<string, ContextSession>();
  private readonly slots = new Map<string, ResourceSlot>();
  private handlers: EntryHandler[] = [];
  private readonly entryChanges = new Emitter<EntriesChange>();
  private readonly lifecycle = new Emitter<{ entryId: string; event: TimedLifecycleEvent }>();
  private readonly removals = new Emitter<ObjectsRemoved>();
  /** CRD informers, one per session that watches a type that may be custom. */
  private readonly definitions = new Map<ContextSession, DefinitionWatch>();
  private readonly definitionChanges = new Emitter<string[]>();
  private signatures = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private serial = 0;
  private fileWatcher: KubeconfigFileWatcher | undefined;
  private watchedFiles = '';
  private watchingFiles = false;
  /** Informers outside the configuration (descriptions), with the session they run on. */
  private readonly adHoc = new Map<AdHocWatch, { session: ContextSession; resolving: AbortController }>();

  constructor(
    config: WatchConfig,
    private readonly options: WatchManagerOptions = {},
  ) {
    this.config = normalizeConfig(config);
    this.clock = options.clock ?? systemClock;
    this.clusterRegistry = options.clusterRegistry ?? new ClusterRegistry();
    this.transportFactory = options.transportFactory ?? kubeConfigTransportFactoryWith(this.clusterRegistry, { healthCheck: options.healthCheck, clock: this.clock });
    this.resumedSubscription = this.clusterRegistry.onResumed((awayMs) => this.announceResume(awayMs));
    this.credentials = new CredentialRegistry({ clock: this.clock, env: options.execEnv });
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

  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable {
    return this.removals.on(listener);
  }

  /** Receives the cache changes of every informer, present and future. A throwing handler is isolated. */
  addHandler(handler: EntryHandler): Disposable {
    this.handlers = [...this.handlers, handler];
    return { dispose: () => (this.handlers = this.handlers.filter((h) => h !== handler)) };
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
    const rec = this.findRecord(id);
    const type = rec?.slot.type;
    if (!rec || !type || !mayBeCustomResource(type)) return undefined;
    return this.definitions.get(rec.slot.session)?.get(definitionName(type));
  }

  entries(): WatchEntry[] {
    const out: WatchEntry[] = [];
    for (const slot of this.slots.values()) for (const rec of slot.entries.values()) out.push(this.describe(rec));
    return out;
  }

  entry(id: string): WatchEntry | undefined {
    const rec = this.findRecord(id);
    return rec && this.describe(rec);
  }

  /**
   * The transport of an entry's context, shared with its watches (same backoff-friendly
   * connection, health check and credentials); undefined when the entry or its session is not
   * usable. Read it for each request: a context switch replaces it.
   */
  transportOf(id: string): KubeTransport | undefined {
    return this.findRecord(id)?.slot.session.transport;
  }

  /**
   * The configured context spec ("" = the current-context) of an entry; undefined for an
   * unknown id. With `watchAdHoc`, lets a consumer watch more on an entry's context.
   */
  contextSpecOf(id: string): string | undefined {
    return this.findRecord(id)?.slot.spec;
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
    const watch = new AdHocWatch(request, this.clock.now());
    const session = this.sessions.get(request.spec);
    const transport = session?.transport;
    if (!this.running || !session || !transport) {
      watch.detach(this.running ? (session?.problem?.message ?? 'the context is not configured') : 'watching is stopped');
      return watch;
    }
    const resolving = new AbortController();
    this.adHoc.set(watch, { session, resolving });
    watch.onDispose = () => this.stopAdHoc(watch, 'closed');
    const maxMs = this.config.maxBackoffMs ?? this.options.informerOptions?.backoff?.maxMs;
    const typed =
      typeof request.type === 'string'
        ? resolveWithRetry(transport, request.type, {
            clock: this.clock,
            signal: resolving.signal,
            backoff: { ...this.options.informerOptions?.backoff, ...(maxMs ? { maxMs } : {}) },
            attemptTimeoutMs: this.options.informerOptions?.requestTimeoutMs,
            onWaiting: (wait) => watch.waiting(wait.reason),
          })
        : Promise.resolve(request.type);
    typed.then(
      (type) => {
        if (resolving.signal.aborted || !this.adHoc.has(watch) || !this.running) return;
        watch.type = type;
        watch.problem = undefined;
        const extra = this.options.informerOptions ?? {};
        const informer = new Informer({
          ...extra,
          transport,
          type,
          namespace: request.namespace || undefined,
          fieldSelector: request.fieldSelector,
          labelSelector: request.labelSelector,
          streamingList: this.config.streamingList ?? extra.streamingList,
          streamingListMemory: session.streamingListMemory,
          backoff: maxMs ? { ...extra.backoff, maxMs } : extra.backoff,
          clock: this.clock,
          name: `${labelOf(session.contextName || session.spec, resourceTypeName(type), request.namespace ?? '')} for ${request.purpose}`,
        });
        watch.attach(informer);
        informer.start();
      },
      () => undefined, // aborted: the watch was disposed or ended
    );
    return watch;
  }

  /** How many ad-hoc watches are open (asked for and not yet disposed or ended). */
  get adHocWatchCount(): number {
    return this.adHoc.size;
  }

  // ---- operations ----

  /** Reads the kubeconfig and starts resolving and watching. Starting twice does nothing. */
  start(): Promise<void> {
    return this.enqueue(async () => {
      if (this.running) return;
      this.running = true;
      await this.sync('start');
    });
  }

  /** Stops every informer, resolution, timer and file watcher, and disposes the transports. */
  stop(): Promise<void> {
    return this.enqueue(async () => {
      this.running = false;
      this.unwatchFiles();
      this.watchingFiles = false;
      await Promise.all([...this.slots.values()].map((slot) => this.removeSlot(slot, 'stopped')));
      await this.endAdHoc(() => true, 'watching stopped');
      await this.stopDefinitions(() => true);
      for (const session of this.sessions.values()) session.transport?.dispose();
      this.sessions.clear();
      this.credentials.dispose();
      this.publish();
    });
  }

  dispose(): void {
    this.resumedSubscription.dispose();
    void this.stop();
  }

  /** Logs on every running watch that the process was away and its connections are being verified. */
  private announceResume(awayMs: number): void {
    const at = this.clock.now();
    for (const slot of this.slots.values())
      for (const rec of slot.entries.values()) if (rec.informer) this.lifecycle.fire({ entryId: rec.id, event: { type: 'resumed', awayMs, at } });
  }

  /**
   * Applies a new configuration: informers whose (context, resource, namespace) and options are
   * unchanged keep running untouched; the others are stopped (their objects reported removed),
   * rebuilt or added.
   */
  update(config: WatchConfig): Promise<void> {
    return this.enqueue(async () => {
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
    return this.enqueue(async () => {
      if (this.running) await this.sync(reason);
    });
  }

  /**
   * Restarts one entry: its informer (F19: in-flight requests aborted, relist, cache kept), or its
   * resolution at once, or, for a kubeconfig or context problem, a kubeconfig reload.
   * Unknown ids are ignored.
   */
  restart(id: string, reason: string): Promise<void> {
    return this.enqueue(async () => {
      const rec = this.findRecord(id);
      if (!rec || !this.running) return;
      if (rec.informer) return rec.informer.restart(reason);
      if (rec.slot.session.problem) return this.sync(reason);
      this.startResolution(rec.slot);
      this.publish();
    });
  }

  /** Restarts every entry (see `restart`); reloads the kubeconfig first when a context has a problem. */
  restartAll(reason: string): Promise<void> {
    return this.enqueue(async () => {
      if (!this.running) return;
      if ([...this.sessions.values()].some((s) => s.problem)) await this.sync(reason);
      const restarts: Promise<void>[] = [];
      for (const slot of this.slots.values()) {
        if (!slot.session.problem && !slot.type) this.startResolution(slot);
        for (const rec of slot.entries.values()) if (rec.informer) restarts.push(rec.informer.restart(reason));
      }
      for (const watch of this.adHoc.keys()) if (watch.informer) restarts.push(watch.informer.restart(reason));
      await Promise.all(restarts);
      this.publish();
    });
  }

  /**
   * Watches the kubeconfig files (their directories) and reloads, debounced, when one changes.
   * Follows the configured path as it changes; stopped by the returned Disposable or by `stop()`.
   */
  watchKubeconfigFiles(): Disposable {
    this.watchingFiles = true;
    this.armFileWatcher();
    return {
      dispose: () => {
        this.watchingFiles = false;
        this.unwatchFiles();
      },
    };
  }

  // ---- reconciliation ----

  /**
   * Brings sessions, slots and entries in line with the configuration and the kubeconfig on
   * disk. The only place that creates or retires sessions.
   */
  private async sync(reason: string): Promise<void> {
    let files: KubeConfigFiles | KubeConfigError;
    try {
      files = readKubeConfigFiles({ path: this.config.kubeconfigPath });
      // A kubeconfig with no context at all is most likely caught mid-write (kubectl truncates,
      // then writes): treat it as unreadable rather than as every context removed.
      if (files.kc.getContexts().length === 0) throw new KubeConfigError(`the kubeconfig in ${files.files.join(', ')} defines no contexts`);
    } catch (err) {
      files = err instanceof KubeConfigError ? err : new KubeConfigError('the kubeconfig cannot be read');
    }
    const specs = this.config.contexts.length > 0 ? this.config.contexts : [''];
    const resources = new Set(this.config.resources);
    const retiring: Promise<void>[] = [];

    // Slots and sessions the configuration no longer names.
    for (const slot of [...this.slots.values()]) {
      if (!specs.includes(slot.spec) || !resources.has(slot.resource)) retiring.push(this.removeSlot(slot, 'no longer configured'));
    }
    await Promise.all(retiring);
    for (const [spec, session] of [...this.sessions]) {
      if (specs.includes(spec)) continue;
      await this.endAdHoc((s) => s === session, 'context no longer configured');
      await this.stopDefinitions((s) => s === session);
      session.transport?.dispose();
      this.sessions.delete(spec);
    }

    for (const spec of specs) await this.syncSession(spec, files, reason);

    for (const spec of specs) {
      const session = this.sessions.get(spec);
      if (!session) continue;
      for (const resource of this.config.resources) {
        const key = slotKey(spec, resource);
        if (this.slots.has(key)) continue;
        const slot: ResourceSlot = { key, spec, resource, session, since: this.clock.now(), entries: new Map() };
        this.slots.set(key, slot);
        this.startResolution(slot);
      }
    }
    await Promise.all([...this.slots.values()].map((slot) => this.reconcileSlot(slot)));
    await this.stopDefinitions((session) => !this.needsDefinitions(session));
    this.armFileWatcher();
    this.publish();
  }

  /** Creates, keeps, rotates or replaces the session of one configured context. */
  private async syncSession(spec: string, files: KubeConfigFiles | KubeConfigError, reason: string): Promise<void> {
    const old = this.sessions.get(spec);
    if (files instanceof KubeConfigError) {
      if (old && !old.problem) {
        old.reloadProblem = `${files.message} (still using the configuration read before)`;
      } else {
        this.setSession(spec, this.failedSession(spec, files.message, 'kubeconfig'));
      }
      return;
    }
    let selected: ReturnType<typeof selectContext>;
    try {
      selected = selectContext(files.kc, spec || undefined, files.files);
    } catch (err) {
      const message = err instanceof KubeConfigError ? err.message : 'the context cannot be used';
      if (old && !old.problem) await this.retireSession(old, `${reason}: ${message}`);
      this.setSession(spec, this.failedSession(spec, message, 'context'));
      return;
    }
    const fingerprint = contextFingerprint(selected.kc);
    const target = { contextName: selected.contextName, clusterKey: clusterKeyOf(selected.kc), kubeConfig: selected.kc, credentials: this.credentials, editorProxy: this.options.editorProxy };
    if (old?.transport && old.contextName === selected.contextName && old.fingerprint?.cluster === fingerprint.cluster) {
      old.reloadProblem = undefined;
      if (old.fingerprint.user === fingerprint.user) return;
      // Same cluster, new credentials: keep the informers and their caches, relist on a new transport.
      let next;
      try {
        next = this.transportFactory(target);
      } catch (err) {
        await this.retireSession(old, `${reason}: the context cannot be used`);
        this.setSession(spec, this.failedSession(spec, errorLine(err, 'the context cannot be used'), 'context'));
        return;
      }
      const previous = old.transport.swap(next);
      old.fingerprint = fingerprint;
      await this.restartSession(old, 'credentials changed in the kubeconfig');
      previous.dispose();
      return;
    }
    // New, switched to another context, or another cluster: start over on a new transport.
    if (old && !old.problem) await this.retireSession(old, `${reason}: ${describeSwitch(old, selected.contextName)}`);
    try {
      const transport = new SwitchableTransport(this.transportFactory(target));
      const streamingListMemory = new StreamingListMemory(this.clock);
      this.setSession(spec, { spec, contextName: selected.contextName, transport, streamingListMemory, fingerprint });
    } catch (err) {
      this.setSession(spec, this.failedSession(spec, errorLine(err, 'the context cannot be used'), 'context'));
    }
  }

  private failedSession(spec: string, message: string, kind: 'kubeconfig' | 'context'): ContextSession {
    return { spec, contextName: spec, problem: { message, kind, since: this.clock.now() } };
  }

  /** Installs a session and rebinds its slots, which must resolve again on it. */
  private setSession(spec: string, session: ContextSession): void {
    this.sessions.set(spec, session);
    for (const slot of this.slots.values()) {
      if (slot.spec !== spec) continue;
      slot.session = session;
      slot.type = undefined;
      slot.wait = undefined;
      slot.resolving?.abort();
      slot.resolving = undefined;
      slot.since = this.clock.now();
      if (!session.problem) this.startResolution(slot);
    }
  }

  /** Stops every informer and resolution of a session (objects reported removed) and disposes its transport. */
  private async retireSession(session: ContextSession, reason: string): Promise<void> {
    const slots = [...this.slots.values()].filter((s) => s.session === session);
    for (const slot of slots) {
      slot.resolving?.abort();
      slot.resolving = undefined;
    }
    await Promise.all(slots.flatMap((slot) => [...slot.entries.values()].map((rec) => this.discardInformer(rec, reason))));
    await this.endAdHoc((s) => s === session, reason);
    await this.stopDefinitions((s) => s === session);
    session.transport?.dispose();
  }

  /** Restarts every informer of a session and retries its pending resolutions at once. */
  private async restartSession(session: ContextSession, reason: string): Promise<void> {
    const restarts: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      if (slot.session !== session) continue;
      if (!slot.type) this.startResolution(slot);
      for (const rec of slot.entries.values()) if (rec.informer) restarts.push(rec.informer.restart(reason));
    }
    for (const [watch, owner] of this.adHoc) if (owner.session === session && watch.informer) restarts.push(watch.informer.restart(reason));
    const definitions = this.definitions.get(session);
    if (definitions) restarts.push(definitions.restart(reason));
    await Promise.all(restarts);
  }

  // ---- ad-hoc watches ----

  /** Ends the ad-hoc watches on the sessions `which` picks: stopped, forgotten, their consumers told. */
  private async endAdHoc(which: (session: ContextSession) => boolean, why: string): Promise<void> {
    await Promise.all([...this.adHoc].filter(([, owner]) => which(owner.session)).map(([watch]) => this.stopAdHoc(watch, why)));
  }

  private async stopAdHoc(watch: AdHocWatch, why: string): Promise<void> {
    const owner = this.adHoc.get(watch);
    this.adHoc.delete(watch);
    owner?.resolving.abort();
    await watch.detach(why, this.clock.now())?.stop();
  }

  // ---- custom resource definitions ----

  /** True while some slot of `session` has resolved a type that may be a custom resource. */
  private needsDefinitions(session: ContextSession): boolean {
    for (const slot of this.slots.values()) if (slot.session === session && slot.type && mayBeCustomResource(slot.type)) return true;
    return false;
  }

  /** Starts watching `session`'s CRDs, once, when one of its slots resolved to a type that may be custom. */
  private ensureDefinitions(session: ContextSession): void {
    const transport = session.transport;
    if (!transport || !this.running || this.definitions.has(session) || !this.needsDefinitions(session)) return;
    const watch = new DefinitionWatch({
      transport,
      clock: this.clock,
      name: labelOf(session.contextName || session.spec, 'customresourcedefinitions.apiextensions.k8s.io', ''),
      requestTimeoutMs: this.options.informerOptions?.requestTimeoutMs,
      backoff: this.options.informerOptions?.backoff,
      onChange: (name) => this.definitionChanged(session, name),
    });
    this.definitions.set(session, watch);
    watch.start();
  }

  /** Stops (and forgets) the CRD informers of the sessions `which` picks. */
  private async stopDefinitions(which: (session: ContextSession) => boolean): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const [session, watch] of [...this.definitions]) {
      if (!which(session)) continue;
      this.definitions.delete(session);
      stopping.push(watch.stop());
    }
    await Promise.all(stopping);
  }

  private definitionChanged(session: ContextSession, name: string): void {
    const ids: string[] = [];
    for (const slot of this.slots.values()) {
      if (slot.session !== session || !slot.type || definitionName(slot.type) !== name) continue;
      ids.push(...slot.entries.keys());
    }
    if (ids.length > 0) this.definitionChanges.fire(ids);
  }

  /** Stops a slot's resolution and entries and forgets it. */
  private async removeSlot(slot: ResourceSlot, reason: string): Promise<void> {
    slot.resolving?.abort();
    slot.resolving = undefined;
    this.slots.delete(slot.key);
    await Promise.all([...slot.entries.values()].map((rec) => this.discardInformer(rec, reason)));
    slot.entries.clear();
  }

  /**
   * Makes a slot's entries match the configuration: one per namespace (one '' entry for a
   * cluster-scoped type or all namespaces); each with a running informer built from the current
   * options once the type is known.
   */
  private async reconcileSlot(slot: ResourceSlot): Promise<void> {
    const namespaced = slot.type ? slot.type.namespaced : true;
    const wanted = namespaced && this.config.namespaces.length > 0 ? this.config.namespaces : [''];
    const optionsKey = informerOptionsKey(this.config);
    const stale: Promise<void>[] = [];
    for (const rec of [...slot.entries.values()]) {
      if (wanted.includes(rec.namespace)) {
        if (rec.informer && rec.optionsKey !== optionsKey) {
          // Logged like any restart, so the log says why the watch starts over.
          const event = { type: 'restart' as const, reason: 'restart requested by a settings change (selectors or timeouts)', at: this.clock.now() };
          this.lifecycle.fire({ entryId: rec.id, event });
          stale.push(this.discardInformer(rec, 'selectors or timeouts changed'));
        }
        continue;
      }
      slot.entries.delete(rec.id);
      stale.push(this.discardInformer(rec, `namespace ${rec.namespace || '(all)'} no longer configured`));
    }
    await Promise.all(stale);
    for (const namespace of wanted) {
      const id = entryId(slot.spec, slot.resource, namespace);
      let rec = slot.entries.get(id);
      if (!rec) {
        rec = { id, slot, namespace, serial: 0, subscriptions: [] };
        slot.entries.set(id, rec);
      }
      if (!rec.informer && slot.type && slot.session.transport && this.running) this.startInformer(rec, optionsKey);
    }
  }

  private startInformer(rec: EntryRecord, optionsKey: string): void {
    const { slot } = rec;
    const type = slot.type;
    const transport = slot.session.transport;
    if (!type || !transport) return;
    const extra = this.options.informerOptions ?? {};
    const informer = new Informer({
      ...extra,
      transport,
      type,
      namespace: rec.namespace || undefined,
      labelSelector: this.config.labelSelector,
      fieldSelector: this.config.fieldSelector,
      timeoutSeconds: this.config.timeoutSeconds,
      streamingList: this.config.streamingList ?? extra.streamingList,
      streamingListMemory: slot.session.streamingListMemory,
      backoff: this.config.maxBackoffMs ? { ...extra.backoff, maxMs: this.config.maxBackoffMs } : extra.backoff,
      clock: this.clock,
      name: labelOf(slot.session.contextName || slot.spec, resourceTypeName(type), rec.namespace),
    });
    const id = rec.id;
    rec.subscriptions = [
      informer.addHandler({
        name: 'watch manager',
        onAdd: (obj) => this.dispatch(id, (h) => h.onAdd?.(id, obj)),
        onUpdate: (oldObj, newObj) => this.dispatch(id, (h) => h.onUpdate?.(id, oldObj, newObj)),
        onDelete: (obj, unknown) => this.dispatch(id, (h) => h.onDelete?.(id, obj, unknown)),
      }),
      informer.onLifecycle((event) => this.lifecycle.fire({ entryId: id, event })),
      informer.onStateChange(() => this.publish()),
    ];
    rec.informer = informer;
    rec.optionsKey = optionsKey;
    rec.serial = ++this.serial;
    informer.start();
  }

  /** Stops an entry's informer, then reports its objects removed. The entry itself stays. */
  private async discardInformer(rec: EntryRecord, reason: string): Promise<void> {
    const informer = rec.informer;
    if (!informer) return;
    rec.informer = undefined;
    rec.optionsKey = undefined;
    await informer.stop();
    for (const s of rec.subscriptions) s.dispose();
    rec.subscriptions = [];
    const objects = informer.list();
    informer.store.clear();
    if (objects.length > 0) this.removals.fire({ entryId: rec.id, objects, reason });
  }

  private dispatch(id: string, call: (h: EntryHandler) => void): void {
    for (const h of this.handlers) {
      try {
        call(h);
      } catch (err) {
        this.lifecycle.fire({
          entryId: id,
          event: { type: 'handler-error', handler: 'watch manager consumer', message: errorLine(err, 'a handler threw'), at: this.clock.now() },
        });
      }
    }
  }

  // ---- resolution ----

  /** (Re)starts resolving a slot's type on its session; the result is applied through the queue. */
  private startResolution(slot: ResourceSlot): void {
    slot.resolving?.abort();
    slot.resolving = undefined;
    const transport = slot.session.transport;
    if (!transport || !this.running) return;
    const ctl = new AbortController();
    slot.resolving = ctl;
    slot.wait = undefined;
    slot.since = this.clock.now();
    const maxMs = this.config.maxBackoffMs ?? this.options.informerOptions?.backoff?.maxMs;
    resolveWithRetry(transport, slot.resource, {
      clock: this.clock,
      signal: ctl.signal,
      backoff: { ...this.options.informerOptions?.backoff, ...(maxMs ? { maxMs } : {}) },
      attemptTimeoutMs: this.options.informerOptions?.requestTimeoutMs,
      onWaiting: (wait) => {
        if (slot.resolving !== ctl) return;
        this.resolutionWaiting(slot, wait);
      },
    }).then(
      (type) =>
        this.enqueue(async () => {
          if (slot.resolving !== ctl || this.slots.get(slot.key) !== slot || !this.running) return;
          slot.resolving = undefined;
          slot.wait = undefined;
          slot.type = type;
          await this.reconcileSlot(slot);
          this.ensureDefinitions(slot.session);
          this.publish();
        }),
      () => undefined, // only an abort ends the loop without a type: a newer resolution or a stop owns the slot
    );
  }

  private resolutionWaiting(slot: ResourceSlot, wait: ResolutionWait): void {
    const at = this.clock.now();
    const state = resolutionWaitState(wait, at);
    const events = resolutionWaitEvents(wait, at);
    slot.wait = { state, message: wait.reason, kind: wait.error instanceof UnknownResourceError ? 'unknown-resource' : 'discovery' };
    for (const rec of slot.entries.values()) for (const event of events) this.lifecycle.fire({ entryId: rec.id, event });
    this.publish();
  }

  // ---- kubeconfig files ----

  private armFileWatcher(): void {
    if (!this.watchingFiles) return;
    const files = kubeconfigCandidates({ path: this.config.kubeconfigPath }).files;
    const key = files.join('\n');
    if (this.fileWatcher && key === this.watchedFiles) return;
    this.unwatchFiles();
    this.watchedFiles = key;
    this.fileWatcher = new KubeconfigFileWatcher(
      files,
      () => void this.reloadKubeconfig('kubeconfig changed on disk').catch(() => undefined),
      this.options.kubeconfigDebounceMs,
    );
  }

  private unwatchFiles(): void {
    this.fileWatcher?.dispose();
    this.fileWatcher = undefined;
    this.watchedFiles = '';
  }

  // ---- bookkeeping ----

  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private findRecord(id: string): EntryRecord | undefined {
    for (const slot of this.slots.values()) {
      const rec = slot.entries.get(id);
      if (rec) return rec;
    }
    return undefined;
  }

  private describe(rec: EntryRecord): WatchEntry {
    const { slot } = rec;
    const session = slot.session;
    const context = session.contextName;
    const label = labelOf(context || slot.spec, slot.type ? resourceTypeName(slot.type) : slot.resource, rec.namespace);
    const protocol = session.transport?.protocol;
    const base = { id: rec.id, context, resource: slot.resource, type: slot.type, namespace: rec.namespace, label, ...(protocol ? { protocol } : {}) };
    if (rec.informer) {
      const problem = session.reloadProblem;
      return { ...base, informer: rec.informer, state: rec.informer.state, stats: rec.informer.stats, ...(problem ? { error: problem, errorKind: 'kubeconfig' } : {}) };
    }
    if (session.problem) {
      const state: InformerState = { phase: 'stopped', reason: session.problem.message, since: session.problem.since, synced: false };
      return { ...base, state, stats: emptyStats(), error: session.problem.message, errorKind: session.problem.kind };
    }
    if (slot.wait) return { ...base, state: slot.wait.state, stats: emptyStats(), error: slot.wait.message, errorKind: slot.wait.kind };
    const state: InformerState = { phase: 'connecting', reason: 'resolving the resource type', since: slot.since, synced: false };
    return { ...base, state, stats: emptyStats() };
  }

  /** Fires onDidChangeEntries with what changed since the last call, if anything did. */
  private publish(): void {
    const next = new Map<string, string>();
    for (const slot of this.slots.values()) {
      for (const rec of slot.entries.values()) {
        const e = this.describe(rec);
        next.set(rec.id, JSON.stringify([rec.serial, e.context, e.type && resourceTypeName(e.type), e.state.phase, e.state.reason, e.state.nextRetryAt, e.state.synced, e.error]));
      }
    }
    const change: EntriesChange = { added: [], removed: [], changed: [] };
    for (const [id, sig] of next) {
      const before = this.signatures.get(id);
      if (before === undefined) change.added.push(id);
      else if (before !== sig) change.changed.push(id);
    }
    for (const id of this.signatures.keys()) if (!next.has(id)) change.removed.push(id);
    this.signatures = next;
    if (change.added.length + change.removed.length + change.changed.length > 0) this.entryChanges.fire(change);
  }
}

/** `kind-dev/pods in default`; just `pods in default` while the context is unknown (no kubeconfig). */
function labelOf(context: string, resource: string, namespace: string): string {
  return `${context ? `${context}/` : ''}${resource}${namespace ? ` in ${namespace}` : ''}`;
}

function describeSwitch(old: ContextSession, contextName: string): string {
  return old.contextName !== contextName ? `switched from context "${old.contextName}" to "${contextName}"` : `the server of context "${contextName}" changed`;
}

function errorLine(err: unknown, fallback: string): string {
  const message = err instanceof Error ? err.message : '';
  return message.split('\n')[0] || fallback;
}

