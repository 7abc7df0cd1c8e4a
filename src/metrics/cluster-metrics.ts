import { Emitter, type Clock, type Disposable, type TimerHandle } from '../base';
import type { KubeTransport } from '../informer';
import { availabilityOfError, type MetricsAvailability } from './metrics-availability';
import { METRICS_API, sampleOf, type MetricsItemJson, type UsageSample } from './metrics-wire';

/** metrics-server's resolution: a new sample every 15 s by default. */
export const DEFAULT_METRICS_INTERVAL_MS = 15_000;
/** A value whose sample is older than this reads "stale". */
export const METRICS_STALE_AFTER_MS = 120_000;
/** Samples kept per object for the session's chart. */
export const HISTORY_POINTS = 40;

/** What a view shows: pods in these namespaces ('all': every namespace), and the nodes. */
export interface MetricsScope {
  readonly namespaces: readonly string[] | 'all';
  readonly nodes?: boolean;
}

export interface ClusterMetricsOptions {
  /** The context's transport of the moment (the one its watches share); undefined while it has none. */
  readonly transport: () => KubeTransport | undefined;
  readonly clock: Clock;
  readonly intervalMs?: number;
}

/** One point of an object's usage over the session. */
export interface HistoryPoint {
  readonly at: number;
  readonly cpu: number;
  readonly mem: number;
}

export interface SampleRecord {
  readonly sample: UsageSample;
  readonly history: readonly HistoryPoint[];
}

/** Which targets a fetch round read: namespaces ('*' for all) and whether the nodes. */
export interface MetricsChange {
  readonly namespaces: readonly string[];
  readonly nodes: boolean;
}

const ALL = '*';
const NODES = '#nodes';

interface TargetState {
  availability: MetricsAvailability;
  lastFetchAt?: number;
}

/**
 * The metrics of one cluster, fetched only for what is shown: one LIST of PodMetrics per shown
 * namespace (or one for every namespace when a view shows them all), never per pod, and the
 * NodeMetrics list while nodes are shown; at the metrics API's resolution; nothing while paused,
 * hidden or with nothing shown.
 * Invariants: at most one round of requests is in flight; a target is asked at most once per
 * interval; `dispose()` cancels the timer and aborts what is in flight.
 */
export class ClusterMetrics implements Disposable {
  private readonly showings = new Set<MetricsScope>();
  private readonly targets = new Map<string, TargetState>();
  private readonly pods = new Map<string, SampleRecord>();
  private readonly nodes = new Map<string, SampleRecord>();
  private readonly changes = new Emitter<MetricsChange>();
  private timer: TimerHandle | undefined;
  private inFlight: AbortController | undefined;
  private paused = false;
  private disposed = false;
  private interval: number;

  constructor(private readonly options: ClusterMetricsOptions) {
    this.interval = options.intervalMs ?? DEFAULT_METRICS_INTERVAL_MS;
  }

  get intervalMs(): number {
    return this.interval;
  }

  /** True while a round of requests is in flight. */
  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /** True while a timer is armed for the next round. */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  /** Values are fetched for `scope` until the returned handle is disposed. */
  show(scope: MetricsScope): Disposable {
    const own = { namespaces: scope.namespaces === 'all' ? 'all' : [...scope.namespaces], nodes: scope.nodes } as MetricsScope;
    this.showings.add(own);
    this.schedule(0);
    return { dispose: () => this.showings.delete(own) && this.schedule() };
  }

