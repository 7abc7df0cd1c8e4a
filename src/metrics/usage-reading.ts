import type { KubeObject } from '../informer';
import { isOwnedBy } from '../ownership';
import type { ClusterMetrics, SampleRecord } from './cluster-metrics';
import { METRICS_STALE_AFTER_MS } from './cluster-metrics';
import type { MetricsAvailability } from './metrics-availability';
import { nodeFigures, podFigures, sumUsage, type NodeFigures, type PodFigures, type Usage } from './usage-math';
import type { UsageSample } from './metrics-wire';

/**
 * What can be said of one object's usage now: a value (fresh or stale, with its sample), or why
 * there is none: the pod does not run, no sample yet, or the API's own state (not installed,
 * forbidden, unavailable).
 */
export type UsageReading<F> =
  | { readonly kind: 'value'; readonly figures: F; readonly sample: UsageSample; readonly history: SampleRecord['history'] }
  | { readonly kind: 'stale'; readonly figures: F; readonly sample: UsageSample; readonly history: SampleRecord['history']; readonly ageMs: number }
  | { readonly kind: 'not-running'; readonly why: string }
  | { readonly kind: 'no-sample' }
  | { readonly kind: 'unavailable'; readonly availability: MetricsAvailability };

function phaseOf(pod: KubeObject): string {
  return ((pod.status as { phase?: string } | undefined)?.phase ?? 'Unknown');
}

function fromRecord<F>(record: SampleRecord | undefined, availability: MetricsAvailability, now: number, figures: (u: Usage) => F): UsageReading<F> {
  if (availability.kind === 'no-api' || availability.kind === 'forbidden') return { kind: 'unavailable', availability };
  if (record) {
    const ageMs = now - record.sample.timestamp;
    const f = figures(record.sample);
    if (ageMs > METRICS_STALE_AFTER_MS) return { kind: 'stale', figures: f, sample: record.sample, history: record.history, ageMs };
    return { kind: 'value', figures: f, sample: record.sample, history: record.history };
  }
  if (availability.kind === 'ok') return { kind: 'no-sample' };
  return { kind: 'unavailable', availability };
}

/** A pod's usage against its requests and limits (k9s's CPU, MEM, %CPU/R, %MEM/L). */
export function podReading(metrics: ClusterMetrics, pod: KubeObject, now: number): UsageReading<PodFigures> {
  const phase = phaseOf(pod);
  if (pod.metadata.deletionTimestamp === undefined && phase !== 'Running') return { kind: 'not-running', why: `not running (${phase})` };
  const ns = pod.metadata.namespace ?? '';
  return fromRecord(metrics.pod(ns, pod.metadata.name ?? ''), metrics.availability(ns), now, (u) => podFigures(pod, u));
}

/** A node's usage against its allocatable. */
export function nodeReading(metrics: ClusterMetrics, node: KubeObject, now: number): UsageReading<NodeFigures> {
  return fromRecord(metrics.node(node.metadata.name ?? ''), metrics.availability(undefined), now, (u) => nodeFigures(node, u));
}

/** Where a workload's pods are found: the informers' objects of a kind in a namespace. */
export type ObjectsOf = (kind: 'Pod' | 'ReplicaSet', namespace: string) => readonly KubeObject[];

/**
 * The pods of a workload: owned by it, or (a Deployment) by one of its ReplicaSets. When none of
 * a Deployment's ReplicaSets is known (ReplicaSets not watched), its pods are those whose
 * controlling ReplicaSet bears the Deployment's name and the pod's `pod-template-hash`, as the
 * Deployment controller names it.
 */
export function workloadPods(workload: KubeObject, objectsOf: ObjectsOf): KubeObject[] {
  const ns = workload.metadata.namespace ?? '';
  const uid = workload.metadata.uid;
  if (!uid) return [];
  const owners = new Set([uid]);
  if (workload.kind === 'Deployment') for (const rs of objectsOf('ReplicaSet', ns)) if (isOwnedBy(rs, uid) && rs.metadata.uid) owners.add(rs.metadata.uid);
  const pods = objectsOf('Pod', ns);
  if (workload.kind === 'Deployment' && owners.size === 1) return pods.filter((p) => isFromDeploymentNamed(p, workload.metadata.name ?? ''));
  return pods.filter((p) => [...owners].some((o) => isOwnedBy(p, o)));
}

function isFromDeploymentNamed(pod: KubeObject, deployment: string): boolean {
  const hash = pod.metadata.labels?.['pod-template-hash'];
  const refs = (pod.metadata as { ownerReferences?: { kind?: string; name?: string; controller?: boolean }[] }).ownerReferences ?? [];
  return !!hash && refs.some((r) => r.kind === 'ReplicaSet' && r.controller !== false && r.name === `${deployment}-${hash}`);
}

/** A workload's usage: the sum of its running pods' samples; stale when any counted sample is. */
export function workloadReading(metrics: ClusterMetrics, workload: KubeObject, objectsOf: ObjectsOf, now: number): UsageReading<Usage & { readonly pods: number; readonly counted: number }> {
  const pods = workloadPods(workload, objectsOf);
  const readings = pods.map((p) => podReading(metrics, p, now));
  const withValues = readings.filter((r): r is Extract<UsageReading<PodFigures>, { figures: PodFigures }> => r.kind === 'value' || r.kind === 'stale');
  const availability = metrics.availability(workload.metadata.namespace ?? '');
  if (withValues.length === 0) {
    if (pods.length > 0 && readings.every((r) => r.kind === 'not-running')) return { kind: 'not-running', why: 'no pod running' };
    if (availability.kind === 'ok') return pods.length === 0 ? { kind: 'not-running', why: 'no pods' } : { kind: 'no-sample' };
    return { kind: 'unavailable', availability };
  }
  const figures = { ...sumUsage(withValues.map((r) => r.figures)), pods: pods.length, counted: withValues.length };
  const oldest = withValues.reduce((a, b) => (b.sample.timestamp < a.sample.timestamp ? b : a));
  const stale = withValues.find((r) => r.kind === 'stale');
  if (stale && stale.kind === 'stale') return { kind: 'stale', figures, sample: oldest.sample, history: [], ageMs: stale.ageMs };
  return { kind: 'value', figures, sample: oldest.sample, history: [] };
}
