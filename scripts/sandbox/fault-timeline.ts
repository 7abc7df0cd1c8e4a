/**
 * The sandbox's hard cases, on a timer: a dropped connection, an expiry with its relist, a Pod
 * deleted and re-created under the same name while the watch is down, a half-minute outage and a
 * forbidden resource type. Each is announced as it starts, in one line that says what to look for
 * in the tree, the status bar and the log, and once more when the cluster side of it is over.
 *
 * The timeline starts when a client first watches the cluster (Kube Watch in code-server, a
 * desktop VS Code, the CLI), waits `firstAfterMs`, then runs the faults in order with `gapMs`
 * between them, and starts over. `trigger(name)` runs one at once (the sandbox reads names from
 * the terminal). Only one fault runs at a time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimulatedCluster } from './simulated-cluster';
import { isStreamFault, runStreamFault, STREAM_FAULT_NAMES } from './stream-faults';

export const FAULT_NAMES = ['drop', 'expire', 'recreate', 'outage', 'forbid'] as const;
/** Faults of the pod log streams (Follow Logs): run only when typed, never on the timer. */
export const LOG_FAULT_NAMES = ['logs-drop', 'logs-silence', 'logs-restart'] as const;
export type FaultName = (typeof FAULT_NAMES)[number] | (typeof LOG_FAULT_NAMES)[number] | (typeof STREAM_FAULT_NAMES)[number];

export interface FaultTimelineOptions {
  /** Wait after the first watch before the first fault; default 40 s. */
  firstAfterMs?: number;
  /** Wait between the end of one fault and the start of the next; default 60 s. */
  gapMs?: number;
  /** How long the outage lasts; default 30 s. */
  outageMs?: number;
  /** How long the forbidden type stays forbidden; default 75 s. */
  forbidMs?: number;
  /** How long the API server is away while the Pod is re-created; default 6 s. */
  recreateDownMs?: number;
  /** Run the faults on the timer (default true); false: only `trigger`. */
  scheduled?: boolean;
  /**
   * The resource types Kube Watch is configured to watch (the workspace's `kubeWatch.resources`,
   * as the server names them): the watches its status bar counts, one each. The announcements
   * count these, never the server's other open watches (a description's Events, a log terminal's
   * pod watch, the CRD watch behind custom columns). Default: every type with an open watch.
   */
  watchedResources?: readonly string[];
  /** One line for the terminal: `kind` 'fault' starts a fault, 'done' ends one, 'info' is the rest. */
  announce: (kind: 'fault' | 'done' | 'info', line: string) => void;
}

interface Fault {
  name: FaultName;
  title: string;
  run(): Promise<void>;
}

