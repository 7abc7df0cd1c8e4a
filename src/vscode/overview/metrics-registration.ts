import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeObject, KubeTransport } from '../../informer';
import type { WatchEntry } from '../../manager';
import { MetricsHub } from '../../metrics';
import { DescribeUsage, MetricColumnSource, RowUsageDecorator } from '../../ui/metrics';

/** What metrics read of the manager (a WatchManager is one). */
export interface MetricsManager {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  contextSpecOf(id: string): string | undefined;
  contextConnection(spec: string): { transport: KubeTransport } | { problem: string } | undefined;
}

/**
 * CPU and memory from metrics.k8s.io (issue 30, item 3), wired once: one hub of per-cluster
 * metrics on the contexts' own transports, and where they show: the table's extra columns
 * (`columns`, an ExtraColumnSource), the tree's pod and node rows (`rows`, a RowDecorator) and
 * descriptions (`describeLines`). `kubeWatch.metrics.intervalSeconds` sets the resolution.
 */
export interface MetricsRegistration extends vscode.Disposable {
  readonly hub: MetricsHub;
  readonly columns: MetricColumnSource;
  readonly rows: RowUsageDecorator;
  readonly describeLines: (target: { spec: string; kind: string; namespace: string }, obj: KubeObject, now: number) => readonly string[] | undefined;
  /** Nothing is fetched while Kube Watch is paused. */
  setPaused(paused: boolean): void;
}

export function readMetricsIntervalMs(): number {
  const seconds = vscode.workspace.getConfiguration('kubeWatch').get<number>('metrics.intervalSeconds', 15);
  return Math.max(5, Math.min(600, Number.isFinite(seconds) ? seconds : 15)) * 1000;
}

export function registerMetrics(manager: MetricsManager, clock: Clock): MetricsRegistration {
  const hub = new MetricsHub({
    clock,
    intervalMs: readMetricsIntervalMs(),
    transportOf: (spec) => {
      const c = manager.contextConnection(spec);
      return c && 'transport' in c ? c.transport : undefined;
    },
  });
  const objectsOf = (spec: string, kind: 'Pod' | 'ReplicaSet', namespace: string): KubeObject[] =>
    manager
      .entries()
      .filter((e) => e.type?.kind === kind && e.type.group === (kind === 'Pod' ? '' : 'apps') && manager.contextSpecOf(e.id) === spec && (e.namespace === '' || e.namespace === namespace))
      .flatMap((e) => (e.informer?.list() ?? []).filter((o) => o.metadata.namespace === namespace));
  const columns = new MetricColumnSource({ hub, clock, objectsOf });
  const rows = new RowUsageDecorator({
    hub,
    clock,
    entryOf: (id) => {
      const spec = manager.contextSpecOf(id);
      return spec === undefined ? undefined : { context: spec, kind: manager.entry(id)?.type?.kind };
    },
  });
  const describe = new DescribeUsage(hub, clock);
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('kubeWatch.metrics.intervalSeconds')) hub.setIntervalMs(readMetricsIntervalMs());
  });
  return {
    hub,
    columns,
    rows,
    describeLines: (target, obj, now) => describe.lines(target, obj, now),
    setPaused: (paused) => hub.setPaused(paused),
    dispose() {
      settings.dispose();
      describe.dispose();
      rows.dispose();
      columns.dispose();
      hub.dispose();
    },
  };
}
