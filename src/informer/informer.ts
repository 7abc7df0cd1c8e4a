import { Backoff, defaultBackoff, type BackoffOptions } from '../base/backoff';
import { systemClock, type Clock, type TimerHandle } from '../base/clock';
import { Emitter, type Disposable } from '../base/disposable';
import { emptyStats, type InformerPhase, type InformerState, type InformerStats } from './informer-state';
import { keyOf, type KubeObject } from './kube-object';
import type { LifecycleEvent, TimedLifecycleEvent } from './lifecycle-event';
import type { ListPreview } from './list-preview';
import { LIST_PROGRESS_MS, ListProgress } from './list-progress';
import { Reflector, type ReflectorHost } from './reflector';
import { resourceTypeName, type ResourceType } from './resource-type';
import { Store, type StoreListener } from './store';
import { StreamingListMemory, type StreamingListMode } from './streaming-list-memory';
import { WATCH_LIST_PROGRESS_MS } from './watch-list';
import { dropManagedFields, type Transform } from './transform';
import type { KubeTransport } from './transport';

/** Callbacks for cache changes. Every method is optional; a throwing handler is isolated. */
export interface InformerHandler {
  /** Shown in the log when the handler throws. */
  name?: string;
  onAdd?(obj: KubeObject): void;
  onUpdate?(oldObj: KubeObject, newObj: KubeObject): void;
  /** `finalStateUnknown`: deleted while we were away; `obj` is the last state we saw. */
  onDelete?(obj: KubeObject, finalStateUnknown: boolean): void;
}

export interface InformerOptions {
  transport: KubeTransport;
  type: ResourceType;
  /** Watch one namespace; omitted = all namespaces (or a cluster-scoped type). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per list page (default 500; 0 = no pagination). */
  pageSize?: number;
  /** A fixed watch timeoutSeconds. Default: drawn from [min, 2·min) for every watch. */
  timeoutSeconds?: number;
  /** Default 300 (client-go's 5 minutes). */
  minWatchTimeoutSeconds?: number;
  /** How long past the watch timeout a silent stream counts as half-open; default 30 s. */
  noDataGraceMs?: number;
  /** Deadline for one list page or a watch's response headers; default 60 s. */
  requestTimeoutMs?: number;
  /** Retry-After is honoured up to this bound; default 120 s. */
  maxRetryAfterMs?: number;
  backoff?: Partial<BackoffOptions>;
  /** Applied to every object before caching; default drops managedFields. */
  transform?: Transform;
  clock?: Clock;
  /** How lists are made: 'auto' (default: streaming list, falling back to LIST), 'always', 'never'. */
  streamingList?: StreamingListMode;
  /**
   * The cluster's memory of group/versions without the streaming list; pass one per cluster so
   * that its informers share it. Default: one of the informer's own.
   */
  streamingListMemory?: StreamingListMemory;
  /** Time without an event before a streaming list's bookmark after which it is given up; default 10 s. */
  watchListProgressMs?: number;
  /** Only metadata travels: lists and watches ask for PartialObjectMetadata (labels, not payloads). */
  metadataOnly?: boolean;
  /** Least clock time between two announcements of a growing list preview (`onListProgress`); default 500 ms. */
  listProgressMs?: number;
  /** A label for logs, for example `context/pods`. */
  name?: string;
  /**
   * Objects to start from, cached by an informer of the same objects through another version of
   * their type (F39): the first list reports only what differs, so handlers see no net deletion.
   */
  initialObjects?: Iterable<KubeObject>;
}

/**
 * Keeps a cache of one resource type true through every way a watch can fail (docs/fault-matrix.md):
 * paginated list, watch with bookmarks, relist on expiry, jittered backoff, half-open deadline,
 * uid-aware deltas. It never stops by itself; only `stop()` stops it.
 */
