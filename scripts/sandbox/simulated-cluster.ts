/**
 * A simulated cluster: the local API server (test/support/apiserver/) on 127.0.0.1 with a small,
 * believable cluster in it, a kubeconfig for it written to a folder of its own, steady churn, and
 * the faults the sandbox shows off. Used by the sandbox (`npm start`, scripts/sandbox/main.ts) and,
 * in process, by the browser tests (test/e2e/).
 *
 * The objects (`seed`):
 * - `default`: the `kubernetes` Service, the `kube-root-ca.crt` ConfigMap, a Pending `debug` Pod
 *   that cannot be scheduled (with its FailedScheduling Event);
 * - `kube-system`: Deployment `coredns` (2) with its ReplicaSet and Pods, Service and ConfigMap;
 * - `shop`: Deployments `web` (2) and `api` (1) with their ReplicaSets and Pods (all Running and
 *   ready), a Service and a ConfigMap each, a `blue-widget`;
 * - `monitoring`: Deployments `prometheus` and `grafana` with their ReplicaSets and Pods, a ConfigMap;
 * - `payments`: Deployment `ledger` (1 of 2 available: one Pod in CrashLoopBackOff, with the log of
 *   its crashed run as its previous log; stuck past its
 *   progress deadline, `Progressing=False ProgressDeadlineExceeded`, as its controller marks it), the Pod
 *   `postgres-0` (the one the sandbox deletes and re-creates while the watch is down), the Pod
 *   `signer` of a distroless image (no shell: Debug Pod… adds an ephemeral container to it), a
 *   ConfigMap, a Service, a `gold-widget` still reconciling;
 * - `batch`: a Completed and a Failed job Pod; the churn adds a job Pod every few seconds;
 * - an EndpointSlice per Service with a selector, kept current with its Pods (endpoint-slice-controller.ts);
 * - Helm releases stored as helm stores them (test/support/helm-releases.ts): `monitoring/observability`,
 *   `shop/web`, `payments/ledger` (stuck in pending-upgrade) and `kube-system/coredns` (ConfigMap driver);
 * - Events for what happened to them (some repeated, with their counts), and one custom resource
 *   type, `widgets.example.com` (v1, kind Widget), with its CustomResourceDefinition (printer
 *   columns Phase, Size, Color).
 * Every write goes through the server, so watches see it exactly as they would a real cluster's.
 * (The browser tests rely on `shop` holding only Running, ready Pods and on `default/debug`.)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ACTION_TYPES, ENDPOINT_SLICES, FakeApiServer, type FaultHandle, type FakeApiServerOptions, type KubeObjectJson, type MetricsMode } from '../../test/support/apiserver';
import { WorkloadController } from './workload-controller';
import { EndpointSliceController } from './endpoint-slice-controller';
import { PodLogWriter } from './pod-log-writer';
import { releaseStorageObject as releaseStorageObjectOf, sandboxReleases } from '../../test/support/helm-releases';

/** The resource types the extension watches by default (package.json `kubeWatch.resources`), as the server names them. */
export const DEFAULT_WATCHED = ['pods', 'deployments.apps', 'services', 'configmaps', 'events'] as const;

/** Every resource type the simulated cluster serves that a client may watch, as the server names them. */
export const SERVED_TYPES = [
  'namespaces',
  'pods',
  'services',
  'configmaps',
  'secrets',
  'events',
  'deployments.apps',
  'replicasets.apps',
  'endpointslices.discovery.k8s.io',
  'widgets.example.com',
  'customresourcedefinitions.apiextensions.k8s.io',
  'nodes',
  'statefulsets.apps',
  'daemonsets.apps',
  'jobs.batch',
  'cronjobs.batch',
  'poddisruptionbudgets.policy',
] as const;