export class FaultTimeline {
  private readonly o: Required<Omit<FaultTimelineOptions, 'announce'>> & Pick<FaultTimelineOptions, 'announce'>;
  private readonly faults: Fault[];
  private readonly logFaults: Fault[];
  private readonly abort = new AbortController();
  private running: FaultName | undefined;
  private cursor = 0;
  private loop: Promise<void> | undefined;
  /** Cleanups of a fault in progress (lift a 403, bring the server back), run by stop(). */
  private readonly pending = new Set<() => Promise<void> | void>();
  /** Timers of a stream fault in progress (a replacement pod turning ready), cleared by stop(). */
  private readonly streamTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly cluster: SimulatedCluster,
    opts: FaultTimelineOptions,
  ) {
    this.o = {
      firstAfterMs: 40_000,
      gapMs: 60_000,
      outageMs: 30_000,
      forbidMs: 75_000,
      recreateDownMs: 6_000,
      scheduled: true,
      watchedResources: [],
      ...opts,
    };
    this.faults = [
      { name: 'drop', title: 'dropped connection', run: () => this.drop() },
      { name: 'expire', title: 'expiry', run: () => this.expire() },
      { name: 'recreate', title: 'delete and re-create while the watch is down', run: () => this.recreate() },
      { name: 'outage', title: 'outage', run: () => this.outage() },
      { name: 'forbid', title: 'forbidden resource type', run: () => this.forbid() },
    ];
    this.logFaults = [
      { name: 'logs-drop', title: 'dropped log connection', run: async () => this.logFault('drop') },
      { name: 'logs-silence', title: 'silent log connection', run: async () => this.logFault('silence') },
      { name: 'logs-restart', title: 'container restart', run: async () => this.logFault('restart') },
    ];
  }

  /** Waits for the first watch, then runs the faults on the timer (when scheduled). Returns at once. */
  start(): void {
    this.loop = this.runLoop().catch((err: unknown) => {
      if (!this.abort.signal.aborted) this.o.announce('info', `fault timeline stopped: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  /** Runs the named fault now, unless another is running. */
  async trigger(name: string): Promise<void> {
    if (isStreamFault(name)) return this.runFault({ name: name as FaultName, title: name, run: () => runStreamFault(name, this.cluster, this.o.announce, this.streamTimers) });
    const logFault = this.logFaults.find((f) => f.name === name);
    if (logFault) {
      if (this.cluster.openLogStreams === 0) {
        this.o.announce('info', `nobody follows a pod log, so "${name}" would show nothing: run "Kube Watch: Follow Logs…" on a Running pod first`);
        return;
      }
      await this.runFault(logFault);
      return;
    }
    const fault = this.faults.find((f) => f.name === name);
    if (!fault) {
      this.o.announce('info', `unknown fault "${name}"; type one of: ${[...FAULT_NAMES, ...LOG_FAULT_NAMES, ...STREAM_FAULT_NAMES].join(', ')}`);
      return;
    }
    if (this.cluster.server.openWatches() === 0 && !this.running) {
      this.o.announce('info', `nothing watches the cluster yet, so "${name}" would show nothing: open Kube Watch (or start a client) first`);
      return;
    }
    await this.runFault(fault);
  }

  get current(): FaultName | undefined {
    return this.running;
  }

  /** Stops the timer, undoes a fault in progress (lifts a 403, brings the server back). */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const t of this.streamTimers) clearTimeout(t);
    this.streamTimers.clear();
    for (const cleanup of [...this.pending]) await cleanup();
    this.pending.clear();
    await this.loop;
  }

  // ---- the timer ------------------------------------------------------------------------------

  private async runLoop(): Promise<void> {
    const signal = this.abort.signal;
    while (this.cluster.server.openWatches() === 0) await sleep(500, undefined, { signal });
    const types = this.cluster.watchedTypes();
    if (!this.o.scheduled) {
      this.o.announce('info', `a client is watching ${types.join(', ')}; no fault timeline (--no-faults). Type a fault's name and Enter to run one: ${FAULT_NAMES.join(', ')}`);
      return;
    }
    this.o.announce('info', `a client is watching ${types.join(', ')}; the first fault (${this.faults[0].title}) comes at ${clock(Date.now() + this.o.firstAfterMs)}, then one every ~${Math.round(this.o.gapMs / 1000)} s. Type a fault's name and Enter to run one now: ${FAULT_NAMES.join(', ')}`);
    await sleep(this.o.firstAfterMs, undefined, { signal });
    for (;;) {
      while (this.running) await sleep(500, undefined, { signal });
      const fault = this.faults[this.cursor % this.faults.length];
      await this.runFault(fault);
      const next = this.faults[this.cursor % this.faults.length];
      if (!signal.aborted) this.o.announce('info', `next fault: ${next.title} at ${clock(Date.now() + this.o.gapMs)}`);
      await sleep(this.o.gapMs, undefined, { signal });
    }
  }

  private async runFault(fault: Fault): Promise<void> {
    if (this.running) {
      this.o.announce('info', `"${fault.name}" must wait: the ${[...this.faults, ...this.logFaults].find((f) => f.name === this.running)?.title ?? this.running} is still going on`);
      return;
    }
    this.running = fault.name;
    try {
      await fault.run();
    } catch (err) {
      if (!this.abort.signal.aborted) this.o.announce('info', `${fault.title} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.running = undefined;
      if (this.faults.includes(fault)) this.cursor = this.faults.indexOf(fault) + 1;
    }
  }

  // ---- the faults -----------------------------------------------------------------------------

  /**
   * Open watches per configured type now: what "back to normal" means afterwards. Its keys are
   * the watches the status bar counts (one per configured type), so `total` is its `n/n`.
   */
  private snapshot(): Record<string, number> {
    const listed = this.o.watchedResources.filter((t) => this.cluster.server.openWatches(t) > 0);
    const configured = listed.length > 0 ? listed : this.cluster.watchedTypes();
    return Object.fromEntries(configured.map((t) => [t, this.cluster.server.openWatches(t)]));
  }

  /** Waits (up to `boundMs`) until every type has its watches open again; returns the seconds it took or undefined. */
  private async watchesBack(before: Record<string, number>, since: number, boundMs = 90_000): Promise<number | undefined> {
    const deadline = Date.now() + boundMs;
    while (Date.now() < deadline) {
      if (Object.entries(before).every(([t, n]) => this.cluster.server.openWatches(t) >= n)) return (Date.now() - since) / 1000;
      await sleep(250, undefined, { signal: this.abort.signal });
    }
    return undefined;
  }

  private backLine(before: Record<string, number>, seconds: number | undefined, what: string): string {
    const n = this.total(before);
    return seconds === undefined
      ? `${what}; not every watch is back yet (the informers keep retrying)`
      : `${what}; all ${n} watches open again ${seconds.toFixed(1)} s after the fault began`;
  }

  /** A fault of the log streams open now (Follow Logs terminals). */
  private logFault(kind: 'drop' | 'silence' | 'restart'): void {
    if (kind === 'drop') {
      const n = this.cluster.dropLogConnections('reset');
      this.o.announce('fault', `dropped log connection: ${n} log stream(s) reset. Look: the log terminal writes "reconnected, N s gap" (dim) and goes on with no line twice and none missing.`);
    } else if (kind === 'silence') {
      const n = this.cluster.silenceLogs();
      this.o.announce('fault', `silent log connection: ${n} log stream(s) stay open but get no line. Look: after 90 s of silence the terminal gives up on the stream and resumes: "reconnected, N s gap", then the lines written meanwhile.`);
    } else {
      const restarted = this.cluster.restartFollowedContainers();
      this.o.announce('fault', `container restart: ${restarted.join(', ')} exited and started again. Look: the terminal writes, in yellow, that lines written before the restart may have been lost; "Follow Logs…" now offers "main (previous)".`);
    }
    this.o.announce('done', `log fault over`);
  }

  private async drop(): Promise<void> {
    const before = this.snapshot();
    const n = this.total(before);
    const started = Date.now();
    this.o.announce(
      'fault',
      `dropped connection: every watch is reset (TCP RST) and the next 2 reconnects of each are refused. ` +
        `Look: tree nodes "reconnecting in N s" for a few seconds, then "watching · rv N" again without a relist; ` +
        `status bar: a spinning icon with fewer than ${n}/${n} live, then the eye and ${n}/${n}; ` +
        `log: warnings "backing off: attempt 1 … the server closed the connection (ECONNRESET)", then "… socket hang up" for the refused reconnects, then "watching again after N s of failures (3 failed attempts)".`,
    );
    this.cluster.dropConnections(2);
    const seconds = await this.watchesBack(before, started);
    this.o.announce('done', this.backLine(before, seconds, 'dropped connection over'));
  }

  private async expire(): Promise<void> {
    const before = this.snapshot();
    const types = Object.keys(before);
    const started = Date.now();
    const listsBefore = this.lists(started);
    let changed = '';
    this.o.announce(
      'fault',
      `expiry: every watch (${types.join(', ')}) is ended and told 410 Expired "too old resource version" when it resumes, so each relists. ` +
        `Look: tree nodes flick to "expired, relisting" (the relist takes milliseconds here), then "watching · rv N" with a newer rv (what changed meanwhile arrives through the relist); ` +
        `status bar spins for a moment; log: warnings "watch closed … 410 Expired", "expired: resourceVersion N is too old for the server", info "relisting: expired", "list finished: …", "watch opened …".`,
    );
    this.cluster.expire(types, () => {
      // Changes the informers can only learn about from the relist.
      const cm = this.cluster.server.get('configmaps', 'shop', 'web-config');
      if (cm) {
        this.cluster.server.update('configmaps', { ...cm, data: { ...(cm.data as Record<string, string>), LOG_LEVEL: (cm.data as Record<string, string>).LOG_LEVEL === 'debug' ? 'info' : 'debug' } });
        changed = 'shop/web-config changed';
      }
    }, 30_000);
    const seconds = await this.watchesBack(before, started);
    const relists = this.lists(started) - listsBefore;
    this.o.announce('done', this.backLine(before, seconds, `expiry over: ${relists} relists${changed ? `, ${changed} while the watches were away` : ''}`));
  }

  private async recreate(): Promise<void> {
    const before = this.snapshot();
    const started = Date.now();
    const ns = 'payments';
    const name = 'postgres-0';
    const oldUid = this.cluster.server.get('pods', ns, name)?.metadata.uid;
    this.o.announce(
      'fault',
      `delete and re-create while the watch is down: the API server goes away for ${Math.round(this.o.recreateDownMs / 1000)} s; meanwhile ${ns}/${name} (uid ${short(oldUid)}) is deleted and created again under the same name, ` +
        `and the server comes back with an empty watch cache, so every watch relists. ` +
        `Look: tree pods › ${ns} › ${name} is a new object (age from 0 s, ContainerCreating, then Running), never an update of the old one; ` +
        `right-click it › Show Object History lists the earlier incarnation; status bar spins; ` +
        `log: "unreachable: connect ECONNREFUSED", then "expired: …", "relisting: expired", "watching again after …" (up to ~30 s after the server's return: the failures raised the backoff).`,
    );
    let down = true;
    const bringBack = async () => {
      if (down) {
        down = false;
        await this.cluster.comeUp({ compact: true });
      }
    };
    this.pending.add(bringBack);
    try {
      await this.cluster.goDown();
      await sleep(Math.min(2000, this.o.recreateDownMs / 2), undefined, { signal: this.abort.signal });
      const { newUid } = this.cluster.recreatePod(ns, name, { phase: 'Pending' });
      await sleep(Math.max(0, this.o.recreateDownMs - 2000), undefined, { signal: this.abort.signal });
      await bringBack();
      this.o.announce('info', `the API server is back (history compacted); ${ns}/${name} now has uid ${short(newUid)} (was ${short(oldUid)})`);
      const seconds = await this.watchesBack(before, started);
      if (this.cluster.server.get('pods', ns, name)) this.cluster.updatePod(ns, name, { phase: 'Running' });
      this.o.announce('done', this.backLine(before, seconds, `re-create over: ${ns}/${name} Running under its new uid`));
    } finally {
      this.pending.delete(bringBack);
    }
  }

  private async outage(): Promise<void> {
    const before = this.snapshot();
    const n = this.total(before);
    const started = Date.now();
    const port = new URL(this.cluster.url).port;
    this.o.announce(
      'fault',
      `outage (${Math.round(this.o.outageMs / 1000)} s): the API server refuses every connection. ` +
        `Look: tree nodes "unreachable: connect ECONNREFUSED 127.0.0.1:${port}" or "reconnecting in N s", the objects keep their last known state; ` +
        `status bar: a spinning icon and 0/${n}, ${this.o.outageMs >= 30_000 ? 'the red error background from 30 s of failures on, until the watches are back' : 'no red background (that takes 30 s of failures)'}; ` +
        `log: "unreachable: …", "backing off: attempt N, next try in …" (the waits grow towards 30 s), then "watching again after … of failures" up to ~30 s after the server returns.`,
    );
    let down = true;
    const bringBack = async () => {
      if (down) {
        down = false;
        await this.cluster.comeUp();
      }
    };
    this.pending.add(bringBack);
    try {
      await this.cluster.goDown();
      await sleep(this.o.outageMs, undefined, { signal: this.abort.signal });
      await bringBack();
      this.o.announce('info', `the API server is back after ${((Date.now() - started) / 1000).toFixed(0)} s; the watches return as their backoff allows`);
      const seconds = await this.watchesBack(before, started);
      this.o.announce('done', this.backLine(before, seconds, 'outage over'));
    } finally {
      this.pending.delete(bringBack);
    }
  }

  private async forbid(): Promise<void> {
    const before = this.snapshot();
    const types = Object.keys(before);
    const resource = ['events', 'configmaps', ...types].find((t) => types.includes(t)) ?? 'events';
    const started = Date.now();
    this.o.announce(
      'fault',
      `forbidden resource type (${Math.round(this.o.forbidMs / 1000)} s): RBAC refuses "${resource}", 403 Forbidden on every list and watch. ` +
        `Look: tree node ${resource} "forbidden" with a red lock, its objects stay as last seen, the other types keep watching; ` +
        `status bar: one short of the total, then the error icon and the red background after 30 s; ` +
        `log: error "forbidden: ${resource} is forbidden: User … cannot watch resource …", retried every 15–30 s; afterwards "watching again".`,
    );
    const fault = this.cluster.forbid(resource);
    let lifted = false;
    const lift = () => {
      if (!lifted) {
        lifted = true;
        fault.lift();
      }
    };
    this.pending.add(lift);
    try {
      await sleep(this.o.forbidMs, undefined, { signal: this.abort.signal });
      lift();
      this.o.announce('info', `"${resource}" is allowed again; its watch returns at its next retry (within 30 s)`);
      const seconds = await this.watchesBack(before, started);
      this.o.announce('done', this.backLine(before, seconds, 'forbidden over'));
    } finally {
      this.pending.delete(lift);
    }
  }

  /** The watches the status bar counts: one per configured type. */
  private total(counts: Record<string, number>): number {
    return Object.keys(counts).length;
  }

  private lists(since: number): number {
    return this.cluster.server.requests.filter((r) => r.verb === 'list' && r.at >= since && r.status === 200).length;
  }
}

/** HH:MM:SS, local time (as the Kube Watch log shows its times). */
export function clock(ms: number = Date.now()): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function short(uid: string | undefined): string {
  return uid ? uid.slice(0, 8) : '?';
}
