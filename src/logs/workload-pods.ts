/**
 * Which pods belong to a workload, and which of their containers have a log to read: pure
 * functions of the objects as the informers report them, so the rules are testable.
 */
import { labelSelectorText } from '../cluster/label-selector-text';
import type { KubeObject } from '../informer';

/** The kinds whose pods "Follow Logs" can follow together (kubectl `logs deploy/NAME`, …). */
export const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export function isWorkloadKind(kind: string | undefined): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind ?? '');
}

/** A workload as the log set needs it: where its pods are, how to select them, how they name it. */
export interface WorkloadRef {
  readonly kind: WorkloadKind;
  readonly namespace: string;
  readonly name: string;
  /** Empty when the object has none (then ownership is matched by name). */
  readonly uid: string;
  /** `spec.selector` as a label selector string, never empty. */
  readonly selector: string;
}

interface OwnerRef {
  kind?: unknown;
  name?: unknown;
  uid?: unknown;
  controller?: unknown;
}

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/**
 * `spec.selector` (`matchLabels` and `matchExpressions`) as the `labelSelector` query parameter:
 * `app=web,tier in (a,b),!canary`. Undefined when the selector selects nothing it could name
 * (absent or empty: an empty selector would mean every pod of the namespace, which no workload means).
 */
export function labelSelectorOf(selector: unknown): string | undefined {
  return labelSelectorText(selector) || undefined;
}

/** The workload behind an object of `kind`, or a one-line reason why its pods cannot be found. */
export function workloadRefOf(kind: string | undefined, obj: KubeObject): WorkloadRef | string {
  const name = obj.metadata.name ?? '';
  if (!isWorkloadKind(kind)) return `${kind ?? 'this object'} has no pods of its own to follow`;
  const selector = labelSelectorOf(rec(obj.spec).selector);
  if (!selector) return `${kind} ${name} has no pod selector`;
  return { kind, namespace: obj.metadata.namespace ?? '', name, uid: obj.metadata.uid ?? '', selector };
}

/** The owner that controls `obj` (`controller: true`), else its first owner. */
export function controllerOf(obj: KubeObject): OwnerRef | undefined {
  const refs = arr(obj.metadata.ownerReferences).map(rec) as OwnerRef[];
  return refs.find((r) => r.controller === true) ?? refs[0];
}

function refersTo(ref: OwnerRef | undefined, kind: string, name: string, uid: string): boolean {
  if (!ref || ref.kind !== kind) return false;
  return uid !== '' && typeof ref.uid === 'string' && ref.uid !== '' ? ref.uid === uid : ref.name === name;
}

/**
 * True when `pod` (already matched by the workload's selector) is the workload's: its controller
 * is the workload, or for a Deployment a ReplicaSet whose controller is the Deployment.
 * `replicaSets` are the ReplicaSets known in the namespace, undefined when they cannot be read
 * (then the selector decides, as it does for a pod with no owner at all). A pod whose
 * ReplicaSet is not known yet is not the Deployment's (yet).
 */
export function ownedByWorkload(pod: KubeObject, workload: WorkloadRef, replicaSets: readonly KubeObject[] | undefined): boolean {
  const owner = controllerOf(pod);
  if (!owner) return true;
  if (workload.kind !== 'Deployment') return refersTo(owner, workload.kind, workload.name, workload.uid);
  if (owner.kind !== 'ReplicaSet') return false;
  if (!replicaSets) return true;
  const rs = replicaSets.find((r) => refersTo(owner, 'ReplicaSet', r.metadata.name ?? '', r.metadata.uid ?? ''));
  return rs !== undefined && refersTo(controllerOf(rs), 'Deployment', workload.name, workload.uid);
}

interface ContainerStatusLike {
  name?: unknown;
  containerID?: unknown;
  state?: { running?: unknown; terminated?: unknown };
  lastState?: { terminated?: unknown };
}

/**
 * The containers of `pod` with a log to read, in kubectl's `--all-containers` order (init, then
 * regular, then ephemeral): those whose status says they ran (a container id, running or
 * terminated now or before). A regular container of a pod that reports no container statuses
 * at all counts as readable (nothing says otherwise; the follower retries if it is not).
 */
export function readableContainers(pod: KubeObject): string[] {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const names = (list: unknown) => arr(list).map((c) => str(rec(c).name)).filter((n) => n !== '');
  const statuses = (list: unknown) => new Map(arr(list).map((s) => [str(rec(s).name), rec(s) as ContainerStatusLike]));
  const ran = (s: ContainerStatusLike | undefined) =>
    s !== undefined && ((typeof s.containerID === 'string' && s.containerID !== '') || !!s.state?.running || !!s.state?.terminated || !!s.lastState?.terminated);
  const out: string[] = [];
  const initStatuses = statuses(status.initContainerStatuses);
  for (const n of names(spec.initContainers)) if (ran(initStatuses.get(n))) out.push(n);
  const regularStatuses = statuses(status.containerStatuses);
  const noStatuses = !Array.isArray(status.containerStatuses);
  for (const n of names(spec.containers)) if (noStatuses || ran(regularStatuses.get(n))) out.push(n);
  const ephemeralStatuses = statuses(status.ephemeralContainerStatuses);
  for (const n of names(spec.ephemeralContainers)) if (ran(ephemeralStatuses.get(n))) out.push(n);
  return out;
}

/** A pod that Succeeded or Failed: its containers will not run again, their logs have ended. */
export function podFinished(pod: KubeObject): boolean {
  const phase = rec(pod.status).phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * True when `container` of `pod` has exited and will not run again, so its log has ended (the
 * kubelet ends a follow stream of an exited container at once): an init container that completed
 * (not a sidecar, `restartPolicy: Always`), an ephemeral container, or any container that exited
 * under the pod's `restartPolicy` Never (or OnFailure with exit code 0).
 */
export function containerEndedForGood(pod: KubeObject, container: string): boolean {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const find = (list: unknown) => arr(list).map(rec).find((c) => c.name === container);
  const policy = str(spec.restartPolicy) || 'Always';
  const roles: Array<['init' | 'regular' | 'ephemeral', unknown, unknown]> = [
    ['init', spec.initContainers, status.initContainerStatuses],
    ['regular', spec.containers, status.containerStatuses],
    ['ephemeral', spec.ephemeralContainers, status.ephemeralContainerStatuses],
  ];
  for (const [role, specs, statuses] of roles) {
    const s = find(statuses);
    if (!s || !find(specs)) continue;
    const state = rec(s.state);
    if (state.terminated === undefined || state.terminated === null) return false;
    const terminated = rec(state.terminated);
    const exitCode = typeof terminated.exitCode === 'number' ? terminated.exitCode : undefined;
    if (role === 'ephemeral') return true;
    if (role === 'init') return str(rec(find(specs)).restartPolicy) !== 'Always' && exitCode === 0;
    return policy === 'Never' || (policy === 'OnFailure' && exitCode === 0);
  }
  return false;
}
