import type { KubeObject } from '../informer';

/** A type whose objects another kind owns, spelled for the manager's ad-hoc watches. */
export interface OwnedType {
  /** As kubectl spells it: `replicasets.apps`. */
  readonly spelling: string;
  readonly kind: string;
  readonly group: string;
  readonly resource: string;
}

const REPLICA_SETS: OwnedType = { spelling: 'replicasets.apps', kind: 'ReplicaSet', group: 'apps', resource: 'replicasets' };
const PODS: OwnedType = { spelling: 'pods', kind: 'Pod', group: '', resource: 'pods' };
const JOBS: OwnedType = { spelling: 'jobs.batch', kind: 'Job', group: 'batch', resource: 'jobs' };
/** The slices that name a Service's endpoints (`kubernetes.io/service-name=NAME`). */
export const ENDPOINT_SLICES: OwnedType = { spelling: 'endpointslices.discovery.k8s.io', kind: 'EndpointSlice', group: 'discovery.k8s.io', resource: 'endpointslices' };
export const POD_TYPE = PODS;

/**
 * What a kind's controller creates and owns (its `ownerReferences` point back with
 * `controller: true`): a Deployment its ReplicaSets, a CronJob its Jobs, the other workloads
 * their Pods. Undefined for a kind that owns nothing the view walks to.
 */
export function ownedTypeOf(kind: string | undefined): OwnedType | undefined {
  switch (kind) {
    case 'Deployment':
      return REPLICA_SETS;
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return PODS;
    case 'CronJob':
      return JOBS;
    default:
      return undefined;
  }
}

/** Whether a row of `kind` expands to related objects: what it owns, or a Service's Pods. */
export function hasRelated(kind: string | undefined): boolean {
  return kind === 'Service' || ownedTypeOf(kind) !== undefined;
}

/** Whether `obj`'s controller is the object with `uid` (kubectl's and the garbage collector's notion of owner). */
export function isOwnedBy(obj: KubeObject, uid: string): boolean {
  const refs = (obj.metadata as { ownerReferences?: { uid?: string; controller?: boolean }[] }).ownerReferences ?? [];
  return refs.some((r) => r.uid === uid && r.controller !== false);
}

/**
 * The Pods a Service's EndpointSlices name (`endpoints[].targetRef` of kind Pod), in the order
 * the slices list them, each once.
 */
export function podNamesOfSlices(slices: readonly KubeObject[]): string[] {
  const names = new Set<string>();
  for (const slice of slices) {
    const endpoints = (slice as { endpoints?: { targetRef?: { kind?: string; name?: string } }[] }).endpoints ?? [];
    for (const e of endpoints) if (e.targetRef?.kind === 'Pod' && e.targetRef.name) names.add(e.targetRef.name);
  }
  return [...names];
}
