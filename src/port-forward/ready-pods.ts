/**
 * Which pods a forward may use now, best first: pure functions of what the watches hold. A pod
 * can take a forward when it is Running and not being deleted, Ready or not (kubectl forwards to
 * a Running pod whose readiness probe fails: the usual reason to debug it, W14); a Ready one is
 * preferred. A Service's ready pods are those its EndpointSlices list as ready (when it has
 * slices); a workload's pods are only those it owns (a Deployment's through its ReplicaSets).
 */
import type { KubeObject } from '../informer';
import { ownedByWorkload, type WorkloadKind } from '../logs/workload-pods';
import type { ResolvedTarget } from './forward-target';

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Running (or of no reported phase) and not being deleted: its containers can take a connection. */
export function podRunning(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const phase = rec(pod.status).phase;
  return phase === undefined || phase === 'Running';
}

/** Running and its `Ready` condition True. */
export function podReady(pod: KubeObject): boolean {
  return podRunning(pod) && arr(rec(pod.status).conditions).some((c) => rec(c).type === 'Ready' && rec(c).status === 'True');
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

/** A pod a forward may use, and whether it is one of the preferred (ready) ones. */
export interface UsablePod {
  readonly pod: KubeObject;
  readonly ready: boolean;
}

/**
 * The pods of `target` a forward may use: the ready ones first, then those Running but not
 * ready; each group oldest first (a stable choice: a forward stays on its pod while nothing
 * better appears, and the next one is the longest-lived of the rest).
 */
export function usablePods(target: ResolvedTarget, seen: PodsSeen): UsablePod[] {
  const { spec } = target;
  let pods = seen.pods.filter((p) => (p.metadata.namespace ?? '') === spec.namespace && podRunning(p));
  if (spec.kind === 'Pod') pods = pods.filter((p) => p.metadata.name === spec.name);
  else if (spec.kind === 'Deployment' || spec.kind === 'StatefulSet' || spec.kind === 'ReplicaSet') {
    const workload = { kind: spec.kind as WorkloadKind, namespace: spec.namespace, name: spec.name, uid: target.uid, selector: target.selector ?? '' };
    pods = pods.filter((p) => ownedByWorkload(p, workload, seen.replicaSets));
  }
  const endpoints = spec.kind === 'Service' ? readyEndpointPods(seen.slices ?? []) : undefined;
  const ready = (p: KubeObject) => podReady(p) && (!endpoints || endpoints.has(p.metadata.name ?? ''));
  const oldestFirst = (a: KubeObject, b: KubeObject) => String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? '')) || String(a.metadata.name).localeCompare(String(b.metadata.name));
  const sorted = [...pods].sort(oldestFirst).map((pod) => ({ pod, ready: ready(pod) }));
  return [...sorted.filter((p) => p.ready), ...sorted.filter((p) => !p.ready)];
}

/** The ready pods of `target`, oldest first (the preferred ones of `usablePods`). */
export function readyPods(target: ResolvedTarget, seen: PodsSeen): KubeObject[] {
  return usablePods(target, seen)
    .filter((p) => p.ready)
    .map((p) => p.pod);
}
