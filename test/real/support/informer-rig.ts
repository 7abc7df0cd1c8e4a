/**
 * Our informers on our real transport against the real control plane: the code under test as
 * the extension wires it (a ClusterRegistry lease, credentials shared per user through a
 * CredentialRegistry), over HTTP/2 or HTTP/1.1, optionally through a TcpRelay the test controls.
 * Each watch gets a namespace of its own, its ConfigMaps, an EventRecorder and its lifecycle log.
 */
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { systemClock } from '../../../src/base/clock';
import { Informer, type InformerOptions } from '../../../src/informer/informer';
import type { InformerPhase } from '../../../src/informer/informer-state';
import type { LifecycleEvent, TimedLifecycleEvent } from '../../../src/informer/lifecycle-event';
import type { ResourceType } from '../../../src/informer/resource-type';
import { collectionPath } from '../../../src/informer/resource-type';
import { StreamingListMemory } from '../../../src/informer/streaming-list-memory';
import { KubeConfigTransport, type KubeConfigTransportOptions } from '../../../src/connection/transport/kubeconfig-transport';
import { ClusterRegistry, type SharedCluster } from '../../../src/connection/registry/cluster-registry';
import { CredentialRegistry } from '../../../src/connection/credentials/credential-registry';
import { clusterKeyOf } from '../../../src/cluster/context-identity';
import { EventRecorder, identity, identityLines } from '../../support/event-recorder';
import type { TcpRelay } from '../../support/tcp-relay';
import { until } from '../../support/until';
import type { ConfigMaps } from './cluster-setup';
import type { ControlPlane } from './control-plane';
import type { KubeconfigUser } from './kubeconfig';

/** The two ways our transport talks to a server, each row runs on both. */
export const PROTOCOLS = [
  { protocol: 'h2', label: 'HTTP/2', http2: true },
  { protocol: 'http/1.1', label: 'HTTP/1.1', http2: false },
] as const;

export type Protocol = (typeof PROTOCOLS)[number]['protocol'];

export const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

/** A bound for waits on the real server: generous, only a hang reaches it. */
export const REAL_BOUND_MS = 45_000;

/**
 * The informer options of the real tier unless a test sets them: the system clock (the server's
 * time is real), and a backoff capped at 2 s so that outages and refusals take seconds, not the
 * 30 s of the default cap. Everything else is the product's default.
 */
export const REAL_INFORMER_DEFAULTS: Partial<InformerOptions> = {
  clock: systemClock,
  backoff: { initialMs: 200, maxMs: 2000, spreadMs: 400 },
};

export interface RealRigOptions {
  plane: ControlPlane;
  protocol: Protocol;
  /** Default 'admin'. */
  user?: 'admin' | 'reader' | 'limited' | KubeconfigUser;
  /** Reach the server through a relay (`rig.relay`). */
  relay?: boolean;
  /** One informer per namespace; default 1. Fresh namespaces unless `namespaces` names them. */
  watches?: number;
  /** Existing namespaces to watch (one informer each) instead of fresh ones. */
  namespaces?: string[];
  /** ConfigMaps created in each namespace before the informers start. */
  initialObjects?: number;
  type?: ResourceType;
  informer?: Partial<InformerOptions>;
  transport?: Partial<KubeConfigTransportOptions>;
  /** Do not start the informers. */
  noStart?: boolean;
}

/** One informer of the rig with what it recorded. */
export interface RigWatch {
  readonly namespace: string;
  readonly informer: Informer;
  readonly recorder: EventRecorder;
  readonly lifecycle: TimedLifecycleEvent[];
  readonly objects: ConfigMaps;
}

export class RealRig {
  readonly watches: RigWatch[] = [];
  readonly clusters = new ClusterRegistry(false);
  readonly credentials = new CredentialRegistry({ clock: systemClock });
  readonly streamingListMemory = new StreamingListMemory(systemClock);
  transport!: KubeConfigTransport;
  /** What the rig's transport shares with its cluster (reachability, wake). */
  cluster!: SharedCluster;
  relay: TcpRelay | undefined;
  kubeconfig = '';

  private constructor(
    readonly plane: ControlPlane,
    readonly type: ResourceType,
  ) {}

