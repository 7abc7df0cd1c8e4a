/**
 * Which pods a forward may use now, best first: pure functions of what the watches hold. A pod
 * is ready when its `Ready` condition is True and it is not being deleted; a Service's pods are
 * also those its EndpointSlices list as ready (when it has slices); a workload's pods are only
 * those it owns (a Deployment's through its ReplicaSets).
 */
import type { KubeObject } from '../informer';
import { ownedByWorkload, type WorkloadKind } from '../logs/workload-pods';
import type { ResolvedTarget } from './forward-target';

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function podReady(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const status = rec(pod.status);
  if (status.phase !== undefined && status.phase !== 'Running') return false;
  return arr(status.conditions).some((c) => rec(c).type === 'Ready' && rec(c).status === 'True');
}

/** Pod names the Service's EndpointSlices list as ready; undefined when it has none (then pod readiness alone decides). */
export function readyEndpointPods(slices: readonly KubeObject[]): Set<string> | undefined {
  if (slices.length === 0) return undefined;
  const out = new Set<string>();
  for (const slice of slices) {
    for (const e of arr((slice as unknown as Json).endpoints)) {
      const ep = rec(e);
      const ready = rec(ep.conditions).ready;
      const ref = rec(ep.targetRef);
      if (ready !== false && ref.kind === 'Pod' && typeof ref.name === 'string') out.add(ref.name);
    }
  }
  return out;
}

export interface PodsSeen {
  readonly pods: readonly KubeObject[];
  /** The namespace's ReplicaSets (a Deployment target); undefined when not read. */
  readonly replicaSets?: readonly KubeObject[];
  /** The Service's EndpointSlices (a Service target). */
  readonly slices?: readonly KubeObject[];
}

/**
 * The ready pods of `target`, oldest first (a stable choice: a forward stays on its pod while
 * that pod stays ready, and the next one is the longest-lived of the rest).
 */
export function readyPods(target: ResolvedTarget, seen: PodsSeen): KubeObject[] {
  const { spec } = target;
  let pods = seen.pods.filter((p) => (p.metadata.namespace ?? '') === spec.namespace && podReady(p));
  if (spec.kind === 'Pod') pods = pods.filter((p) => p.metadata.name === spec.name);
  else if (spec.kind === 'Deployment' || spec.kind === 'StatefulSet' || spec.kind === 'ReplicaSet') {
    const workload = { kind: spec.kind as WorkloadKind, namespace: spec.namespace, name: spec.name, uid: target.uid, selector: target.selector ?? '' };
    pods = pods.filter((p) => ownedByWorkload(p, workload, seen.replicaSets));
  } else if (spec.kind === 'Service') {
    const endpoints = readyEndpointPods(seen.slices ?? []);
    if (endpoints) pods = pods.filter((p) => endpoints.has(p.metadata.name ?? ''));
  }
  return pods.sort((a, b) => String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? '')) || String(a.metadata.name).localeCompare(String(b.metadata.name)));
}
