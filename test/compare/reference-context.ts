import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api, KubeConfig, ListWatch, makeInformer, Watch, type Informer, type ObjectCache, type V1ConfigMap } from '@kubernetes/client-node';
import type { KubeObject } from '../../src/informer/kube-object';
import { FakeApiServer } from '../support/apiserver';
import { EventRecorder, identity, type ObjectIdentity } from '../support/event-recorder';
import type { ClientUnderTest } from '../faults/client-under-test';
import { converge, SCALE, SERVER_MS_PER_SECOND, WAIT_BOUND_MS } from '../faults/rig';
import { ConfigMapObjects } from '../faults/configmap-objects';
import type { FaultContext, Scenario } from '../faults/scenario';

/**
 * How long the reference waits before `informer.start()` after an 'error' event. The client's
 * informer example (examples/typescript/informer/informer.ts, and the README of the 0.x
 * releases) subscribes to 'error' and restarts after 5 s; without it the reference's informer
 * simply stays dead after any error that is not a 410. Real time: the reference's own delays
 * (1 s to 30 s reconnect backoff, 30 s watch inactivity timeout) cannot be scaled through
 * `makeInformer`, so this one is not scaled either.
 */
export const README_ERROR_RESTART_MS = 5_000;

/** The reference's Watch aborts a watch that received nothing for this long (watch.js). */
const REFERENCE_WATCH_INACTIVITY_MS = 30_000;

export interface ReferenceOptions {
  /** Restart after an 'error' event, as the informer example does; `undefined` never restarts. */
  restartOnErrorMs?: number;
  /**
   * Run the reference's own delays (its 1 s to 30 s reconnect backoff, its 30 s watch inactivity
   * timeout, and the restart-on-error delay) at the tests' time scale, SCALE times faster, like
   * the server and our informer. Not the README's usage: it builds the same
   * `new ListWatch(path, new Watch(kc), listFn, false)` that `makeInformer` builds, plus
   * ListWatch's own `delayFn` option, and shortens the Watch's request timeout. It tells the
   * rows that fail only because the reference's timers are 250 times slower than the server's
   * from those that fail whatever the time.
   */
  scaledTime?: boolean;
}

/** One 'error' event (or a rejection out of the informer) as the harness saw it. */
export interface RecordedError {
  /** Real milliseconds since the context started. */
  at: number;
  message: string;
  /** True when the informer had been stopped by the harness (so the error is a leftover). */
  afterStop: boolean;
  /** True when the harness scheduled the README-style restart for it. */
  restarted: boolean;
}

type ReferenceInformer = Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;

/** The identity fields of a ConfigMap, as the recorder wants them (the list's objects are typed models). */
function toKube(obj: V1ConfigMap): KubeObject {
  const m = obj.metadata ?? {};
  return {
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
    },
  };
}

/** Errors from the reference are anything: Error, ApiException, DOMException, undefined. */
export function describeError(err: unknown): string {
  if (err instanceof Error || err instanceof DOMException) {
    const e = err as Error & { code?: unknown; statusCode?: unknown; cause?: unknown };
    const parts = [`${e.name}: ${e.message.split('\n')[0]}`];
    if (e.statusCode !== undefined) parts.push(`statusCode ${String(e.statusCode)}`);
    else if (typeof e.code === 'number' || typeof e.code === 'string') parts.push(`code ${String(e.code)}`);
    const cause = e.cause;
    if (cause instanceof Error) {
      const c = cause as Error & { code?: unknown };
      parts.push(`cause ${typeof c.code === 'string' ? c.code : c.name}: ${c.message.split('\n')[0]}`);
    }
    return parts.join(', ').slice(0, 300);
  }
  return String(err).slice(0, 300);
}

function isAbort(err: unknown): boolean {
  return (err instanceof Error || err instanceof DOMException) && err.name === 'AbortError';
}