  static async start(o: RealRigOptions): Promise<RealRig> {
    const rig = new RealRig(o.plane, o.type ?? configmaps);
    try {
      if (o.relay) rig.relay = await o.plane.relay();
      rig.kubeconfig = o.plane.kubeconfig(o.user ?? 'admin', { via: rig.relay });
      const kc = new KubeConfig();
      kc.loadFromString(rig.kubeconfig);
      const credentials = rig.credentials.acquire(kc);
      const lease = rig.clusters.acquire(clusterKeyOf(kc));
      rig.cluster = lease.cluster;
      rig.transport = new KubeConfigTransport(kc, {
        http2: o.protocol === 'h2',
        clock: systemClock,
        lease,
        credentials,
        ...o.transport,
      });
      const namespaces = o.namespaces ?? (await Promise.all(Array.from({ length: o.watches ?? 1 }, () => o.plane.setup.namespace())));
      for (const namespace of namespaces) {
        const objects = o.plane.setup.configMaps(namespace);
        if (o.initialObjects) await objects.createMany(o.initialObjects);
        const informer = new Informer({
          transport: rig.transport,
          type: rig.type,
          namespace,
          streamingListMemory: rig.streamingListMemory,
          ...REAL_INFORMER_DEFAULTS,
          ...o.informer,
        });
        const watch: RigWatch = { namespace, informer, recorder: new EventRecorder(), lifecycle: [], objects };
        informer.addHandler(watch.recorder);
        informer.onLifecycle((e) => watch.lifecycle.push(e));
        rig.watches.push(watch);
      }
      if (!o.noStart) rig.start();
      return rig;
    } catch (err) {
      await rig.close();
      throw err;
    }
  }

  /** The first (often the only) watch. */
  get w(): RigWatch {
    return this.watches[0];
  }

  get informer(): Informer {
    return this.w.informer;
  }

  get objects(): ConfigMaps {
    return this.w.objects;
  }

  start(): void {
    for (const w of this.watches) w.informer.start();
  }

  /** Every informer synced and watching. */
  async synced(): Promise<void> {
    for (const w of this.watches) assert.equal(await w.informer.waitForSync(REAL_BOUND_MS), true, `${w.namespace}: the informer did not sync: ${w.informer.state.phase} ${w.informer.state.reason ?? ''}`);
    await until(() => this.watches.every((w) => w.informer.state.phase === 'watching'), () => `every informer watching (${this.phases()})`, REAL_BOUND_MS);
  }

  /**
   * docs/fault-matrix.md's convergence, against the real server: each informer's cache equals the
   * objects a LIST returns now (keys, uids, resourceVersions), and its handler events replayed
   * onto an empty map give the same.
   */
  async converged(watches: RigWatch[] = this.watches): Promise<void> {
    for (const w of watches) {
      const path = collectionPath(this.type, w.namespace);
      const cache = () => identityLines([...w.informer.store.values()].map(identity));
      const server = async () => identityLines((await this.plane.admin.list(path)).items.map((o) => identity(o as Parameters<typeof identity>[0])));
      const deadline = Date.now() + REAL_BOUND_MS;
      let expected = await server();
      while (!sameLines(cache(), expected) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        expected = await server();
      }
      assert.deepEqual(cache(), expected, `${w.namespace}: the cache differs from the server`);
      assert.deepEqual(identityLines(w.recorder.replay().values()), expected, `${w.namespace}: replayed handler events differ from the server`);
    }
  }

  /** Lifecycle events of one type (of the first watch unless given), optionally after `since` (clock ms). */
  events<T extends LifecycleEvent['type']>(type: T, opts: { watch?: RigWatch; since?: number } = {}): Extract<TimedLifecycleEvent, { type: T }>[] {
    const w = opts.watch ?? this.w;
    return w.lifecycle.filter((e): e is Extract<TimedLifecycleEvent, { type: T }> => e.type === type && (opts.since === undefined || e.at >= opts.since));
  }

  /** Waits until every informer (or `watch`) is in `phase`. */
  async phase(phase: InformerPhase, watch?: RigWatch): Promise<void> {
    const ws = watch ? [watch] : this.watches;
    await until(() => ws.every((w) => w.informer.state.phase === phase), () => `phase ${phase} (${this.phases()})`, REAL_BOUND_MS);
  }

  /** `namespace: phase (reason)` of every informer, for messages. */
  phases(): string {
    return this.watches.map((w) => `${w.namespace}: ${w.informer.state.phase}${w.informer.state.reason ? ` (${w.informer.state.reason})` : ''}`).join('; ');
  }

  async close(): Promise<void> {
    await Promise.all(this.watches.map((w) => w.informer.stop()));
    this.transport?.dispose();
    this.credentials.dispose();
    this.clusters.dispose();
    if (this.relay) await this.plane.closeRelay(this.relay);
  }
}

function sameLines(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
