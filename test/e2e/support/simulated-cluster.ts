/**
 * A simulated cluster: the local API server (test/support/apiserver/) on 127.0.0.1 with a small,
 * believable set of objects, and a kubeconfig for it written to a folder of its own. Used in
 * process by the browser tests (test/e2e/), and meant to be grown into the sandbox of `npm start`
 * (issue 6), which can also run it as a child process:
 *
 *   node --import tsx test/e2e/support/simulated-cluster.ts [--port N] [--kubeconfig FILE] [--http] [--churn MS]
 *
 * prints one JSON line `{"url":…,"kubeconfig":…,"context":…}` on stdout once it serves, logs
 * what it does on stderr, and stops (closing every connection, removing its temporary folder) on
 * SIGINT or SIGTERM.
 *
 * The objects: Namespaces `default`, `shop` and `monitoring`; in `shop` the Deployments `web` (2
 * replicas) and `api` (1) with their Pods, a Service and a ConfigMap each; `default` has the
 * `kubernetes` Service, a `kube-root-ca.crt` ConfigMap and a Pending `debug` Pod; `monitoring`
 * has a `prometheus` Deployment with its Pod; a few Events; and one custom resource type,
 * `widgets.example.com` (v1, kind Widget) with one object. Every write goes through the server, so
 * watches see it exactly as they would see a real cluster's.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeApiServer, type FakeApiServerOptions, type KubeObjectJson } from '../../support/apiserver';

/** The resource types the extension watches by default (package.json `kubeWatch.resources`), as the server names them. */
export const DEFAULT_WATCHED = ['pods', 'deployments.apps', 'services', 'configmaps', 'events'] as const;

export const CONTEXT = 'simulated';

export interface SimulatedClusterOptions {
  /** Port on 127.0.0.1; default 0 (a free one). Kept across outages. */
  port?: number;
  /** HTTPS with the test CA (default) or plain HTTP. */
  tls?: boolean;
  /** Where to write the kubeconfig; default `<a new temporary folder>/kubeconfig`. */
  kubeconfigPath?: string;
  /** Bearer token the server accepts and the kubeconfig carries. */
  token?: string;
  /** Context (and cluster, user) name in the kubeconfig; default `simulated`. */
  context?: string;
  /** Create the objects described above (default true). */
  seed?: boolean;
  /** Anything else for the server (timeScale, historyLimit, ...). */
  server?: Omit<FakeApiServerOptions, 'port' | 'tls' | 'token'>;
  /** Progress lines (default: none). */
  log?: (message: string) => void;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export interface PodOptions {
  phase?: PodPhase;
  /** Containers ready (default: true when Running). */
  ready?: boolean;
  labels?: Record<string, string>;
  restarts?: number;
  /** A container waiting reason such as `CrashLoopBackOff` (implies not ready). */
  waitingReason?: string;
}

export class SimulatedCluster {
  private churnTimer: NodeJS.Timeout | undefined;
  private churnStep = 0;
  private stopped = false;

  private constructor(
    readonly server: FakeApiServer,
    readonly kubeconfigPath: string,
    readonly context: string,
    private readonly ownDir: string | undefined,
    private readonly log: (message: string) => void,
  ) {}

  static async start(opts: SimulatedClusterOptions = {}): Promise<SimulatedCluster> {
    const log = opts.log ?? (() => {});
    const server = await FakeApiServer.start({ ...opts.server, port: opts.port ?? 0, tls: opts.tls ?? true, token: opts.token ?? 'simulated-cluster-token' });
    let ownDir: string | undefined;
    let kubeconfigPath = opts.kubeconfigPath;
    if (!kubeconfigPath) {
      ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-simulated-'));
      kubeconfigPath = path.join(ownDir, 'kubeconfig');
    }
    const context = opts.context ?? CONTEXT;
    fs.mkdirSync(path.dirname(kubeconfigPath), { recursive: true });
    server.writeKubeconfig(kubeconfigPath, { context, cluster: context, user: `${context}-user` });
    const cluster = new SimulatedCluster(server, kubeconfigPath, context, ownDir, log);
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'] });
    if (opts.seed ?? true) cluster.seed();
    log(`API server on ${server.url} (resourceVersion ${server.resourceVersion}); kubeconfig ${kubeconfigPath}, context ${context}`);
    return cluster;
  }

  get url(): string {
    return this.server.url;
  }

  /** The server's current (global) resourceVersion. */
  get resourceVersion(): string {
    return this.server.resourceVersion;
  }

  // ---- objects ------------------------------------------------------------------------------