/** The Widget type's definition, with the printer columns `kubectl get widgets` would show. */
export const WIDGET_CRD = {
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        additionalPrinterColumns: [
          { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
          { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
          { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

/** The server resource and apiVersion of the kinds the sandbox records Events about. */
const INVOLVED_RESOURCES: Record<string, { resource: string; apiVersion: string }> = {
  Pod: { resource: 'pods', apiVersion: 'v1' },
  Deployment: { resource: 'deployments.apps', apiVersion: 'apps/v1' },
  ReplicaSet: { resource: 'replicasets.apps', apiVersion: 'apps/v1' },
  Service: { resource: 'services', apiVersion: 'v1' },
  ConfigMap: { resource: 'configmaps', apiVersion: 'v1' },
};

export const CONTEXT = 'simulated';

/** The user the kubeconfig names, as a 403 quotes it. */
export const SANDBOX_USER = 'system:serviceaccount:kube-watch-sandbox:viewer';

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
  /** Running pods write a log line every this many ms (default 1000); 0: no log lines. */
  podLogEveryMs?: number;
  /** metrics.k8s.io: 'served' (default: plausible, changing samples), 'absent' (no metrics-server) or 'forbidden' (403 for the user). */
  metrics?: MetricsMode;
  /** How often the metrics API takes a new sample (default 15 000 ms, metrics-server's resolution). */
  metricsResolutionMs?: number;
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
  /** The controller that owns the Pod (a ReplicaSet, a StatefulSet, a Job). */
  owner?: OwnerRef;
  image?: string;
  /** The container's declared ports; the local API server serves each (an HTTP answer with the pod's name) for port-forwards. */
  ports?: Array<{ containerPort: number; name?: string; protocol?: string }>;
  /** What the simulated image holds (test/support/apiserver/pod-image.ts: its commands, files to browse). */
  annotations?: Record<string, string>;
}

export interface OwnerRef {
  kind: string;
  name: string;
  uid?: string;
  apiVersion?: string;
}

/** A fault that holds until lifted (a persistent 403, say). */
export interface LiftableFault {
  lift(): void;
}

export class SimulatedCluster {
  private churnTimer: NodeJS.Timeout | undefined;
  private churnStep = 0;
  private jobSerial = 0;
  private stopped = false;
  private readonly logWriter: PodLogWriter;
  private readonly endpointSlices: EndpointSliceController;
  private readonly workloads: WorkloadController;

  private constructor(
    readonly server: FakeApiServer,
    readonly kubeconfigPath: string,
    readonly context: string,
    private readonly ownDir: string | undefined,
    private readonly log: (message: string) => void,
  ) {
    this.logWriter = new PodLogWriter(server);
    this.endpointSlices = new EndpointSliceController(server);
    this.workloads = new WorkloadController(server);
  }

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
    server.defineResource({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] });
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'] });
    server.defineResource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd'] });
    server.defineResource(ENDPOINT_SLICES);
    for (const def of ACTION_TYPES) if (def.resource !== 'replicasets') server.defineResource(def);
    server.access.user = SANDBOX_USER;
    server.metrics.mode = opts.metrics ?? 'served';
    if (opts.metricsResolutionMs) server.metrics.resolutionMs = opts.metricsResolutionMs;
    if (opts.seed ?? true) cluster.seed();
    cluster.endpointSlices.start();
    if ((opts.podLogEveryMs ?? 1000) > 0) cluster.logWriter.start(opts.podLogEveryMs ?? 1000);
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
    this.server.create('customresourcedefinitions.apiextensions.k8s.io', WIDGET_CRD);
    for (const name of ['default', 'kube-system', 'shop', 'monitoring', 'payments', 'batch']) {
      this.server.create('namespaces', { metadata: { name, labels: { 'kubernetes.io/metadata.name': name } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    }

    // default
    this.server.create('services', { metadata: { namespace: 'default', name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, targetPort: 6443 }] } });
    this.server.create('configmaps', { metadata: { namespace: 'default', name: 'kube-root-ca.crt' }, data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n' } });
    this.createPod('default', 'debug', { phase: 'Pending', image: 'busybox:1.36' });
    this.createEvent('default', 'debug', 'Pod', 'FailedScheduling', '0/1 nodes are available: 1 Insufficient cpu.', 'Warning');

    // kube-system
    this.createWorkload('kube-system', 'coredns', '5d78c9869d', ['8xk2p', 'tq7vn'], { labels: { 'k8s-app': 'kube-dns' }, image: 'registry.k8s.io/coredns/coredns:v1.11.1' });
    this.server.create('services', { metadata: { namespace: 'kube-system', name: 'kube-dns', labels: { 'k8s-app': 'kube-dns' } }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', selector: { 'k8s-app': 'kube-dns' }, ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] } });
    this.server.create('configmaps', { metadata: { namespace: 'kube-system', name: 'coredns' }, data: { Corefile: '.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . /etc/resolv.conf\n    cache 30\n}\n' } });

    // shop (the browser tests expect only Running, ready Pods here)
    this.createWorkload('shop', 'web', '7d9f8b6c4', ['2xkqp', 'q8m5z'], { image: 'registry.example.com/shop/web:2.4.1', ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }] });
    this.server.create('services', { metadata: { namespace: 'shop', name: 'web', labels: { app: 'web' } }, spec: { type: 'ClusterIP', clusterIP: '10.96.12.7', selector: { app: 'web' }, ports: [{ port: 80 }] } });
    this.server.create('configmaps', { metadata: { namespace: 'shop', name: 'web-config', labels: { app: 'web' } }, data: { LOG_LEVEL: 'info', FEATURE_CHECKOUT: 'on' } });
    this.createWorkload('shop', 'api', '5c6b7f9d8', ['vt4wn'], { image: 'registry.example.com/shop/api:1.9.0', ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }] });
    this.server.create('configmaps', { metadata: { namespace: 'shop', name: 'api-config', labels: { app: 'api' } }, data: { DB_POOL: '10' } });
    this.createEvent('shop', 'web-7d9f8b6c4-2xkqp', 'Pod', 'Scheduled', 'Successfully assigned shop/web-7d9f8b6c4-2xkqp to node-1');
    this.createEvent('shop', 'web-7d9f8b6c4-2xkqp', 'Pod', 'Started', 'Started container web');
    this.server.create('widgets.example.com', { metadata: { namespace: 'shop', name: 'blue-widget', generation: 1 }, spec: { size: 3, color: 'blue' }, status: { phase: 'Ready', observedGeneration: 1 } });

    // monitoring
    this.createWorkload('monitoring', 'prometheus', '6b8d9c7f5', ['h2jrl'], { image: 'quay.io/prometheus/prometheus:v2.53.0' });
    this.createWorkload('monitoring', 'grafana', '7c9d8f6b5', ['m4x8w'], { image: 'grafana/grafana:11.1.0', annotations: { 'kube-watch.test/files': 'true', 'kube-watch.test/commands': 'sh,ls,cat' } });
    this.server.create('configmaps', { metadata: { namespace: 'monitoring', name: 'prometheus-config', labels: { app: 'prometheus' } }, data: { 'prometheus.yml': 'global:\n  scrape_interval: 30s\n' } });

    // payments: a crash-looping replica, and a StatefulSet-style Pod whose name outlives its uid.
    this.createWorkload('payments', 'ledger', '6d5f7c8b9', ['b7n2k', 'z9w4c'], { image: 'registry.example.com/payments/ledger:3.2.0', crashing: ['z9w4c'], ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }] });
    this.crashRun('payments', 'ledger-6d5f7c8b9-z9w4c', Date.now() - 45_000, { fresh: true });
    // A distroless image: no shell, so Open Shell fails and Debug Pod… (an ephemeral container) is the way in.
    this.createPod('payments', 'signer', { labels: { app: 'signer' }, image: 'gcr.io/distroless/static-debian12:nonroot', annotations: { 'kube-watch.test/distroless': 'true' } });
    // Browse Container Files…: postgres-0 has files to browse; grafana's image (no tar) says it cannot copy.
    this.createPod('payments', 'postgres-0', { labels: { app: 'postgres', 'statefulset.kubernetes.io/pod-name': 'postgres-0' }, owner: { kind: 'StatefulSet', name: 'postgres' }, image: 'postgres:16.3', annotations: { 'kube-watch.test/files': 'true' } });
    this.server.create('services', { metadata: { namespace: 'payments', name: 'ledger', labels: { app: 'ledger' } }, spec: { type: 'ClusterIP', clusterIP: '10.96.40.3', selector: { app: 'ledger' }, ports: [{ port: 8080 }] } });
    this.server.create('configmaps', { metadata: { namespace: 'payments', name: 'ledger-config', labels: { app: 'ledger' } }, data: { CURRENCY: 'EUR', SETTLEMENT_WINDOW: '15m' } });
    this.createEvent('payments', 'ledger', 'Deployment', 'ScalingReplicaSet', 'Scaled up replica set ledger-6d5f7c8b9 to 2', 'Normal', { lastSeenAgoMs: 15 * 60_000 });
    this.createEvent('payments', 'ledger-6d5f7c8b9-z9w4c', 'Pod', 'Pulled', 'Container image "registry.example.com/payments/ledger:3.2.0" already present on machine', 'Normal', { count: 6, lastSeenAgoMs: 4 * 60_000 });
    this.createEvent('payments', 'ledger-6d5f7c8b9-z9w4c', 'Pod', 'BackOff', 'Back-off restarting failed container main in pod ledger-6d5f7c8b9-z9w4c_payments', 'Warning', { count: 6, lastSeenAgoMs: 30_000 });
    this.server.create('widgets.example.com', { metadata: { namespace: 'payments', name: 'gold-widget', generation: 2 }, spec: { size: 5, color: 'gold' }, status: { phase: 'Reconciling', observedGeneration: 1 } });

    // batch: finished job Pods
    this.createPod('batch', 'nightly-report-29013840-7hxkq', { phase: 'Succeeded', labels: { 'job-name': 'nightly-report-29013840' }, owner: { kind: 'Job', name: 'nightly-report-29013840', apiVersion: 'batch/v1' }, image: 'registry.example.com/batch/report:1.0' });
    this.createPod('batch', 'db-migrate-29013780-ck2fd', { phase: 'Failed', labels: { 'job-name': 'db-migrate-29013780' }, owner: { kind: 'Job', name: 'db-migrate-29013780', apiVersion: 'batch/v1' }, image: 'registry.example.com/batch/migrate:0.7' });
    this.createEvent('batch', 'db-migrate-29013780-ck2fd', 'Pod', 'Failed', 'Error: container main exited with code 1', 'Warning');
    this.server.create('configmaps', { metadata: { namespace: 'batch', name: 'report-settings' }, data: { FORMAT: 'pdf', RECIPIENTS: 'finance@example.com' } });
    this.seedForActions();
    // Helm releases in helm's own storage format (test/support/helm-releases.ts).
    for (const { storage, spec } of sandboxReleases(Date.now())) this.server.create(storage === 'secret' ? 'secrets' : 'configmaps', releaseStorageObjectOf(storage, spec));
  }

  /**
   * What the actions act on beyond Deployments and Pods: the two nodes (every Pod runs on
   * node-1), the CronJob behind the nightly report, the StatefulSet of postgres-0 and a
   * PodDisruptionBudget that keeps one web Pod of shop running through a drain.
   */
  private seedForActions(): void {
    for (const name of ['node-1', 'node-2']) {
      this.server.create('nodes', {
        metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
        spec: {},
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }], capacity: { cpu: '4', memory: '16Gi', pods: '110' }, nodeInfo: { kubeletVersion: 'v1.34.9' } },
      });
    }
    this.server.create('cronjobs.batch', {
      metadata: { namespace: 'batch', name: 'nightly-report' },
      spec: {
        schedule: '40 3 * * *',
        jobTemplate: { metadata: { labels: { app: 'report' } }, spec: { template: { metadata: { labels: { app: 'report' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'registry.example.com/batch/report:1.0' }] } } } },
      },
      status: { lastScheduleTime: new Date(Date.now() - 6 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    });
    this.server.create('statefulsets.apps', {
      metadata: { namespace: 'payments', name: 'postgres', labels: { app: 'postgres' } },
      spec: { replicas: 1, serviceName: 'postgres', selector: { matchLabels: { app: 'postgres' } }, template: { metadata: { labels: { app: 'postgres' } }, spec: { containers: [{ name: 'main', image: 'postgres:16.3' }] } } },
      status: { replicas: 1, readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1, availableReplicas: 1 },
    });
    this.server.create('poddisruptionbudgets.policy', { metadata: { namespace: 'shop', name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  }

  /**
   * Starts the controllers that answer Kube Watch's actions (workload-controller.ts: Deployments,
   * ReplicaSets, Jobs, the scheduler and the kubelet) and makes a deleted Pod's grace period last
   * at most 3 s. Everything seeded stays as it is until something acts on it.
   */
  startControllers(): void {
    this.server.deletes.podTerminationSeconds = 3;
    this.workloads.start();
  }

  /**
   * The sandbox user may only read (`read-only`: RBAC's 403 on every write, access reviews say
   * no) or do everything again (`read-write`). Returns what to look for.
   */
  switchAccess(mode: 'read-only' | 'read-write'): string {
    if (mode === 'read-only') {
      this.server.access.readOnly();
      return `read-only: the sandbox user may read but not write. Try an action: the server refuses it with 403, Kube Watch says which verb on which resource in words, and the menus stop offering writes (type read-write to undo)`;
    }
    this.server.access.allowAll();
    return 'read-write: the sandbox user may do everything again (menus offer the writes once the access answers are asked again: a context switch, or after 5 minutes)';
  }

  /**
   * A Deployment with its ReplicaSet `<name>-<hash>` and one Pod per suffix, owned the way the
   * controllers own them; `crashing` suffixes are in CrashLoopBackOff, the others Running.
   */
  createWorkload(namespace: string, name: string, hash: string, suffixes: string[], opts: { labels?: Record<string, string>; image?: string; crashing?: string[]; ports?: PodOptions['ports']; annotations?: PodOptions['annotations'] } = {}): void {
    const labels = opts.labels ?? { app: name };
    const replicas = suffixes.length;
    const available = suffixes.filter((s) => !opts.crashing?.includes(s)).length;
    const deployment = this.server.create('deployments.apps', deploymentObject(namespace, name, replicas, available, labels, opts.image, { stuck: available < replicas, replicaSet: `${name}-${hash}`, ports: opts.ports }));
    const rsName = `${name}-${hash}`;
    const rs = this.server.create('replicasets.apps', replicaSetObject(namespace, rsName, { ...labels, 'pod-template-hash': hash }, replicas, available, { kind: 'Deployment', name, uid: deployment.metadata.uid }));
    for (const suffix of suffixes) {
      const crashing = opts.crashing?.includes(suffix);
      this.createPod(namespace, `${rsName}-${suffix}`, {
        labels: { ...labels, 'pod-template-hash': hash },
        owner: { kind: 'ReplicaSet', name: rsName, uid: rs.metadata.uid },
        image: opts.image,
        ports: opts.ports,
        annotations: opts.annotations,
        ...(crashing ? { phase: 'Running', waitingReason: 'CrashLoopBackOff', restarts: 6 } : {}),
      });
    }
  }

  /** A Pod with one container `main` in the given phase (default Running and ready). */
  createPod(namespace: string, name: string, opts: PodOptions = {}): KubeObjectJson {
    return this.server.create('pods', podObject(namespace, name, opts));
  }

  /**
   * The crash-looping ledger's run ends: it writes the error and the panic that end it (exit code
   * 1, as its status's `lastState` says), and the kubelet starts it again, so this run becomes the
   * previous one (`kubectl logs --previous`) and its follow streams end; the new run writes how it
   * starts. `fresh`: the run that crashes is written from its start too (the seed).
   */
  crashRun(namespace: string, name: string, at = Date.now(), opts: { container?: string; fresh?: boolean } = {}): void {
    const container = opts.container ?? 'main';
    let t = at;
    const write = (texts: readonly string[]) => {
      for (const text of texts) {
        this.server.podLogs.append(namespace, name, container, `${new Date(t).toISOString()} ${text}`, t);
        t += 40;
      }
    };
    if (opts.fresh) write(LEDGER_START);
    write(LEDGER_CRASH);
    this.server.podLogs.restart(namespace, name, container);
    write(LEDGER_START);
  }

  /** Replaces the Pod's status (phase, readiness, restarts); keeps its uid, labels and owner. */
  updatePod(namespace: string, name: string, opts: PodOptions): KubeObjectJson {
    const current = this.server.get('pods', namespace, name);
    if (!current) throw new Error(`updatePod: no pod ${namespace}/${name}`);
    const next = podObject(namespace, name, { labels: current.metadata.labels, ...opts });
    return this.server.update('pods', { ...current, status: next.status });
  }

  deletePod(namespace: string, name: string): KubeObjectJson | undefined {
    return this.server.delete('pods', namespace, name);
  }

  /** A Deployment with `replicas`, all available unless `available` says otherwise (then progressing). */
  createDeployment(namespace: string, name: string, replicas: number, available = replicas): KubeObjectJson {
    return this.server.create('deployments.apps', deploymentObject(namespace, name, replicas, available));
  }

  /**
   * The Deployment's progress deadline passes without progress: its controller sets
   * `Progressing=False` with reason ProgressDeadlineExceeded (replicas unchanged), as
   * `kubectl rollout status` then reports "exceeded its progress deadline".
   */
  stallDeployment(namespace: string, name: string): KubeObjectJson {
    const current = this.server.get('deployments.apps', namespace, name);
    if (!current) throw new Error(`stallDeployment: no deployment ${namespace}/${name}`);
    const st = current.status as { conditions?: { type: string }[] };
    const conditions = (st.conditions ?? []).filter((c) => c.type !== 'Progressing');
    conditions.push(progressingCondition('stuck', `${name}-${hashOf(name)}`));
    return this.server.update('deployments.apps', { ...current, status: { ...st, conditions } });
  }

  scaleDeployment(namespace: string, name: string, replicas: number, available = replicas): KubeObjectJson {
    const current = this.server.get('deployments.apps', namespace, name);
    if (!current) throw new Error(`scaleDeployment: no deployment ${namespace}/${name}`);
    const next = deploymentObject(namespace, name, replicas, available, current.metadata.labels);
    return this.server.update('deployments.apps', { ...current, spec: { ...(current.spec as object), replicas }, status: next.status });
  }

  /**
   * An Event about `objectName`. `opts.count` repeats (default 1), `opts.lastSeenAgoMs` when it
   * was last seen (default now; the first sighting a minute per repeat before it).
   */
  createEvent(
    namespace: string,
    objectName: string,
    objectKind: string,
    reason: string,
    message: string,
    type: 'Normal' | 'Warning' = 'Normal',
    opts: { count?: number; lastSeenAgoMs?: number } = {},
  ): KubeObjectJson {
    const count = opts.count ?? 1;
    const last = Date.now() - (opts.lastSeenAgoMs ?? 0);
    const stamp = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
    // The uid and apiVersion of the object as it is now, as the real event recorders set them (describe finds events by uid).
    const served = INVOLVED_RESOURCES[objectKind];
    const involved = served ? this.server.get(served.resource, namespace, objectName) : undefined;
    return this.server.create('events', {
      metadata: { namespace, generateName: `${objectName}.` },
      involvedObject: { kind: objectKind, namespace, name: objectName, ...(served ? { apiVersion: served.apiVersion } : {}), ...(involved ? { uid: involved.metadata.uid } : {}) },
      reason,
      message,
      type,
      source: { component: reason === 'FailedScheduling' || reason === 'Scheduled' ? 'default-scheduler' : 'kubelet', host: 'node-1' },
      count,
      firstTimestamp: stamp(last - (count - 1) * 60_000),
      lastTimestamp: stamp(last),
    });
  }

  /** Bumps `count` and `lastTimestamp` of the newest Event of `objectName` with `reason`, as the kubelet does for repeats; creates it when there is none. */
  repeatEvent(namespace: string, objectName: string, objectKind: string, reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): KubeObjectJson {
    const existing = this.server
      .list('events', namespace)
      .filter((e) => (e.involvedObject as { name?: string } | undefined)?.name === objectName && e.reason === reason)
      .pop();
    if (!existing) return this.createEvent(namespace, objectName, objectKind, reason, message, type);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return this.server.update('events', { ...existing, count: ((existing.count as number) ?? 1) + 1, lastTimestamp: now, message });
  }

  /**
   * Sets `status.availableReplicas`/`readyReplicas` of every Deployment and ReplicaSet to the
   * ready Pods they own (ReplicaSets by owner reference, Deployments through their ReplicaSets);
   * writes only what changed.
   */
  reconcileWorkloads(): void {
    const pods = this.server.list('pods');
    const readyOf = (p: KubeObjectJson) => ((p.status as { containerStatuses?: { ready?: boolean }[] } | undefined)?.containerStatuses ?? []).every((c) => c.ready) && (p.status as { phase?: string }).phase === 'Running';
    const perDeployment = new Map<string, number>();
    for (const rs of this.server.list('replicasets.apps')) {
      const ns = rs.metadata.namespace!;
      const owned = pods.filter((p) => p.metadata.namespace === ns && ownerName(p) === rs.metadata.name);
      const ready = owned.filter(readyOf).length;
      const deployment = ownerName(rs);
      if (deployment) perDeployment.set(`${ns}/${deployment}`, (perDeployment.get(`${ns}/${deployment}`) ?? 0) + ready);
      const st = rs.status as { readyReplicas?: number; availableReplicas?: number; replicas?: number };
      if (st.availableReplicas !== ready || st.replicas !== owned.length) {
        this.server.update('replicasets.apps', { ...rs, status: { ...st, replicas: owned.length, fullyLabeledReplicas: owned.length, readyReplicas: ready, availableReplicas: ready } });
      }
    }
    for (const d of this.server.list('deployments.apps')) {
      const key = `${d.metadata.namespace}/${d.metadata.name}`;
      if (!perDeployment.has(key)) continue;
      const ready = perDeployment.get(key)!;
      const st = d.status as { availableReplicas?: number; readyReplicas?: number; unavailableReplicas?: number };
      const replicas = (d.spec as { replicas?: number }).replicas ?? 1;
      if (st.availableReplicas !== ready) {
        this.server.update('deployments.apps', { ...d, status: { ...st, readyReplicas: ready, availableReplicas: ready, unavailableReplicas: Math.max(0, replicas - ready) } });
      }
    }
  }

  // ---- faults -------------------------------------------------------------------------------

  /** The types with at least one open watch right now (what a client is watching), by server name. */
  watchedTypes(): string[] {
    return SERVED_TYPES.filter((r) => this.server.openWatches(r) > 0);
  }

  /**
   * An expiry as a compacted server shows it: the next watch request of each of `resources` gets
   * an ERROR event 410 Expired (the real server's wording), then every open watch is ended, so
   * that every informer re-watches from its last resourceVersion, is told it is too old, and
   * relists. `during` runs right after the watches end and before any informer can re-watch
   * (the server handles requests on this same event loop): changes made there reach the
   * informers only through the relist. Returns how many watches were ended. With `clearAfterMs`,
   * the 410s no watch has met by then are removed (a type nobody was watching keeps none armed).
   */
  expire(resources: readonly string[] = DEFAULT_WATCHED, during?: () => void, clearAfterMs?: number): number {
    const faults = resources.map((resource) =>
      this.server.injectFault(
        { type: 'errorEvent', code: 410, reason: 'Expired', message: `too old resource version: 1 (${this.server.resourceVersion})` },
        { verb: 'watch', resource, times: Math.max(1, this.server.openWatches(resource)) },
      ),
    );
    const ended = this.server.dropWatches('end');
    if (clearAfterMs !== undefined) setTimeout(() => faults.forEach((f) => f.remove()), clearAfterMs).unref();
    during?.();
    this.log(`expiry: ended ${ended} watches; the next watch of ${resources.join(', ')} gets 410 Expired (${faults.length} faults armed)`);
    return ended;
  }

  /**
   * A dropped connection: every open watch is reset (TCP RST), and the next `refusals` watch
   * requests per watched type are refused too (the connection closed before any answer), so the
   * informers back off a few times before they are back. Returns how many watches were reset;
   * the refusals not used up are removed after `clearAfterMs`.
   */
  dropConnections(refusals = 2, clearAfterMs = 20_000): number {
    const handles: FaultHandle[] = [];
    if (refusals > 0) {
      for (const r of this.watchedTypes()) handles.push(this.server.injectFault({ type: 'refuse' }, { verb: 'watch', resource: r, times: refusals * this.server.openWatches(r) }));
    }
    const reset = this.server.dropWatches('reset');
    if (handles.length > 0) setTimeout(() => handles.forEach((h) => h.remove()), clearAfterMs).unref();
    this.log(`dropped connection: reset ${reset} watches, ${refusals} refusals armed per watch`);
    return reset;
  }

  /**
   * Refuses `resource` (a server name: 'events', 'deployments.apps') with 403 Forbidden on every
   * list and watch until lifted, the way RBAC refuses a user; its open watches are ended so that
   * the refusal is met at once.
   */
  forbid(resource: string): LiftableFault {
    const [plural, ...groupParts] = resource.split('.');
    const group = groupParts.join('.');
    const message = (verb: string) => `${resource} is forbidden: User "${SANDBOX_USER}" cannot ${verb} resource "${plural}" in API group "${group}" at the cluster scope`;
    const handles = (['list', 'watch'] as const).map((verb) =>
      this.server.injectFault({ type: 'status', code: 403, reason: 'Forbidden', message: message(verb) }, { verb, resource, times: Infinity }),
    );
    const ended = this.server.dropWatches('end', resource);
    this.log(`forbidden: ${resource} gets 403 on every list and watch (${ended} watches ended)`);
    return {
      lift: () => {
        handles.forEach((h) => h.remove());
        this.log(`forbidden lifted: ${resource} is allowed again`);
      },
    };
  }

  /** The server stops listening and drops every connection: clients get ECONNREFUSED. */
  async goDown(): Promise<void> {
    await this.server.goDown();
    this.log('outage: the API server is down (connections refused)');
  }

  /** Listens again on the same port; with `compact`, the history is gone, as after a real restart. */
  async comeUp(opts: { compact?: boolean } = {}): Promise<void> {
    await this.server.comeUp(opts);
    this.log(`outage over: the API server is back on ${this.server.url}${opts.compact ? ' with an empty watch cache' : ''}`);
  }

  /**
   * Deletes the Pod and creates it again under the same name (a StatefulSet replacing it): the
   * same name, a new uid. Returns both uids.
   */
  recreatePod(namespace: string, name: string, opts: PodOptions = {}): { oldUid: string | undefined; newUid: string | undefined } {
    const old = this.server.get('pods', namespace, name);
    if (old) this.server.delete('pods', namespace, name);
    const labels = old?.metadata.labels ?? opts.labels;
    const owner = (old?.metadata.ownerReferences as OwnerRef[] | undefined)?.[0] ?? opts.owner;
    const image = ((old?.spec as { containers?: { image?: string }[] } | undefined)?.containers?.[0]?.image) ?? opts.image;
    const ports = ((old?.spec as { containers?: { ports?: PodOptions['ports'] }[] } | undefined)?.containers?.[0]?.ports) ?? opts.ports;
    const created = this.createPod(namespace, name, { ...opts, labels, owner, image, ports });
    this.createEvent(namespace, name, 'Pod', 'Scheduled', `Successfully assigned ${namespace}/${name} to node-1`);
    return { oldUid: old?.metadata.uid, newUid: created.metadata.uid };
  }

  // ---- pod logs -----------------------------------------------------------------------------

  /** Ends every open log stream (`follow=true`) with an RST ('reset') or cleanly ('end'); returns how many. */
  dropLogConnections(how: 'reset' | 'end' = 'reset'): number {
    const dropped = this.server.podLogs.drop(how);
    this.log(`dropped log connections: ${how === 'reset' ? 'reset' : 'ended'} ${dropped} log streams`);
    return dropped;
  }

  /** Open log streams stop receiving lines but stay open (a silent connection); returns how many. */
  silenceLogs(): number {
    const silenced = this.server.podLogs.silence();
    this.log(`silenced ${silenced} log streams`);
    return silenced;
  }

  /** The container exits and starts again: its log becomes `previous`, its streams end, restartCount goes up. */
  restartContainer(namespace: string, name: string, container = 'main'): void {
    const pod = this.server.get('pods', namespace, name);
    if (!pod) throw new Error(`restartContainer: no pod ${namespace}/${name}`);
    this.server.podLogs.restart(namespace, name, container);
    const statuses = ((pod.status as { containerStatuses?: Array<{ name: string; restartCount?: number; containerID?: string }> } | undefined)?.containerStatuses ?? []).map((s) =>
      s.name === container ? { ...s, restartCount: (s.restartCount ?? 0) + 1, containerID: `containerd://${name}-${container}-${(s.restartCount ?? 0) + 1}` } : s,
    );
    this.server.update('pods', { ...pod, status: { ...(pod.status as object), containerStatuses: statuses } });
    this.log(`restarted container ${container} of ${namespace}/${name}`);
  }

  /** Restarts every container someone follows the log of now; returns them as `namespace/pod/container`. */
  restartFollowedContainers(): string[] {
    const followed = this.server.podLogs.followedContainers();
    for (const c of followed) this.restartContainer(c.namespace, c.pod, c.container);
    return followed.map((c) => `${c.namespace}/${c.pod}/${c.container}`);
  }

  /** Log streams open now (follow=true responses). */
  get openLogStreams(): number {
    return this.server.podLogs.openStreams;
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
   * Steady change every `everyMs`, as a small busy cluster has: job Pods in `batch` come,
   * run and complete (now and then one fails); the crash-looping `ledger` Pod restarts and backs
   * off again; a `web` Pod's readiness probe flaps (and the Deployment and ReplicaSet follow);
   * a ConfigMap's revision goes up; a Widget reconciles; Events record it all (the oldest are
   * deleted beyond 60). Stops with stopChurn() or stop().
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

  /** One step of the churn (also callable directly, for tests). */
  churn(): void {
    const step = ++this.churnStep;
    this.churnJobs(step);

    // The crash loop: a restart every 10 steps, running (not ready) for one step, then back-off.
    const crasher = 'ledger-6d5f7c8b9-z9w4c';
    const pod = this.server.get('pods', 'payments', crasher);
    if (pod) {
      const restarts = ((pod.status as { containerStatuses?: { restartCount?: number }[] }).containerStatuses?.[0]?.restartCount ?? 0);
      if (step % 10 === 0) {
        this.crashRun('payments', crasher);
        this.updatePod('payments', crasher, { phase: 'Running', ready: false, restarts: restarts + 1 });
        this.repeatEvent('payments', crasher, 'Pod', 'Started', 'Started container main');
      } else if (step % 10 === 1 && step > 1) {
        this.updatePod('payments', crasher, { phase: 'Running', waitingReason: 'CrashLoopBackOff', restarts });
        this.repeatEvent('payments', crasher, 'Pod', 'BackOff', `Back-off restarting failed container main in pod ${crasher}_payments`, 'Warning');
      }
    }

    // A flapping readiness probe on one web replica.
    const flapper = 'web-7d9f8b6c4-q8m5z';
    if (this.server.get('pods', 'shop', flapper) && (step % 8 === 0 || step % 8 === 2)) {
      const ready = step % 8 === 2;
      this.updatePod('shop', flapper, { phase: 'Running', ready });
      if (!ready) this.repeatEvent('shop', flapper, 'Pod', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 'Warning');
    }

    if (step % 4 === 0) {
      const cm = this.server.get('configmaps', 'shop', 'web-config');
      // As a config reloader would write it: managedFields name it (an edit raced by it says who changed the object).
      if (cm) this.server.update('configmaps', { ...cm, data: { ...(cm.data as Record<string, string>), REVISION: String(step / 4) } }, { manager: 'config-reloader' });
    }

    // Someone changes the ledger's settlement window by hand and, later, back: the workspace's
    // manifests/payments/ledger-config.yaml drifts and returns (its lens follows).
    if (step % 10 === 5) {
      const cm = this.server.get('configmaps', 'payments', 'ledger-config');
      const data = (cm?.data ?? {}) as Record<string, string>;
      if (cm) this.server.update('configmaps', { ...cm, data: { ...data, SETTLEMENT_WINDOW: data.SETTLEMENT_WINDOW === '15m' ? '30m' : '15m' } }, { manager: 'ops-console' });
    }

    // The custom resource reconciles: a spec change, then Ready again.
    if (step % 7 === 0 || step % 7 === 2) {
      const w = this.server.get('widgets.example.com', 'shop', 'blue-widget');
      if (w) {
        const generation = (w.metadata.generation as number | undefined) ?? 1;
        if (step % 7 === 0) {
          const size = 2 + (step % 3);
          this.server.update('widgets.example.com', { ...w, metadata: { ...w.metadata, generation: generation + 1 }, spec: { ...(w.spec as object), size }, status: { phase: 'Reconciling', observedGeneration: generation } });
        } else {
          this.server.update('widgets.example.com', { ...w, status: { phase: 'Ready', observedGeneration: generation } });
        }
      }
    }

    this.reconcileWorkloads();
    this.pruneEvents(60);
  }

  /** A job Pod in `batch` every 5 steps: Pending, Running 2 steps later, done 3 steps after; at most 2 finished ones kept. */
  private churnJobs(step: number): void {
    if (step % 5 === 1) {
      const serial = ++this.jobSerial;
      const job = `report-${29013900 + serial}`;
      const name = `${job}-${randomSuffix(serial)}`;
      this.createPod('batch', name, { phase: 'Pending', labels: { 'job-name': job, app: 'report' }, owner: { kind: 'Job', name: job, apiVersion: 'batch/v1' }, image: 'registry.example.com/batch/report:1.0' });
      this.createEvent('batch', name, 'Pod', 'Scheduled', `Successfully assigned batch/${name} to node-1`);
    }
    for (const p of this.server.list('pods', 'batch')) {
      if (!p.metadata.name.startsWith('report-')) continue;
      const serial = Number(/^report-(\d+)-/.exec(p.metadata.name)?.[1] ?? 0) - 29013900;
      const born = (serial - 1) * 5 + 1;
      const age = step - born;
      const phase = (p.status as { phase?: string }).phase;
      if (age === 2 && phase === 'Pending') {
        this.updatePod('batch', p.metadata.name, { phase: 'Running' });
        this.createEvent('batch', p.metadata.name, 'Pod', 'Started', 'Started container main');
      } else if (age === 5 && phase === 'Running') {
        const fails = serial % 4 === 0;
        this.updatePod('batch', p.metadata.name, { phase: fails ? 'Failed' : 'Succeeded' });
        if (fails) this.createEvent('batch', p.metadata.name, 'Pod', 'Failed', 'Error: container main exited with code 2', 'Warning');
      }
    }
    const finished = this.server
      .list('pods', 'batch')
      .filter((p) => p.metadata.name.startsWith('report-') && ['Succeeded', 'Failed'].includes((p.status as { phase?: string }).phase ?? ''))
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
    for (const p of finished.slice(0, Math.max(0, finished.length - 2))) this.deletePod('batch', p.metadata.name);
  }

  /** Deletes the oldest Events beyond `max`, as the server's event TTL would. */
  private pruneEvents(max: number): void {
    const events = this.server.list('events').sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
    for (const e of events.slice(0, Math.max(0, events.length - max))) this.server.delete('events', e.metadata.namespace, e.metadata.name);
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Closes the server and every connection; removes the temporary folder it made. Safe twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopChurn();
    this.logWriter.stop();
    this.endpointSlices.stop();
    this.workloads.stop();
    await this.server.close();
    if (this.ownDir) fs.rmSync(this.ownDir, { recursive: true, force: true });
    this.log('stopped');
  }
}

function ownerName(obj: KubeObjectJson): string | undefined {
  return (obj.metadata.ownerReferences as OwnerRef[] | undefined)?.[0]?.name;
}

/** A stable, pod-like five-character suffix. */
function randomSuffix(seed: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += alphabet[x % alphabet.length];
    x = Math.floor(x / alphabet.length) + (i + 1) * 7919;
  }
  return out;
}

function ownerReferences(owner: OwnerRef | undefined): object[] | undefined {
  if (!owner) return undefined;
  return [{ apiVersion: owner.apiVersion ?? 'apps/v1', kind: owner.kind, name: owner.name, ...(owner.uid ? { uid: owner.uid } : {}), controller: true, blockOwnerDeletion: true }];
}

/** How the ledger starts (each run's first lines). */
const LEDGER_START = ['INFO  ledger 3.2.0 starting: settlement window=15m currency=EUR', 'INFO  connecting to postgres at postgres-0.payments.svc:5432'];
/** How its run ends: the error, the panic, exit code 1. */
const LEDGER_CRASH = ['ERROR could not load settlement state: relation "settlement_batches" does not exist', 'panic: settlement state unavailable', 'goroutine 1 [running]:', 'main.main()', '\t/src/cmd/ledger/main.go:48 +0x1d4', 'exit status 1'];

export function podObject(namespace: string, name: string, opts: PodOptions = {}): KubeObjectJson {
  const phase = opts.phase ?? 'Running';
  const running = phase === 'Running';
  const ready = !opts.waitingReason && (opts.ready ?? running);
  const state = opts.waitingReason
    ? { waiting: { reason: opts.waitingReason } }
    : running
      ? { running: { startedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') } }
      : phase === 'Succeeded'
        ? { terminated: { reason: 'Completed', exitCode: 0 } }
        : phase === 'Failed'
          ? { terminated: { reason: 'Error', exitCode: 1 } }
          : { waiting: { reason: 'ContainerCreating' } };
  const ownerRefs = ownerReferences(opts.owner);
  return {
    metadata: { namespace, name, labels: opts.labels ?? {}, ...(opts.annotations ? { annotations: opts.annotations } : {}), ...(ownerRefs ? { ownerReferences: ownerRefs } : {}) },
    spec: {
      nodeName: phase === 'Pending' ? undefined : 'node-1',
      restartPolicy: opts.owner?.kind === 'Job' ? 'Never' : 'Always',
      containers: [{ name: 'main', image: opts.image ?? 'registry.example.com/app:1.0', ...(opts.ports ? { ports: opts.ports } : {}) }],
    },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: [
        {
          name: 'main',
          ready,
          restartCount: opts.restarts ?? 0,
          state,
          // The last restart's end, which kubectl's RESTARTS shows as "6 (40s ago)".
          ...(opts.restarts ? { lastState: { terminated: { reason: 'Error', exitCode: 1, finishedAt: new Date(Date.now() - 40_000).toISOString().replace(/\.\d{3}Z$/, 'Z') } } } : {}),
        },
      ],
    },
  };
}

/**
 * A Deployment as its controller writes it: replicas, and the Available and Progressing
 * conditions (progressing while replicas are missing; `stuck`: past its progress deadline).
 */
export function deploymentObject(
  namespace: string,
  name: string,
  replicas: number,
  available: number,
  labels: Record<string, string> = { app: name },
  image = 'registry.example.com/app:1.0',
  opts: { stuck?: boolean; replicaSet?: string; ports?: PodOptions['ports'] } = {},
): KubeObjectJson {
  const replicaSet = opts.replicaSet ?? `${name}-${hashOf(name)}`;
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const availableCondition =
    available >= replicas
      ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastUpdateTime: now, lastTransitionTime: now }
      : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastUpdateTime: now, lastTransitionTime: now };
  const progress = opts.stuck ? 'stuck' : available >= replicas ? 'done' : 'progressing';
  return {
    metadata: { namespace, name, labels, generation: 1 },
    spec: { replicas, progressDeadlineSeconds: 600, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'main', image, ...(opts.ports ? { ports: opts.ports } : {}) }] } } },
    status: {
      observedGeneration: 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: available,
      availableReplicas: available,
      ...(available < replicas ? { unavailableReplicas: replicas - available } : {}),
      conditions: [availableCondition, progressingCondition(progress, replicaSet)],
    },
  };
}