  /** A paused cluster asks for nothing (its views are hidden or paused); resuming asks for what is due at once. */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    this.schedule(0);
  }

  setIntervalMs(ms: number): void {
    this.interval = Math.max(1000, ms);
    this.schedule(0);
  }

  onDidChange(listener: (change: MetricsChange) => void): Disposable {
    return this.changes.on(listener);
  }

  pod(namespace: string, name: string): SampleRecord | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  node(name: string): SampleRecord | undefined {
    return this.nodes.get(name);
  }

  /** How the last request for this namespace's pods (or the nodes, `undefined`) went. */
  availability(namespace: string | undefined): MetricsAvailability {
    if (namespace === undefined) return this.targets.get(NODES)?.availability ?? { kind: 'waiting' };
    const own = this.targets.get(namespace);
    const all = this.targets.get(ALL);
    const current = this.wanted().has(ALL) ? (all ?? own) : (own ?? all);
    return current?.availability ?? { kind: 'waiting' };
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.showings.clear();
    this.changes.dispose();
  }

  /** The targets the showings ask for: '*' replaces the namespaces when one shows them all. */
  private wanted(): Set<string> {
    const out = new Set<string>();
    for (const s of this.showings) {
      if (s.namespaces === 'all') out.add(ALL);
      else for (const ns of s.namespaces) out.add(ns);
      if (s.nodes) out.add(NODES);
    }
    if (out.has(ALL)) for (const k of [...out]) if (k !== ALL && k !== NODES) out.delete(k);
    return out;
  }

  /** (Re)arms the timer for the next due target (`delay` 0: look now). */
  private schedule(delay?: number): void {
    if (this.disposed || this.inFlight) return;
    this.timer?.cancel();
    this.timer = undefined;
    const wanted = this.wanted();
    if (this.paused || wanted.size === 0) return;
    const now = this.options.clock.now();
    let next = Infinity;
    for (const key of wanted) {
      const last = this.targets.get(key)?.lastFetchAt;
      next = Math.min(next, last === undefined ? now : last + this.interval);
    }
    const wait = Math.max(delay ?? 0, next - now);
    this.timer = this.options.clock.setTimer(() => {
      this.timer = undefined;
      void this.round();
    }, wait);
  }

  /** Asks every due target once, in parallel; then announces what changed and schedules the next round. */
  private async round(): Promise<void> {
    const transport = this.options.transport();
    const now = this.options.clock.now();
    const due = [...this.wanted()].filter((k) => {
      const last = this.targets.get(k)?.lastFetchAt;
      return last === undefined || now - last >= this.interval;
    });
    if (!transport || due.length === 0 || this.paused) return this.schedule(transport ? 0 : this.interval);
    const abort = new AbortController();
    this.inFlight = abort;
    for (const k of due) this.target(k).lastFetchAt = now;
    await Promise.all(due.map((k) => this.fetch(transport, k, abort.signal)));
    if (this.inFlight !== abort) return;
    this.inFlight = undefined;
    this.changes.fire({ namespaces: due.filter((k) => k !== NODES), nodes: due.includes(NODES) });
    this.schedule();
  }

  private target(key: string): TargetState {
    let t = this.targets.get(key);
    if (!t) this.targets.set(key, (t = { availability: { kind: 'waiting' } }));
    return t;
  }

  private async fetch(transport: KubeTransport, key: string, signal: AbortSignal): Promise<void> {
    const path = key === NODES ? `${METRICS_API}/nodes` : key === ALL ? `${METRICS_API}/pods` : `${METRICS_API}/namespaces/${encodeURIComponent(key)}/pods`;
    try {
      const list = await transport.getJson<{ items?: MetricsItemJson[] }>(path, {}, signal);
      this.target(key).availability = { kind: 'ok' };
      this.absorb(key, list.items ?? []);
    } catch (err) {
      const availability = availabilityOfError(err);
      if (availability) this.target(key).availability = availability;
    }
  }

  /** Keeps the new samples; an object the list no longer names loses its sample (it has none now). */
  private absorb(key: string, items: MetricsItemJson[]): void {
    const now = this.options.clock.now();
    const into = key === NODES ? this.nodes : this.pods;
    const seen = new Set<string>();
    for (const item of items) {
      const name = item.metadata?.name;
      const sample = name ? sampleOf(item, now) : undefined;
      if (!name || !sample) continue;
      const id = key === NODES ? name : `${item.metadata?.namespace ?? key}/${name}`;
      seen.add(id);
      const before = into.get(id);
      const history = before ? [...before.history] : [];
      if (history.at(-1)?.at !== sample.timestamp) history.push({ at: sample.timestamp, cpu: sample.cpu, mem: sample.mem });
      if (history.length > HISTORY_POINTS) history.splice(0, history.length - HISTORY_POINTS);
      into.set(id, { sample, history });
    }
    for (const id of [...into.keys()]) {
      const inScope = key === NODES || key === ALL || id.startsWith(`${key}/`);
      if (inScope && !seen.has(id)) into.delete(id);
    }
  }
}
