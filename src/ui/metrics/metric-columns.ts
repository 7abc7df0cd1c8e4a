import type { Clock, Disposable } from '../../base';
import type { KubeObject } from '../../informer';
import {
  formatMebibytes,
  formatMilliCores,
  freshnessText,
  noValueText,
  noValueWord,
  nodeReading,
  podReading,
  workloadReading,
  type MetricsHub,
  type UsageReading,
} from '../../metrics';
import type { ExtraCell, ExtraColumn, ExtraColumnChange, ExtraColumnKind, ExtraColumnSource } from '../table/extra-columns';

/** The informers' objects of a context: a workload's pods are found among them (no extra watch). */
export type ContextObjectsOf = (context: string, kind: 'Pod' | 'ReplicaSet', namespace: string) => readonly KubeObject[];

export interface MetricColumnSourceOptions {
  readonly hub: MetricsHub;
  readonly clock: Clock;
  /** The Pods and ReplicaSets the watches hold (for workload sums); [] when that type is not watched. */
  readonly objectsOf: ContextObjectsOf;
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

/** Memory at or above this share of its limit (or of a node's allocatable) is drawn as a warning. */
const WARN_PERCENT = 90;

type Valued<F> = Extract<UsageReading<F>, { figures: F }>;

/**
 * CPU and memory columns for the resource table, from metrics.k8s.io (issue 30, item 3):
 * Pod: CPU, MEM, %CPU/R, %MEM/L (k9s's); Node: CPU, %CPU, MEM, %MEM (of allocatable);
 * Deployment, StatefulSet, DaemonSet, ReplicaSet: CPU and MEM summed over their pods.
 * A cell without a value says why in a word and in its hover (no metrics API, forbidden, stale,
 * not running, no sample yet), never a bare N/A. Values are fetched only while a table shows
 * the kind (`show`), one request per shown namespace per interval.
 */
export class MetricColumnSource implements ExtraColumnSource, Disposable {
  private readonly showings = new Map<string, { context: string; kind: ExtraColumnKind; count: number }>();
  private readonly listeners = new Set<(change: ExtraColumnChange) => void>();
  private readonly subscription: Disposable;

  constructor(private readonly options: MetricColumnSourceOptions) {
    this.subscription = options.hub.onDidChange(({ context, change }) => {
      for (const s of this.showings.values()) {
        if (s.context !== context) continue;
        if (s.kind.kind === 'Node' ? !change.nodes : change.namespaces.length === 0) continue;
        for (const l of this.listeners) l({ context, kind: s.kind });
      }
    });
  }

  columnsFor(kind: ExtraColumnKind): readonly ExtraColumn[] {
    if (kind.group === '' && kind.kind === 'Pod') return POD_COLUMNS(this);
    if (kind.group === '' && kind.kind === 'Node') return NODE_COLUMNS(this);
    if (kind.group === 'apps' && WORKLOADS.has(kind.kind)) return WORKLOAD_COLUMNS(this, kind.kind);
    return [];
  }

  show(context: string, kind: ExtraColumnKind, namespaces: readonly string[] | 'all'): Disposable {
    if (this.columnsFor(kind).length === 0) return { dispose: () => {} };
    const isNode = kind.kind === 'Node';
    const handle = this.options.hub.cluster(context).show(isNode ? { namespaces: [], nodes: true } : { namespaces });
    const key = `${context}\u0000${kind.group}/${kind.kind}`;
    const entry = this.showings.get(key) ?? { context, kind, count: 0 };
    entry.count++;
    this.showings.set(key, entry);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        handle.dispose();
        if (--entry.count === 0) this.showings.delete(key);
      },
    };
  }

  onDidChange(listener: (change: ExtraColumnChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
    this.showings.clear();
  }

  /** @internal The reading of a pod, node or workload now. */
  readingOf(context: string, obj: KubeObject, kind: string): UsageReading<object> {
    const metrics = this.options.hub.cluster(context);
    const now = this.options.clock.now();
    if (kind === 'Pod') return podReading(metrics, obj, now);
    if (kind === 'Node') return nodeReading(metrics, obj, now);
    return workloadReading(metrics, { ...obj, kind }, (k, ns) => this.options.objectsOf(context, k, ns), now);
  }

  /** @internal */
  now(): number {
    return this.options.clock.now();
  }
}

/** A column reading one number off a reading's figures. */
function column<F>(source: MetricColumnSource, kindName: string, id: string, header: string, pick: (f: F) => number | undefined, text: (n: number) => string, missing: string, warn?: (n: number) => boolean): ExtraColumn {
  return {
    id,
    header,
    cell(context: string, obj: KubeObject): ExtraCell {
      const reading = source.readingOf(context, obj, kindName) as UsageReading<F>;
      if (reading.kind !== 'value' && reading.kind !== 'stale') return { text: noValueWord(reading), title: noValueText(reading), tone: 'muted' };
      const valued = reading as Valued<F>;
      const n = pick(valued.figures);
      const fresh = freshnessText(valued.sample, source.now());
      const stale = reading.kind === 'stale' ? `${noValueText(reading)}; ` : '';
      if (n === undefined) return { text: '—', title: `${stale}${missing}`, tone: 'muted' };
      return { text: text(n), sortValue: n, title: `${header} ${text(n)}: ${stale}${fresh}`, tone: reading.kind === 'stale' || warn?.(n) ? 'warning' : 'normal' };
    },
  };
}

const percent = (n: number) => `${n}%`;
const overWarn = (n: number) => n >= WARN_PERCENT;

type PodF = { cpu: number; mem: number; cpuOfRequest?: number; memOfLimit?: number };
type NodeF = { cpu: number; mem: number; cpuPercent?: number; memPercent?: number };

const POD_COLUMNS = (s: MetricColumnSource): ExtraColumn[] => [
  column<PodF>(s, 'Pod', 'cpu', 'CPU', (f) => f.cpu, formatMilliCores, ''),
  column<PodF>(s, 'Pod', 'mem', 'MEM', (f) => f.mem, formatMebibytes, ''),
  column<PodF>(s, 'Pod', 'cpu%r', '%CPU/R', (f) => f.cpuOfRequest, percent, 'no CPU request set on its containers'),
  column<PodF>(s, 'Pod', 'mem%l', '%MEM/L', (f) => f.memOfLimit, percent, 'no memory limit set on its containers', overWarn),
];

const NODE_COLUMNS = (s: MetricColumnSource): ExtraColumn[] => [
  column<NodeF>(s, 'Node', 'cpu', 'CPU', (f) => f.cpu, formatMilliCores, ''),
  column<NodeF>(s, 'Node', 'cpu%', '%CPU', (f) => f.cpuPercent, percent, 'the node reports no allocatable CPU', overWarn),
  column<NodeF>(s, 'Node', 'mem', 'MEM', (f) => f.mem, formatMebibytes, ''),
  column<NodeF>(s, 'Node', 'mem%', '%MEM', (f) => f.memPercent, percent, 'the node reports no allocatable memory', overWarn),
];

type WorkloadF = { cpu: number; mem: number; pods?: number; counted?: number };

/** A workload's CPU and MEM: the sums over its pods (a Deployment's through its ReplicaSets). */
const WORKLOAD_COLUMNS = (s: MetricColumnSource, kind: string): ExtraColumn[] => [
  column<WorkloadF>(s, kind, 'cpu', 'CPU', (f) => f.cpu, formatMilliCores, ''),
  column<WorkloadF>(s, kind, 'mem', 'MEM', (f) => f.mem, formatMebibytes, ''),
];