/** The Progressing condition the deployment controller writes: done, still progressing, or stuck past the deadline. */
function progressingCondition(progress: 'done' | 'progressing' | 'stuck', replicaSet: string): { type: string } & Record<string, string> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  switch (progress) {
    case 'done':
      return { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${replicaSet}" has successfully progressed.`, lastUpdateTime: now, lastTransitionTime: now };
    case 'progressing':
      return { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${replicaSet}" is progressing.`, lastUpdateTime: now, lastTransitionTime: now };
    case 'stuck':
      return { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${replicaSet}" has timed out progressing.`, lastUpdateTime: now, lastTransitionTime: now };
  }
}

/** A stable, pod-template-hash-like suffix for a Deployment created without one. */
function hashOf(name: string): string {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return randomSuffix(h % 100_000).slice(0, 5) + String(h % 10_000).padStart(4, '0');
}

export function replicaSetObject(namespace: string, name: string, labels: Record<string, string>, replicas: number, available: number, owner: OwnerRef): KubeObjectJson {
  return {
    metadata: { namespace, name, labels, generation: 1, ownerReferences: ownerReferences(owner) },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels } } },
    status: { observedGeneration: 1, replicas, fullyLabeledReplicas: replicas, readyReplicas: available, availableReplicas: available },
  };
}