  private seed(): void {
    for (const name of ['default', 'shop', 'monitoring']) this.server.create('namespaces', { metadata: { name }, status: { phase: 'Active' } });
    this.server.create('services', { metadata: { namespace: 'default', name: 'kubernetes' }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ port: 443 }] } });
    this.server.create('configmaps', { metadata: { namespace: 'default', name: 'kube-root-ca.crt' }, data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n' } });
    this.createPod('default', 'debug', { phase: 'Pending' });

    this.createDeployment('shop', 'web', 2);
    this.createPod('shop', 'web-7d9f8b6c4-2xkqp', { labels: { app: 'web' } });
    this.createPod('shop', 'web-7d9f8b6c4-q8m5z', { labels: { app: 'web' } });
    this.server.create('services', { metadata: { namespace: 'shop', name: 'web', labels: { app: 'web' } }, spec: { type: 'ClusterIP', clusterIP: '10.96.12.7', selector: { app: 'web' }, ports: [{ port: 80 }] } });
    this.server.create('configmaps', { metadata: { namespace: 'shop', name: 'web-config', labels: { app: 'web' } }, data: { LOG_LEVEL: 'info', FEATURE_CHECKOUT: 'on' } });

    this.createDeployment('shop', 'api', 1);
    this.createPod('shop', 'api-5c6b7f9d8-vt4wn', { labels: { app: 'api' } });
    this.server.create('configmaps', { metadata: { namespace: 'shop', name: 'api-config', labels: { app: 'api' } }, data: { DB_POOL: '10' } });

    this.createDeployment('monitoring', 'prometheus', 1);
    this.createPod('monitoring', 'prometheus-6b8d9c7f5-h2jrl', { labels: { app: 'prometheus' } });

    this.createEvent('shop', 'web-7d9f8b6c4-2xkqp', 'Pod', 'Scheduled', 'Successfully assigned shop/web-7d9f8b6c4-2xkqp to node-1');
    this.createEvent('shop', 'web-7d9f8b6c4-2xkqp', 'Pod', 'Started', 'Started container web');
    this.createEvent('default', 'debug', 'Pod', 'FailedScheduling', '0/1 nodes are available: 1 Insufficient cpu.', 'Warning');

    this.server.create('widgets.example.com', { metadata: { namespace: 'shop', name: 'blue-widget' }, spec: { size: 3 }, status: { phase: 'Ready' } });
  }

  /** A Pod with one container `main` in the given phase (default Running and ready). */
  createPod(namespace: string, name: string, opts: PodOptions = {}): KubeObjectJson {
    return this.server.create('pods', podObject(namespace, name, opts));
  }

  /** Replaces the Pod's status (phase, readiness, restarts); keeps its uid. */
  updatePod(namespace: string, name: string, opts: PodOptions): KubeObjectJson {
    const current = this.server.get('pods', namespace, name);
    if (!current) throw new Error(`updatePod: no pod ${namespace}/${name}`);
    const next = podObject(namespace, name, { labels: current.metadata.labels, ...opts });
    return this.server.update('pods', { ...current, status: next.status });
  }

  deletePod(namespace: string, name: string): KubeObjectJson | undefined {
    return this.server.delete('pods', namespace, name);
  }

  /** A Deployment with `replicas`, all available unless `available` says otherwise. */
  createDeployment(namespace: string, name: string, replicas: number, available = replicas): KubeObjectJson {
    return this.server.create('deployments.apps', deploymentObject(namespace, name, replicas, available));
  }

  scaleDeployment(namespace: string, name: string, replicas: number, available = replicas): KubeObjectJson {
    const current = this.server.get('deployments.apps', namespace, name);
    if (!current) throw new Error(`scaleDeployment: no deployment ${namespace}/${name}`);
    const next = deploymentObject(namespace, name, replicas, available);
    return this.server.update('deployments.apps', { ...current, spec: next.spec, status: next.status });
  }

  createEvent(namespace: string, objectName: string, objectKind: string, reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): KubeObjectJson {
    const now = new Date().toISOString();
    return this.server.create('events', {
      metadata: { namespace, generateName: `${objectName}.` },
      involvedObject: { kind: objectKind, namespace, name: objectName },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
    });
  }

  // ---- faults -------------------------------------------------------------------------------

  /**
   * An expiry as a compacted server shows it: the next watch request of each of `resources` gets
   * an ERROR event 410 Expired (the real server's wording), then every open watch is ended, so
   * that every informer re-watches from its last resourceVersion, is told it is too old, and
   * relists. `during` runs right after the watches end and before any informer can re-watch
   * (the server handles requests on this same event loop): changes made there reach the
   * informers only through the relist. Returns how many watches were ended.
   */
  expire(resources: readonly string[] = DEFAULT_WATCHED, during?: () => void): number {
    const faults = resources.map((resource) =>
      this.server.injectFault(
        { type: 'errorEvent', code: 410, reason: 'Expired', message: `too old resource version: 1 (${this.server.resourceVersion})` },
        { verb: 'watch', resource },
      ),
    );
    const ended = this.server.dropWatches('end');
    during?.();
    this.log(`expiry: ended ${ended} watches; the next watch of ${resources.join(', ')} gets 410 Expired (${faults.length} faults armed)`);
    return ended;
  }

  /** The server stops listening and drops every connection: clients get ECONNREFUSED. */
  async goDown(): Promise<void> {
    await this.server.goDown();
    this.log('outage: the API server is down (connections refused)');
  }

  /** Listens again on the same port. */
  async comeUp(opts: { compact?: boolean } = {}): Promise<void> {
    await this.server.comeUp(opts);
    this.log(`outage over: the API server is back on ${this.server.url}`);
  }

  /** Removes armed faults that no request has used up yet. */
  clearFaults(): void {
    this.server.clearFaults();
  }

  /** Open watch responses per resource type. */
  openWatchCounts(resources: readonly string[] = DEFAULT_WATCHED): Record<string, number> {
    return Object.fromEntries(resources.map((r) => [r, this.server.openWatches(r)]));
  }

  // ---- churn --------------------------------------------------------------------------------

  /**
   * Steady, harmless change every `everyMs`: a ConfigMap counter goes up, a Pod of `web` flips its
   * readiness, a short-lived Pod comes and goes, an Event is recorded. Stops with stopChurn() or stop().
   */
  startChurn(everyMs = 3000): void {
    this.stopChurn();
    this.churnTimer = setInterval(() => {
      try {
        this.churn();
      } catch (err) {
        this.log(`churn: ${(err as Error).message}`);
      }
    }, everyMs);
    this.churnTimer.unref?.();
  }

  stopChurn(): void {
    if (this.churnTimer) clearInterval(this.churnTimer);
    this.churnTimer = undefined;
  }

  private churn(): void {
    const step = ++this.churnStep;
    const cm = this.server.get('configmaps', 'shop', 'web-config');
    if (cm) this.server.update('configmaps', { ...cm, data: { ...(cm.data as Record<string, string>), REVISION: String(step) } });
    if (this.server.get('pods', 'shop', 'web-7d9f8b6c4-q8m5z')) this.updatePod('shop', 'web-7d9f8b6c4-q8m5z', { phase: 'Running', ready: step % 4 !== 0 });
    const job = 'report-job';
    if (step % 3 === 1 && !this.server.get('pods', 'shop', job)) {
      this.createPod('shop', job, { phase: 'Pending', labels: { app: 'report' } });
      this.createEvent('shop', job, 'Pod', 'Scheduled', `Successfully assigned shop/${job} to node-1`);
    } else if (step % 3 === 2 && this.server.get('pods', 'shop', job)) {
      this.updatePod('shop', job, { phase: 'Running' });
    } else if (step % 3 === 0) {
      this.deletePod('shop', job);
    }
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Closes the server and every connection; removes the temporary folder it made. Safe twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopChurn();
    await this.server.close();
    if (this.ownDir) fs.rmSync(this.ownDir, { recursive: true, force: true });
    this.log('stopped');
  }
}

