import { Emitter, type Disposable } from '../../base/disposable';
import type { H2SessionPool } from '../h2/h2-session-pool';
import { ClusterReachability, type ReachabilityChange } from '../reachability/cluster-reachability';
import { WakeDetector, type WakeDetectorOptions } from '../wake/wake-detector';

/**
 * What the transports of one cluster share: its reachability and the wake signal that tells
 * them to verify their connections. A cluster is the server URL with its CA and proxy.
 */
export interface SharedCluster {
  readonly key: string;
  readonly reachability: ClusterReachability;
  /** Fires after the process was away (suspend, SIGSTOP): connections must be verified. */
  onWake(listener: (awayMs: number) => void): Disposable;
  /**
   * The cluster's HTTP/2 connections for one TLS identity, shared by every context that
   * presents it; made by `create` on first use, disposed with the cluster.
   */
  h2Pool(tlsKey: string, create: () => H2SessionPool): H2SessionPool;
}

class ClusterEntry implements SharedCluster {
  readonly reachability = new ClusterReachability();
  readonly wake = new Emitter<number>();
  users = 0;
  private readonly pools = new Map<string, H2SessionPool>();
  constructor(readonly key: string) {}
  h2Pool(tlsKey: string, create: () => H2SessionPool): H2SessionPool {
    let pool = this.pools.get(tlsKey);
    if (!pool) {
      pool = create();
      this.pools.set(tlsKey, pool);
    }
    return pool;
  }
  onWake(listener: (awayMs: number) => void): Disposable {
    return this.wake.on(listener);
  }
  dispose(): void {
    this.reachability.dispose();
    this.wake.dispose();
    for (const pool of this.pools.values()) pool.dispose();
    this.pools.clear();
  }
}

/** A cluster in use; `release()` once the transport that acquired it is disposed. */
export interface ClusterLease extends Disposable {
  readonly cluster: SharedCluster;
}

/**
 * Hands every transport of the same cluster the same SharedCluster, and runs one wake detector
 * for all of them while any is in use. Invariant: an entry lives while it has users; the
 * detector runs while the registry has entries and is not disposed.
 */
export class ClusterRegistry implements Disposable {
  private readonly entries = new Map<string, ClusterEntry>();
  private readonly resumed = new Emitter<number>();
  private readonly reachabilityChanges = new Emitter<{ clusterKey: string; change: ReachabilityChange }>();
  private detector: WakeDetector | undefined;
  private disposed = false;

  constructor(private readonly wakeOptions: WakeDetectorOptions | false = {}) {}

  /** The key of a cluster: server URL, CA and proxy (the CA by a digest, never its text in a log). */
  static keyOf(server: string, caDigest: string, proxy: string): string {
    return `${server}|${caDigest}|${proxy}`;
  }

  acquire(key: string): ClusterLease {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = new ClusterEntry(key);
      this.entries.set(key, entry);
      entry.reachability.onChange((change) => this.reachabilityChanges.fire({ clusterKey: key, change }));
    }
    entry.users++;
    this.startDetector();
    const held = entry;
    let released = false;
    return {
      cluster: held,
      dispose: () => {
        if (released) return;
        released = true;
        if (--held.users > 0) return;
        held.dispose();
        if (this.entries.get(key) === held) this.entries.delete(key);
        if (this.entries.size === 0) this.stopDetector();
      },
    };
  }

  /** Fires once per detected wake with how long the process was away, after every cluster was told. */
  onResumed(listener: (awayMs: number) => void): Disposable {
    return this.resumed.on(listener);
  }

  /** Fires when a cluster in use becomes unreachable or reachable again (once per transition, for the log). */
  onReachabilityChange(listener: (clusterKey: string, change: ReachabilityChange) => void): Disposable {
    return this.reachabilityChanges.on(({ clusterKey, change }) => listener(clusterKey, change));
  }

  /** Tells every cluster the process was away; what the detector calls, and tests. */
  wake(awayMs: number): void {
    for (const entry of this.entries.values()) entry.wake.fire(awayMs);
    this.resumed.fire(awayMs);
  }

  get size(): number {
    return this.entries.size;
  }

  dispose(): void {
    this.disposed = true;
    this.stopDetector();
    for (const entry of this.entries.values()) entry.dispose();
    this.entries.clear();
    this.resumed.dispose();
    this.reachabilityChanges.dispose();
  }

  private startDetector(): void {
    if (this.detector || this.disposed || this.wakeOptions === false) return;
    this.detector = new WakeDetector((ms) => this.wake(ms), this.wakeOptions);
    this.detector.start();
  }

  private stopDetector(): void {
    this.detector?.dispose();
    this.detector = undefined;
  }
}