export class Informer implements ReflectorHost, StoreListener {
  readonly name: string;
  readonly store: Store;
  readonly stats: InformerStats = emptyStats();
  private readonly clock: Clock;
  private readonly reflector: Reflector;
  private readonly lifecycle = new Emitter<TimedLifecycleEvent>();
  private readonly stateChanges = new Emitter<InformerState>();
  private handlers: InformerHandler[] = [];
  private currentState: InformerState;
  private run: { ctl: AbortController; done: Promise<void> } | undefined;
  /**
   * Counts stop() and restart() calls: a restart starts again only if no stop (or later restart)
   * came while it waited for the old run to end, so a stop during a restart is final (F42).
   */
  private intent = 0;
  private syncWaiters: ((synced: boolean) => void)[] = [];
  private readonly progress: ListProgress;

  constructor(readonly options: InformerOptions) {
    this.clock = options.clock ?? systemClock;
    this.name = options.name ?? resourceTypeName(options.type) + (options.namespace ? ` in ${options.namespace}` : '');
    this.store = new Store(this);
    if (options.initialObjects) {
      this.store.adopt(options.initialObjects);
      this.stats.objects = this.store.size;
    }
    this.currentState = { phase: 'stopped', since: this.clock.now(), synced: false };
    this.progress = new ListProgress(this.clock, options.listProgressMs ?? LIST_PROGRESS_MS);
    this.reflector = new Reflector(this, {
      transport: options.transport,
      type: options.type,
      namespace: options.type.namespaced ? options.namespace : undefined,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      pageSize: options.pageSize ?? 500,
      timeoutSeconds: options.timeoutSeconds,
      minWatchTimeoutSeconds: options.minWatchTimeoutSeconds ?? 300,
      noDataGraceMs: options.noDataGraceMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      transform: options.transform ?? dropManagedFields,
      clock: this.clock,
      backoff: new Backoff(this.clock, { ...defaultBackoff, ...options.backoff }),
      streamingList: options.streamingList ?? 'auto',
      streamingListMemory: options.streamingListMemory ?? new StreamingListMemory(this.clock),
      watchListProgressMs: options.watchListProgressMs ?? WATCH_LIST_PROGRESS_MS,
      metadataOnly: options.metadataOnly,
    });
  }

  get state(): InformerState {
    return this.currentState;
  }

  get resourceVersion(): string {
    return this.reflector.lastResourceVersion;
  }

  get isRunning(): boolean {
    return this.run !== undefined;
  }

  /** The cached objects (live view; do not mutate). */
  list(): KubeObject[] {
    return [...this.store.values()];
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.store.get(namespace ? `${namespace}/${name}` : name);
  }

  /**
   * What the first list has received so far, while it is in progress: only while the informer
   * has never synced and its store is empty (a relist keeps showing the store). A partial list,
   * never the cluster's state; read-only, live, gone once the list completes or fails.
   */
  get listPreview(): ListPreview | undefined {
    return this.progress.preview;
  }

  /**
   * Fires as the list preview grows (at most once per `listProgressMs` of clock time) and once
   * with `undefined` when it ends: after the complete list reached the store and handlers (so a
   * view never goes from the preview to nothing), or when the list failed.
   */
  onListProgress(listener: (preview: ListPreview | undefined) => void): Disposable {
    return this.progress.on(listener);
  }

  addHandler(handler: InformerHandler): Disposable {
    this.handlers = [...this.handlers, handler];
    return { dispose: () => (this.handlers = this.handlers.filter((h) => h !== handler)) };
  }

  onLifecycle(listener: (event: TimedLifecycleEvent) => void): Disposable {
    return this.lifecycle.on(listener);
  }

  onStateChange(listener: (state: InformerState) => void): Disposable {
    return this.stateChanges.on(listener);
  }

  /** Starts listing and watching. Starting a running informer does nothing. */
  start(): void {
    if (this.run) return;
    const ctl = new AbortController();
    this.run = { ctl, done: this.reflector.run(ctl.signal) };
  }

  /**
   * Stops every request and timer. Resolves once nothing is left running. Final: a restart that
   * was waiting for its old run when stop() came does not start again (F42).
   */
  async stop(): Promise<void> {
    this.intent++;
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    run.ctl.abort();
    await run.done;
    this.progress.end();
    this.setPhase('stopped');
    this.emit({ type: 'stopped' });
    this.resolveSyncWaiters(false);
  }

