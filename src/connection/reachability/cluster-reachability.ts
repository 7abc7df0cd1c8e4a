import type { Clock, TimerHandle } from '../../base/clock';
import { Emitter, type Disposable } from '../../base/disposable';
import type { ReachabilityProbe } from './handshake-probe';

/** When the probe of an unreachable cluster runs (F50). */
export interface ProbeCadence {
  /** Between the end of one probe and the start of the next; default 1 s. */
  intervalMs: number;
  /** Each interval is drawn from [interval·(1−jitter), interval·(1+jitter)); default 0.25. */
  jitter: number;
  /** A probe not through by then failed (a network that drops packets); default 2 s. */
  timeoutMs: number;
  /**
   * Cap of the interval, which doubles after each probe success whose wake was answered by
   * another network failure and no answer (a balancer that accepts TLS but has no server
   * behind it); default 30 s, the watches' own backoff cap.
   */
  maxIntervalMs: number;
}

export const defaultProbeCadence: ProbeCadence = { intervalMs: 1000, jitter: 0.25, timeoutMs: 2000, maxIntervalMs: 30_000 };

/** What the cluster's log says about its reachability, once per transition. */
export type ReachabilityChange =
  /** Requests fail below HTTP and watches wait: `probing` false when no probe can be made (a SOCKS proxy). */
  | { type: 'unreachable'; probing: boolean }
  /** The cluster answers again: to the probe's handshake, or to a request; `waiting` watches retry now. */
  | { type: 'reachable'; by: 'probe' | 'answer'; waiting: number };

/**
 * One reachability per cluster, shared by every request of every context that uses it.
 * Invariants:
 * - `onReachable` listeners (the watches waiting in backoff) fire exactly once per transition
 *   from failing to reachable: on the first response after network failures, or on the first
 *   successful probe, so after an outage the whole view comes back at once instead of each
 *   watch waiting out its own backoff.
 * - While failing and some listener waits, one probe (a TCP and TLS handshake, no request, no
 *   credential) runs at a time for the whole cluster, at the jittered cadence; it stops when the
 *   cluster is reachable, when nothing waits, and on dispose.
 * - An HTTP error is an answer, not a failure: a server that answers 500 never makes this
 *   probe, so its watches stay paced by their own backoff.
 */
export class ClusterReachability implements Disposable {
  private failing = false;
  private disposed = false;
  private readonly reachable = new Emitter<void>();
  private readonly changes = new Emitter<ReachabilityChange>();
  /** Probes offered by the transports of the cluster (equal targets by the cluster's key); the first is used. */
  private readonly probes: { probe: ReachabilityProbe | undefined; clock: Clock }[] = [];
  private loop: { timer?: TimerHandle; ctl?: AbortController } | undefined;
  /** 'unreachable' was said in this outage, so 'reachable' will be. */
  private announced = false;
  /** The last reachable transition came from a probe, and no request has been answered since. */
  private wokeByProbe = false;
  /** Probe wakes in a row answered by network failures only: each doubles the interval. */
  private fruitlessWakes = 0;
  /** Probes started so far (tests, the inspect report). */
  probesStarted = 0;

  constructor(private readonly cadence: ProbeCadence = defaultProbeCadence) {}

  /** The cluster answered a request (any HTTP status below 500). */
  reportAnswer(): void {
    this.wokeByProbe = false;
    this.fruitlessWakes = 0;
    if (!this.failing) return;
    this.becameReachable('answer');
  }

  /** A request failed below HTTP (refused, reset, DNS, TLS, a dead connection). */
  reportFailure(): void {
    if (!this.failing && this.wokeByProbe) {
      this.fruitlessWakes++;
      this.wokeByProbe = false;
    }
    this.failing = true;
    this.update();
  }

  /** True between a network failure and the next answer (or successful probe). */
  get isFailing(): boolean {
    return this.failing;
  }

  /** True while a probe is planned or running. */
  get isProbing(): boolean {
    return this.loop !== undefined;
  }

  /** `listener` runs when the cluster answers again after failures; while it waits, the cluster is probed. */
  onReachable(listener: () => void): Disposable {
    const sub = this.reachable.on(listener);
    this.update();
    return {
      dispose: () => {
        sub.dispose();
        this.update();
      },
    };
  }

  /** The cluster's reachability transitions, for the log. Listening here does not count as waiting. */
  onChange(listener: (change: ReachabilityChange) => void): Disposable {
    return this.changes.on(listener);
  }

  /**
   * Offers the probe of one transport of the cluster (undefined: it cannot probe its route) and
   * the clock its timers run on; withdrawn when the returned Disposable is disposed.
   */
  attachProbe(probe: ReachabilityProbe | undefined, clock: Clock): Disposable {
    const entry = { probe, clock };
    this.probes.push(entry);
    this.update();
    return {
      dispose: () => {
        const i = this.probes.indexOf(entry);
        if (i >= 0) this.probes.splice(i, 1);
        this.update();
      },
    };
  }

  dispose(): void {
    this.disposed = true;
    this.stopProbing();
    this.reachable.dispose();
    this.changes.dispose();
  }

  private becameReachable(by: 'probe' | 'answer'): void {
    this.failing = false;
    this.stopProbing();
    const waiting = this.reachable.size;
    if (this.announced) this.changes.fire({ type: 'reachable', by, waiting });
    this.announced = false;
    this.reachable.fire();
  }

  /** Starts the probe loop when it should run and does not, stops it when it should not run. */
  private update(): void {
    const offered = this.probes[0];
    const wanted = !this.disposed && this.failing && this.reachable.size > 0 && offered !== undefined;
    if (!wanted) return this.stopProbing();
    if (!this.announced) {
      this.announced = true;
      this.changes.fire({ type: 'unreachable', probing: offered.probe !== undefined });
    }
    if (this.loop || !offered.probe) return;
    this.schedule(offered.clock);
  }

  private schedule(clock: Clock): void {
    const c = this.cadence;
    const base = Math.min(c.maxIntervalMs, c.intervalMs * 2 ** this.fruitlessWakes);
    const delay = base * (1 - c.jitter + 2 * c.jitter * clock.random());
    const loop: { timer?: TimerHandle; ctl?: AbortController } = {};
    loop.timer = clock.setTimer(() => this.run(loop, clock), delay);
    this.loop = loop;
  }

  private run(loop: { timer?: TimerHandle; ctl?: AbortController }, clock: Clock): void {
    const probe = this.probes[0]?.probe;
    if (this.loop !== loop || !probe) return;
    loop.timer = undefined;
    const ctl = (loop.ctl = new AbortController());
    const deadline = clock.setTimer(() => ctl.abort(), this.cadence.timeoutMs);
    this.probesStarted++;
    const settle = (ok: boolean) => {
      deadline.cancel();
      if (this.loop !== loop) return; // stopped meanwhile
      this.loop = undefined;
      if (ok && this.failing) this.probeSucceeded();
      else this.update();
    };
    let started: Promise<void>;
    try {
      started = probe(ctl.signal);
    } catch {
      started = Promise.reject(new Error('the probe could not start'));
    }
    started.then(
      () => settle(true),
      () => settle(false),
    );
  }

  private probeSucceeded(): void {
    this.wokeByProbe = true;
    this.becameReachable('probe');
  }

  private stopProbing(): void {
    const loop = this.loop;
    if (!loop) return;
    this.loop = undefined;
    loop.timer?.cancel();
    loop.ctl?.abort();
  }
}
