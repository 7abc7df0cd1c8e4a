import { bytesOf, milliCores } from './quantity';
import type { Usage } from './usage-math';

/** The metrics API as metrics-server serves it (`metrics.k8s.io/v1beta1`). */
export const METRICS_API = '/apis/metrics.k8s.io/v1beta1';

/** One PodMetrics or NodeMetrics item: `timestamp`, `window` (`15s`), and usage per container or for the node. */
export interface MetricsItemJson {
  metadata?: { name?: string; namespace?: string };
  timestamp?: string;
  window?: string;
  containers?: { name?: string; usage?: { cpu?: string; memory?: string } }[];
  usage?: { cpu?: string; memory?: string };
}

/** A sample read from the API: the usage, when it was measured (ms) and over what window (ms). */
export interface UsageSample extends Usage {
  readonly timestamp: number;
  readonly windowMs: number;
  /** Per container (pods only), by name. */
  readonly containers?: ReadonlyMap<string, Usage>;
}

/** `15s`, `1m30s`, `20.5s`, `500ms` as milliseconds (Go's Duration text); 0 when unreadable. */
export function durationMs(text: string | undefined): number {
  if (!text) return 0;
  let total = 0;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 1e-6 };
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}

function usageOf(u: { cpu?: string; memory?: string } | undefined): Usage {
  return { cpu: milliCores(u?.cpu) ?? 0, mem: bytesOf(u?.memory) ?? 0 };
}

/** A sample from one item; undefined when it has no readable timestamp. */
export function sampleOf(item: MetricsItemJson, now: number): UsageSample | undefined {
  const timestamp = item.timestamp ? Date.parse(item.timestamp) : now;
  if (!Number.isFinite(timestamp)) return undefined;
  const windowMs = durationMs(item.window);
  if (item.containers) {
    const containers = new Map<string, Usage>();
    let cpu = 0;
    let mem = 0;
    for (const c of item.containers) {
      const u = usageOf(c.usage);
      containers.set(c.name ?? '', u);
      cpu += u.cpu;
      mem += u.mem;
    }
    return { cpu, mem, timestamp, windowMs, containers };
  }
  return { ...usageOf(item.usage), timestamp, windowMs };
}