  /**
   * Aborts whatever is in flight (list, watch, backoff wait) and starts again with a full list.
   * The cache is kept, so the relist reports only real differences. A stopped informer is
   * started again: restart means "be running, from a fresh list".
   */
  async restart(reason = 'restart requested'): Promise<void> {
    this.emit({ type: 'restart', reason });
    const intent = ++this.intent;
    // The old run stays `run` until it has ended, so a stop() meanwhile waits for it too.
    const run = this.run;
    if (run) {
      run.ctl.abort();
      await run.done;
    }
    // A stop() (or a later restart) came while the old run ended: it decides what happens now.
    if (intent !== this.intent) return;
    if (this.run === run) this.run = undefined;
    this.start();
  }

  /**
   * Re-opens the open watch from its resourceVersion at once, without a relist or a backoff (after
   * a resume: the server then sends every change since, so the watch is current at once). Does
   * nothing while listing, waiting or stopped. True when a watch was open.
   */
  rewatch(why: string): boolean {
    return this.run !== undefined && this.reflector.rewatch(why);
  }

  /**
   * Resolves true once a complete list has been cached, or false after `timeoutMs` (on the
   * informer's clock). Never stops anything.
   */
  waitForSync(timeoutMs: number): Promise<boolean> {
    if (this.currentState.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: TimerHandle | undefined;
      const waiter = (synced: boolean) => {
        timer?.cancel();
        resolve(synced);
      };
      this.syncWaiters.push(waiter);
      timer = this.clock.setTimer(() => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
    });
  }

  // ---- ReflectorHost ----

  setPhase(phase: InformerPhase, reason?: string, nextRetryAt?: number): void {
    const s = this.currentState;
    if (s.phase === phase && s.reason === reason && s.nextRetryAt === nextRetryAt) return;
    this.currentState = { phase, reason, since: this.clock.now(), nextRetryAt, synced: s.synced };
    this.stateChanges.fire(this.currentState);
    this.emit({ type: 'state', state: this.currentState });
  }

  markSynced(resourceVersion: string): void {
    this.stats.objects = this.store.size;
    if (!this.currentState.synced) this.currentState = { ...this.currentState, synced: true };
    this.emit({ type: 'synced', resourceVersion, objects: this.store.size });
    this.resolveSyncWaiters(true);
  }

  beginListPreview(preview: ListPreview): void {
    if (!this.currentState.synced && this.store.size === 0) this.progress.begin(preview);
  }

  listGrew(): void {
    this.progress.grew();
  }

  endListPreview(): void {
    this.progress.end();
  }

  emit(event: LifecycleEvent): void {
    if (this.lifecycle.size === 0) return;
    this.lifecycle.fire({ ...event, at: this.clock.now() });
  }

  // ---- StoreListener: dispatch to handlers, each isolated (F18) ----

  add(obj: KubeObject): void {
    this.stats.events++;
    this.stats.objects = this.store.size;
    for (const h of this.handlers) {
      if (!h.onAdd) continue;
      try {
        h.onAdd(obj);
      } catch (err) {
        this.handlerFailed(h, 'add', obj, err);
      }
    }
  }

  update(oldObj: KubeObject, newObj: KubeObject): void {
    this.stats.events++;
    for (const h of this.handlers) {
      if (!h.onUpdate) continue;
      try {
        h.onUpdate(oldObj, newObj);
      } catch (err) {
        this.handlerFailed(h, 'update', newObj, err);
      }
    }
  }

  delete(obj: KubeObject, finalStateUnknown: boolean): void {
    this.stats.events++;
    this.stats.objects = this.store.size;
    for (const h of this.handlers) {
      if (!h.onDelete) continue;
      try {
        h.onDelete(obj, finalStateUnknown);
      } catch (err) {
        this.handlerFailed(h, 'delete', obj, err);
      }
    }
  }

  private handlerFailed(h: InformerHandler, what: string, obj: KubeObject, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    const name = h.name ?? `handler #${this.handlers.indexOf(h) + 1}`;
    this.emit({ type: 'handler-error', handler: name, message: `${what} of ${keyOf(obj)} threw: ${message}` });
  }

  private resolveSyncWaiters(synced: boolean): void {
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w(synced);
  }
}