export function podObject(namespace: string, name: string, opts: PodOptions = {}): KubeObjectJson {
  const phase = opts.phase ?? 'Running';
  const running = phase === 'Running';
  const ready = !opts.waitingReason && (opts.ready ?? running);
  const state = opts.waitingReason
    ? { waiting: { reason: opts.waitingReason } }
    : running
      ? { running: { startedAt: new Date().toISOString() } }
      : phase === 'Succeeded'
        ? { terminated: { reason: 'Completed', exitCode: 0 } }
        : phase === 'Failed'
          ? { terminated: { reason: 'Error', exitCode: 1 } }
          : { waiting: { reason: 'ContainerCreating' } };
  return {
    metadata: { namespace, name, labels: opts.labels ?? {} },
    spec: { nodeName: phase === 'Pending' ? undefined : 'node-1', containers: [{ name: 'main', image: 'registry.example.com/app:1.0' }] },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: [{ name: 'main', ready, restartCount: opts.restarts ?? 0, state }],
    },
  };
}

export function deploymentObject(namespace: string, name: string, replicas: number, available: number): KubeObjectJson {
  return {
    metadata: { namespace, name, labels: { app: name }, generation: 1 },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'registry.example.com/app:1.0' }] } } },
    status: { observedGeneration: 1, replicas, updatedReplicas: replicas, readyReplicas: available, availableReplicas: available },
  };
}

// ---- run as a program -------------------------------------------------------------------------

async function main(argv: string[]): Promise<void> {
  const opts: SimulatedClusterOptions = { log: (m) => process.stderr.write(`[simulated-cluster] ${m}\n`) };
  let churnMs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--port') opts.port = Number(value());
    else if (arg === '--kubeconfig') opts.kubeconfigPath = path.resolve(value());
    else if (arg === '--http') opts.tls = false;
    else if (arg === '--churn') churnMs = Number(value());
    else throw new Error(`unknown argument ${arg} (usage: simulated-cluster.ts [--port N] [--kubeconfig FILE] [--http] [--churn MS])`);
  }
  const cluster = await SimulatedCluster.start(opts);
  if (churnMs) cluster.startChurn(churnMs);
  process.stdout.write(`${JSON.stringify({ url: cluster.url, kubeconfig: cluster.kubeconfigPath, context: cluster.context })}\n`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void cluster.stop().finally(() => process.exit(0));
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`simulated-cluster: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  });
}
