import { KubeConfig } from '@kubernetes/client-node';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { clusterKeyOf } from '../../src/cluster/context-identity';
import type { KubeObject, KubeTransport } from '../../src/informer';
import { ClusterMetrics, type MetricsChange } from '../../src/metrics';
import { FakeApiServer, NODES, type MetricsMode, type RequestRecord } from '../support/apiserver';
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
    server.metrics.mode = mode;
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig({ context: 'metrics', user: 'metrics-user' }));
    const registry = new ClusterRegistry(false);
    const transport = kubeConfigTransportFactoryWith(registry, { http2 })({ contextName: 'metrics', clusterKey: clusterKeyOf(kc), kubeConfig: kc });
    return new MetricsRig(server, transport);
  }

  pod(namespace: string, name: string, opts: PodOptions = {}): KubeObject {
    const created = this.server.create('pods', podObject(namespace, name, opts));
    return created as unknown as KubeObject;
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
    this.transport.dispose();
    await this.server.close();
  }
}
