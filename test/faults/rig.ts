import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock, seededRandom, systemClock, type Clock } from '../../src/base/clock';
import { Informer, type InformerOptions } from '../../src/informer/informer';
import type { InformerPhase } from '../../src/informer/informer-state';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { LifecycleEvent, TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import type { ResourceType } from '../../src/informer/resource-type';
import { StreamingListMemory } from '../../src/informer/streaming-list-memory';
import { CredentialRegistry } from '../../src/connection/credentials/credential-registry';
import { FakeApiServer, type FakeApiServerOptions } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { TcpRelay } from '../support/tcp-relay';
import { EventRecorder, identity, identityLines, type ObjectIdentity } from '../support/event-recorder';
import type { ClientUnderTest } from './client-under-test';
import { ConfigMapObjects } from './configmap-objects';
import type { FaultContext } from './scenario';

/**
 * How much faster than real time the tests run: the informer's clock and the server's
 * seconds are scaled by the same factor, so a 30 s backoff cap lasts 120 ms and a 5 to 10
 * minute watch lasts 1.2 to 2.4 s, while every duration keeps its real proportion.
 */
export const SCALE = 250;
/** Real milliseconds per server second at SCALE. */
export const SERVER_MS_PER_SECOND = 1000 / SCALE;

/**
 * How much faster than real time the transport's timers run by default. Far less than SCALE:
 * they judge real network round trips (a PING has 3 s to answer after a stream outlives its
 * timeout, 10 s after 15 s of silence), which a loaded machine stretches by tens of
 * milliseconds, and at SCALE a 3 s PING deadline would be 12 ms of real time. The rows about
 * these timers have their own tests (test/faults/connection.test.ts, silent-connections.test.ts).
 */
export const TRANSPORT_SCALE = 10;

/** Upper bound, in real milliseconds, for anything a test waits for. A bound, not a timing assertion. */
export const WAIT_BOUND_MS = 15_000;

export const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

export interface RigOptions {
  server?: FakeApiServerOptions;
  informer?: Partial<InformerOptions>;
  namespace?: string;
  /** Objects created before the informer starts. */
  initialObjects?: number;
  /** Seed for the clock's randomness (jitter, watch timeouts). */
  seed?: number;
  /** Do not start the informer. */
  noStart?: boolean;
  /**
   * The clock of the transport's timers (the HTTP/2 health check and the PINGs a stream's
   * evidence asks for, the HTTP/1.1 silence guard); by default one TRANSPORT_SCALE times faster
   * than real time. A stepping informer clock needs its own here: a PING timer firing mid-watch
   * would step it.
   */
  transportClock?: Clock;
  /** Reach the server through a TcpRelay that can freeze connections. */
  relay?: boolean;
  /** Credentials from an exec plugin (the project's runner, shared through a CredentialRegistry) instead of a static token. */
  execCredentials?: boolean;
}

/** A fake API server on loopback, our informer on the real client stack, and its records. */
export class Rig extends ConfigMapObjects implements FaultContext {
  readonly recorder = new EventRecorder();
  readonly lifecycle: TimedLifecycleEvent[] = [];
  readonly clock: Clock;
  informer!: Informer;
  transport!: KubeConfigTransport;
  /** The cluster's memory of where the streaming list is unavailable (what the manager shares per context). */
  streamingListMemory!: StreamingListMemory;
  /** The middlebox in front of the server, when started with `relay`. */
  relay: TcpRelay | undefined;
  /** The exec plugin handing out the token, when started with `execCredentials`. */
  execPlugin: ExecPluginFixture | undefined;
  private credentials: CredentialRegistry | undefined;
  private constructor(server: FakeApiServer, namespace: string, seed: number, clock?: Clock) {
    super(server, namespace);
    this.clock = clock ?? acceleratedClock(SCALE, seededRandom(seed));
  }

  static async start(opts: RigOptions = {}): Promise<Rig> {
    const server = await FakeApiServer.start({ timeScale: SERVER_MS_PER_SECOND, ...opts.server });
    const rig = new Rig(server, opts.namespace ?? 'default', opts.seed ?? 1, opts.informer?.clock);
    for (let i = 0; i < (opts.initialObjects ?? 0); i++) rig.createObject();
    let config = server.kubeconfig();
    if (opts.execCredentials) {
      rig.execPlugin = new ExecPluginFixture(server.acceptedToken);
      config = rig.execPlugin.kubeconfig({ server: server.url, caPem: server.url.startsWith('https:') ? server.caPem : undefined });
      // The plugin is a real child process: its 30 s timeout runs on real time. On the informer's
      // clock (250x) it was 120 ms, less than a node child's start on a loaded machine, and every
      // run timed out (chaos seeds 7 and 131 never listed again under a load of 14).
      rig.credentials = new CredentialRegistry({ clock: rig.clock, runClock: systemClock });
    }
    if (opts.relay) {
      rig.relay = await TcpRelay.start(Number(new URL(server.url).port));
      config = rig.relay.rewrite(config, server.url);
    }
    const kc = new KubeConfig();
    kc.loadFromString(config);
    const transportClock = opts.transportClock ?? acceleratedClock(TRANSPORT_SCALE, seededRandom((opts.seed ?? 1) + 1));
    rig.transport = new KubeConfigTransport(kc, { clock: transportClock, credentials: rig.credentials?.acquire(kc) });
    rig.streamingListMemory = new StreamingListMemory(rig.clock);
    rig.informer = new Informer({
      transport: rig.transport,
      type: configmaps,
      namespace: rig.namespace,
      clock: rig.clock,
      // Generous per-request deadline: the machine may be loaded; tests that need a short one set it.
      requestTimeoutMs: 600_000,
      // Likewise for the streaming list's progress deadline (10 s = 40 ms real); F34 sets the default.
      watchListProgressMs: 120_000,
      streamingListMemory: rig.streamingListMemory,
      ...opts.informer,
    });
    rig.informer.addHandler(rig.recorder);
    rig.informer.onLifecycle((e) => rig.lifecycle.push(e));
    if (!opts.noStart) rig.informer.start();
    return rig;
  }

  get ours(): Rig {
    return this;
  }

  /** The informer as the scenario surface sees it. */
  get client(): ClientUnderTest {
    return {
      label: 'kube-watch',
      recorder: this.recorder,
      cache: () => [...this.informer.store.values()].map(identity),
      waitForSync: (ms) => this.informer.waitForSync(ms * SCALE),
      restart: () => this.informer.restart('test'),
      stop: () => this.informer.stop(),
      ours: { informer: this.informer, lifecycle: this.lifecycle },
    };
  }

  /** Creates a ConfigMap with a unique name (or the given one) in the rig's namespace. */
  serverObjects(): ObjectIdentity[] {
    return this.server.list('configmaps', this.namespace).map((o) => identity(o as Parameters<typeof identity>[0]));
  }

  async synced(): Promise<void> {
    assert.equal(await this.informer.waitForSync(WAIT_BOUND_MS * SCALE), true, 'the informer did not sync');
  }

  /** Waits until the informer's cache equals the server's objects, then checks the replayed events. */
  async converged(): Promise<void> {
    await converge(this.server, this.client, this.namespace);
  }

  events(type: LifecycleEvent['type']): TimedLifecycleEvent[] {
    return this.lifecycle.filter((e) => e.type === type);
  }

  async phase(phase: InformerPhase): Promise<void> {
    await until(() => this.informer.state.phase === phase, `phase ${phase} (now ${this.informer.state.phase}: ${this.informer.state.reason ?? ''})`);
  }

  /**
   * The cluster revokes the current token and the exec plugin would now hand out `next`
   * (rig started with `execCredentials`); open watches end, so the next requests meet the 401.
   */
  revokeToken(next: string): void {
    if (!this.execPlugin) throw new Error('revokeToken needs a rig started with execCredentials');
    this.execPlugin.setToken(next);
    this.server.setToken(next);
    this.server.dropWatches('end');
  }

  async close(): Promise<void> {
    await this.informer.stop();
    this.transport.dispose();
    this.credentials?.dispose();
    await this.relay?.close();
    await this.server.close();
    this.execPlugin?.dispose();
  }
}

/**
 * docs/fault-matrix.md's convergence: the cache equals the server's objects (keys, uids,
 * resourceVersions), and the handler events replayed onto an empty map give the same.
 */
export async function converge(server: FakeApiServer, client: ClientUnderTest, namespace: string, boundMs = WAIT_BOUND_MS): Promise<void> {
  const expected = () => identityLines(server.list('configmaps', namespace).map((o) => identity(o as Parameters<typeof identity>[0])));
  try {
    await until(() => sameLines(identityLines(client.cache()), expected()), 'the cache to equal the server', boundMs);
  } catch {
    assert.deepEqual(identityLines(client.cache()), expected(), 'cache differs from the server');
  }
  const replayed = identityLines(client.recorder.replay().values());
  assert.deepEqual(replayed, expected(), 'replayed handler events differ from the server');
}

function sameLines(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Polls `predicate` until it holds; throws naming `what` after `boundMs` real milliseconds. */
export async function until(predicate: () => boolean, what: string, boundMs = WAIT_BOUND_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Lets real time pass (for "nothing happens" checks), expressed in informer-clock milliseconds. */
export function clockSleep(clockMs: number): Promise<void> {
  return new Promise((r) => setTimeout(r, clockMs / SCALE));
}
