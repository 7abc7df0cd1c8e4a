import type { KubeObject } from '../informer';
import type { ClusterMetrics } from './cluster-metrics';
import { formatMebibytes, formatMilliCores } from './quantity';
import { nodeReading, podReading } from './usage-reading';
import { freshnessText, noValueText, sparkline } from './usage-words';

function pct(p: number | undefined, of: string): string {
  return p === undefined ? `no ${of} set` : `${p}% of ${of}`;
}

/**
 * The "Usage" lines of a pod's or a node's description: CPU and memory with their percentages,
 * how fresh the sample is, and the session's history as a sparkline (the description is text,
 * so its chart is a line of bars). Why there is no value when there is none.
 */
export function usageSection(metrics: ClusterMetrics, kind: 'Pod' | 'Node', obj: KubeObject, now: number): string[] {
  const isNode = kind === 'Node';
  const lines = ['Usage (metrics.k8s.io):'];
  if (isNode) {
    const r = nodeReading(metrics, obj, now);
    const why = noValueText(r);
    if (r.kind !== 'value' && r.kind !== 'stale') return [...lines, `  ${why}`];
    const f = r.figures;
    lines.push(`  CPU:     ${formatMilliCores(f.cpu)} (${pct(f.cpuPercent, 'allocatable')})`);
    lines.push(`  Memory:  ${formatMebibytes(f.mem)} (${pct(f.memPercent, 'allocatable')})`);
    return [...lines, ...trailer(r.sample, r.history, now, why)];
  }
  const r = podReading(metrics, obj, now);
  const why = noValueText(r);
  if (r.kind !== 'value' && r.kind !== 'stale') return [...lines, `  ${why}`];
  const f = r.figures;
  lines.push(`  CPU:     ${formatMilliCores(f.cpu)} (${pct(f.cpuOfRequest, 'request')})`);
  lines.push(`  Memory:  ${formatMebibytes(f.mem)} (${pct(f.memOfLimit, 'limit')})`);
  for (const [name, u] of r.sample.containers ?? []) lines.push(`  ${name}: ${formatMilliCores(u.cpu)}, ${formatMebibytes(u.mem)}`);
  return [...lines, ...trailer(r.sample, r.history, now, why)];
}

function trailer(sample: Parameters<typeof freshnessText>[0], history: readonly { cpu: number; mem: number }[], now: number, why: string | undefined): string[] {
  const out = [`  Sample:  ${why ? `${why}; ` : ''}${freshnessText(sample, now)}`];
  if (history.length > 1) {
    out.push(`  CPU over the session:    ${sparkline(history.map((h) => h.cpu))} (${history.length} samples)`);
    out.push(`  Memory over the session: ${sparkline(history.map((h) => h.mem))}`);
  }
  return out;
}