/**
 * A fault-scenario context whose client is @kubernetes/client-node's own informer, built the
 * way its documentation shows: `makeInformer(kc, path, () => coreApi.listNamespacedConfigMap({ namespace }))`,
 * handlers on 'add' / 'update' / 'delete', and an 'error' handler.
 *
 * Same server, same time scale, same initial objects and the same convergence check as our Rig.
 */
export class ReferenceContext extends ConfigMapObjects implements FaultContext {
  readonly recorder = new EventRecorder();
  readonly ours = undefined;
  readonly errors: RecordedError[] = [];
  /** Calls of the list function, and how many of them returned a list. */
  listCalls = 0;
  listsReturned = 0;
  /** 'connect' events (fired before every list-or-watch cycle). */
  connects = 0;
  readonly kc = new KubeConfig();
  readonly informer: ReferenceInformer;

  private running = false;
  private stoppedByHarness = false;
  private pendingStart = false;
  /** Date.now() when the context was made; errors' `at` count from here. */
  readonly startedAt = Date.now();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  /** The last object handlers saw per key: the reference's 'update' passes only the new object. */
  private readonly seen = new Map<string, KubeObject>();
  private readonly clientView: ClientUnderTest;

  private constructor(
    server: FakeApiServer,
    namespace: string,
    private readonly opts: ReferenceOptions,
    lazyStart: boolean,
  ) {
    super(server, namespace);
    this.kc.loadFromString(server.kubeconfig());
    const coreApi = this.kc.makeApiClient(CoreV1Api);
    const listFn = async () => {
      this.listCalls++;
      const list = await coreApi.listNamespacedConfigMap({ namespace });
      this.listsReturned++;
      return list;
    };
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    if (opts.scaledTime) {
      const watch = new Watch(this.kc);
      // requestTimeoutMs is a plain instance property of Watch, typed private: the only way to scale it.
      (watch as unknown as { requestTimeoutMs: number }).requestTimeoutMs = REFERENCE_WATCH_INACTIVITY_MS / SCALE;
      this.informer = new ListWatch(path, watch, listFn, false, undefined, undefined, { delayFn: (ms) => sleep(ms / SCALE) });
    } else {
      this.informer = makeInformer(this.kc, path, listFn);
    }
    this.informer.on('add', (obj) => {
      const o = toKube(obj);
      this.seen.set(identity(o).key, o);
      this.recorder.onAdd(o);
    });
    this.informer.on('update', (obj) => {
      const o = toKube(obj);
      const key = identity(o).key;
      this.recorder.onUpdate(this.seen.get(key) ?? o, o);
      this.seen.set(key, o);
    });
    this.informer.on('delete', (obj) => {
      const o = toKube(obj);
      this.recorder.onDelete(o, false);
      this.seen.delete(identity(o).key);
    });
    this.informer.on('connect', () => {
      this.connects++;
    });
    this.informer.on('error', (err: unknown) => this.onError(err));
    this.pendingStart = lazyStart;
    this.clientView = {
      label: '@kubernetes/client-node',
      recorder: this.recorder,
      cache: () => {
        this.firstUse();
        return this.informer.list().map((o) => identity(toKube(o)));
      },
      waitForSync: (ms) => this.waitForSync(ms),
      restart: () => this.restart(),
      stop: () => this.stop(),
    };
  }

  /**
   * Starts a server the way our Rig does, creates the scenario's initial objects and starts the
   * reference informer (unless the scenario asks for `noStart`: see `startOnFirstUse`).
   */
  static async start(setup: Scenario['setup'] = {}, opts: ReferenceOptions = {}, namespace = 'default'): Promise<ReferenceContext> {
    const server = await FakeApiServer.start({ timeScale: SERVER_MS_PER_SECOND, ...setup.server });
    const ctx = new ReferenceContext(server, namespace, opts, setup.noStart === true);
    for (let i = 0; i < (setup.initialObjects ?? 0); i++) ctx.createObject();
    if (!setup.noStart) ctx.begin();
    return ctx;
  }

