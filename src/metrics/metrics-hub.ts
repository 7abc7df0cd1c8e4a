import { Emitter, type Clock, type Disposable } from '../base';
import type { KubeTransport } from '../informer';
import { ClusterMetrics, DEFAULT_METRICS_INTERVAL_MS, type MetricsChange } from './cluster-metrics';

export interface MetricsHubOptions {
  /** The transport of a configured context ("" = current-context) of the moment: the one its watches share. */
  readonly transportOf: (context: string) => KubeTransport | undefined;
  readonly clock: Clock;
  readonly intervalMs?: number;
}

/**
 * The metrics of every cluster a view shows, one ClusterMetrics per context, made when first
 * shown. Pausing pauses them all (the views are hidden). Invariant: `dispose()` disposes each.
 */
export class MetricsHub implements Disposable {
  private readonly clusters = new Map<string, { metrics: ClusterMetrics; subscription: Disposable }>();
  private readonly changes = new Emitter<{ context: string; change: MetricsChange }>();
  private intervalMs: number;
  private paused = false;

  constructor(private readonly options: MetricsHubOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_METRICS_INTERVAL_MS;
  }

  cluster(context: string): ClusterMetrics {
    let c = this.clusters.get(context);
    if (!c) {
      const metrics = new ClusterMetrics({ transport: () => this.options.transportOf(context), clock: this.options.clock, intervalMs: this.intervalMs });
      metrics.setPaused(this.paused);
      c = { metrics, subscription: metrics.onDidChange((change) => this.changes.fire({ context, change })) };
      this.clusters.set(context, c);
    }
    return c.metrics;
  }

  /** `kubeWatch.metrics.intervalSeconds` changed. */
  setIntervalMs(ms: number): void {
    this.intervalMs = ms;
    for (const c of this.clusters.values()) c.metrics.setIntervalMs(ms);
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    for (const c of this.clusters.values()) c.metrics.setPaused(paused);
  }

  onDidChange(listener: (e: { context: string; change: MetricsChange }) => void): Disposable {
    return this.changes.on(listener);
  }

  dispose(): void {
    for (const c of this.clusters.values()) {
      c.subscription.dispose();
      c.metrics.dispose();
    }
    this.clusters.clear();
    this.changes.dispose();
  }
}
