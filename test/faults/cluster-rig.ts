import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterRegistry, type SharedCluster } from '../../src/connection/registry/cluster-registry';
import { clusterKeyOf } from '../../src/cluster/context-identity';
import { acceleratedClock, seededRandom, type Clock } from '../../src/base/clock';
import { Informer, type InformerOptions } from '../../src/informer/informer';
import { KubeConfigTransport, type KubeConfigTransportOptions } from '../../src/connection/transport/kubeconfig-transport';
import type { ResourceType } from '../../src/informer/resource-type';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import { FakeApiServer, type FakeApiServerOptions } from '../support/apiserver';
import { TcpRelay } from '../support/tcp-relay';
import { configmaps, until } from './rig';

/**
 * The connection rows (F23 to F25, F45, F49): several informers of one cluster
 * on our real transport, sharing the cluster through a registry, against the local API server,
 * optionally behind a relay that freezes connections. Time limits are judged on the injected
 * clock; this file runs it only `scale` times faster than real time, so that the limits
 * (a few seconds) stay far above what a loaded machine adds to a loopback round trip.
 */
export class ClusterRig {
  readonly informers: Informer[] = [];
  readonly lifecycle = new Map<Informer, TimedLifecycleEvent[]>();
  readonly registry = new ClusterRegistry(false);
  readonly clock: Clock;
  transport!: KubeConfigTransport;
  /** What the rig's transport shares with the cluster (its reachability, its wake signal). */
  cluster!: SharedCluster;
  relay: TcpRelay | undefined;

  private constructor(
    readonly server: FakeApiServer,
    readonly scale: number,
    clock?: Clock,
  ) {
    this.clock = clock ?? acceleratedClock(scale, seededRandom(7));
  }

  static async start(opts: {
    scale: number;
    namespaces: number;
    relay?: boolean;
    http2?: boolean;
    types?: ResourceType[];
    informer?: Partial<InformerOptions>;
    transport?: KubeConfigTransportOptions;
    server?: FakeApiServerOptions;
    /** The clock of the informers and the transport; default one `scale` times faster than real time. */
    clock?: Clock;
  }): Promise<ClusterRig> {
    const server = await FakeApiServer.start({ timeScale: 1000 / opts.scale, http2: opts.http2 ?? false, ...opts.server });
    const rig = new ClusterRig(server, opts.scale, opts.clock);
    let config = server.kubeconfig();
    if (opts.relay) {
      rig.relay = await TcpRelay.start(Number(new URL(server.url).port));
      config = rig.relay.rewrite(config, server.url);
    }
    const kc = new KubeConfig();
    kc.loadFromString(config);
    const lease = rig.registry.acquire(clusterKeyOf(kc));
    rig.cluster = lease.cluster;
    rig.transport = new KubeConfigTransport(kc, { lease, clock: rig.clock, ...opts.transport });
    for (let i = 0; i < opts.namespaces; i++) {
      server.create('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: '0' } });
      for (const type of opts.types ?? [configmaps]) rig.addInformer(`ns-${i}`, { type, ...opts.informer });
    }
    return rig;
  }

  /** Starts one more informer on the rig's transport (a configmap informer by default). */
  addInformer(namespace: string, options: Partial<InformerOptions> = {}): Informer {
    const informer = new Informer({ transport: this.transport, type: configmaps, namespace, clock: this.clock, requestTimeoutMs: 600_000, ...options });
    const events: TimedLifecycleEvent[] = [];
    informer.onLifecycle((e) => events.push(e));
    this.lifecycle.set(informer, events);
    this.informers.push(informer);
    informer.start();
    return informer;
  }

  /** The first lifecycle event of `type` after `since` of every informer (undefined where there is none). */
  firstAfter(type: TimedLifecycleEvent['type'], since: number): (TimedLifecycleEvent | undefined)[] {
    return this.informers.map((i) => this.lifecycle.get(i)!.find((e) => e.type === type && e.at > since));
  }

  async synced(): Promise<void> {
    for (const i of this.informers) assert.equal(await i.waitForSync(60_000 * this.scale), true);
    await until(() => this.informers.every((i) => i.state.phase === 'watching'), 'every informer watching');
  }

  /** Every configmap informer's cache holds `name` with `value` in its namespace. */
  seen(name: string, value: string): boolean {
    return this.informers.filter((i) => i.options.type.resource === 'configmaps').every((i) => [...i.store.values()].some((o) => o.metadata.name === name && (o as { data?: { v?: string } }).data?.v === value));
  }

  async close(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stop()));
    this.transport.dispose();
    this.registry.dispose();
    await this.relay?.close();
    await this.server.close();
  }
}
