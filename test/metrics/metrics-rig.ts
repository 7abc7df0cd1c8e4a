import { KubeConfig } from '@kubernetes/client-node';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { clusterKeyOf } from '../../src/cluster/context-identity';
import type { KubeObject, KubeTransport } from '../../src/informer';
import { ClusterMetrics, MetricsHub, type MetricsChange } from '../../src/metrics';
import { FakeApiServer, NODES, REPLICA_SETS, type MetricsMode, type RequestRecord } from '../support/apiserver';
import { ManualClock } from '../support/manual-clock';
import { podObject, type PodOptions } from '../../scripts/sandbox/simulated-cluster';

export const PROTOCOLS = [
  { http2: true, label: 'HTTP/2' },
  { http2: false, label: 'HTTP/1.1' },
] as const;

/**
 * The local API server serving metrics.k8s.io, our real transport to it (HTTP/2 or HTTP/1.1), and
 * a ClusterMetrics on a manual clock: time moves only when the test moves it, and every round
 * of requests is awaited (`round()`), so nothing depends on how fast the machine is.
 */
export class MetricsRig {
  readonly clock = new ManualClock(Date.now());
  readonly metrics: ClusterMetrics;
  private readonly changes: MetricsChange[] = [];
  private waiters: (() => void)[] = [];
  private readonly hubs: MetricsHub[] = [];

  private constructor(
    readonly server: FakeApiServer,
    readonly transport: KubeTransport,
  ) {
    server.metrics.now = () => this.clock.now();
    this.metrics = new ClusterMetrics({ transport: () => transport, clock: this.clock, intervalMs: 15_000 });
    this.metrics.onDidChange((c) => {
      this.changes.push(c);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async start(http2: boolean, mode: MetricsMode = 'served'): Promise<MetricsRig> {
    const server = await FakeApiServer.start({ http2 });
    server.defineResource(NODES);
    server.defineResource(REPLICA_SETS);
    server.metrics.mode = mode;
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig({ context: 'metrics', user: 'metrics-user' }));
    const registry = new ClusterRegistry(false);
    const transport = kubeConfigTransportFactoryWith(registry, { http2 })({ contextName: 'metrics', clusterKey: clusterKeyOf(kc), kubeConfig: kc });
    return new MetricsRig(server, transport);
  }

  /** A pod as the simulated cluster makes them; `resources` go on its container. */
  pod(namespace: string, name: string, opts: PodOptions & { resources?: object } = {}): KubeObject {
    const json = podObject(namespace, name, opts) as unknown as { spec: { containers: { resources?: object }[] } };
    if (opts.resources) json.spec.containers[0].resources = opts.resources;
    return this.server.create('pods', json) as unknown as KubeObject;
  }

  /** A hub on the same transport and clock (context "" and any other name reach the same server). */
  hub(): MetricsHub {
    const hub = new MetricsHub({ transportOf: () => this.transport, clock: this.clock, intervalMs: 15_000 });
    this.hubs.push(hub);
    hub.onDidChange((e) => {
      this.changes.push(e.change);
      for (const w of this.waiters.splice(0)) w();
    });
    return hub;
  }

  node(name: string): KubeObject {
    return this.server.create('nodes', { metadata: { name }, status: { allocatable: { cpu: '4', memory: '16Gi' } } }) as unknown as KubeObject;
  }

  /** The metrics requests the server saw. */
  metricsRequests(): RequestRecord[] {
    return this.server.requests.filter((r) => r.path.startsWith('/apis/metrics.k8s.io/'));
  }

  /** Moves the clock by `ms` and waits for the round it started to end (its change event). */
  async advanceAndSettle(ms: number): Promise<MetricsChange> {
    const before = this.changes.length;
    const settled = new Promise<void>((resolve) => this.waiters.push(resolve));
    this.clock.advance(ms);
    if (this.changes.length === before) await settled;
    return this.changes[this.changes.length - 1];
  }

  async close(): Promise<void> {
    this.metrics.dispose();
    for (const h of this.hubs) h.dispose();
    this.transport.dispose();
    await this.server.close();
  }
}