  get client(): ClientUnderTest {
    return this.clientView;
  }

  /** Real milliseconds since the context was made. */
  elapsed(): number {
    return Date.now() - this.startedAt;
  }

  async synced(): Promise<void> {
    this.firstUse();
    assert.equal(await this.waitForSync(WAIT_BOUND_MS), true, 'the informer did not sync');
  }

  async converged(): Promise<void> {
    this.firstUse();
    await converge(this.server, this.clientView, this.namespace);
  }

  /** True once a list has been returned and applied (the poll runs a macrotask after it). */
  async waitForSync(timeoutMs: number): Promise<boolean> {
    this.firstUse();
    const deadline = Date.now() + timeoutMs;
    while (!(this.running && this.listsReturned > 0)) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 2));
    }
    return true;
  }

  /** The restart command, for the reference: stop, then start (start keeps its resourceVersion). */
  async restart(): Promise<void> {
    if (this.pendingStart) {
      // A `noStart` scenario starting the client: nothing to stop yet.
      this.pendingStart = false;
      this.begin();
      return;
    }
    await this.stop();
    this.begin();
  }

  /** Stops the informer and cancels any README-style restart still pending. */
  async stop(): Promise<void> {
    this.running = false;
    this.stoppedByHarness = true;
    this.pendingStart = false;
    for (const t of this.restartTimers) clearTimeout(t);
    this.restartTimers.clear();
    await this.informer.stop();
  }

  /**
   * Stops everything and closes the server. After `stop()` the reference may still have a
   * reconnect delay or a list in flight that opens a watch later (it checks `stopped` only
   * before listing); pointing the kubeconfig at a closed port keeps such a straggler off any
   * later scenario's server.
   */
  async close(): Promise<void> {
    await this.stop();
    this.kc.clusters = this.kc.clusters.map((c) => ({ ...c, server: 'https://127.0.0.1:9' }));
    await this.server.close();
  }

  /** Errors whose message matches, for the report. */
  errorSummary(): string[] {
    const counts = new Map<string, number>();
    for (const e of this.errors) {
      const k = `${e.afterStop ? '[after stop] ' : ''}${e.message}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return [...counts].map(([m, n]) => (n > 1 ? `${m} (x${n})` : m));
  }

  identities(): ObjectIdentity[] {
    return this.clientView.cache();
  }

  private begin(): void {
    this.running = true;
    this.stoppedByHarness = false;
    this.informer.start().catch((err: unknown) => this.record(err, false));
  }

  private onError(err: unknown): void {
    // An AbortError is always self-inflicted: stop(), or start() aborting the previous watch.
    // The README's handler would restart on it too, so a restart command would loop every 5 s.
    const restart = this.running && !this.stoppedByHarness && this.opts.restartOnErrorMs !== undefined && !isAbort(err);
    this.record(err, restart);
    if (!restart || this.opts.restartOnErrorMs === undefined) return;
    const t = setTimeout(
      () => {
        this.restartTimers.delete(t);
        if (this.running) this.informer.start().catch((e: unknown) => this.record(e, false));
      },
      this.opts.scaledTime ? this.opts.restartOnErrorMs / SCALE : this.opts.restartOnErrorMs,
    );
    this.restartTimers.add(t);
  }

  private record(err: unknown, restarted: boolean): void {
    this.errors.push({ at: this.elapsed(), message: describeError(err), afterStop: this.stoppedByHarness, restarted });
  }

  /**
   * `noStart` scenarios start our informer through `ctx.ours`, which the reference lacks; most
   * start the reference with `ctx.client.restart()`. Those that do not (their reference branch
   * just checks the outcome) get it started when they first expect a running client: at
   * synced(), converged(), waitForSync() or cache().
   */
  private firstUse(): void {
    if (!this.pendingStart) return;
    this.pendingStart = false;
    this.begin();
  }
}
