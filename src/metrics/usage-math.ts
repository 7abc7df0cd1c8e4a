import type { KubeObject } from '../informer';
import { bytesOf, milliCores, percentOf } from './quantity';

/** CPU in millicores and memory in bytes. */
export interface Usage {
  readonly cpu: number;
  readonly mem: number;
}

/** What a pod's containers ask for and may use at most (sums; 0 where none sets it). */
export interface PodReservations {
  readonly cpuRequest: number;
  readonly memRequest: number;
  readonly cpuLimit: number;
  readonly memLimit: number;
}

/** A pod's usage against its reservations, as k9s's pod view computes it. */
export interface PodFigures extends Usage, PodReservations {
  /** %CPU/R: floor(cpu / requested cpu * 100); undefined when no container requests CPU. */
  readonly cpuOfRequest?: number;
  /** %MEM/L: floor(mem / memory limit * 100); undefined when no container limits memory. */
  readonly memOfLimit?: number;
}

/** A node's usage against its allocatable, as k9s's node view computes it. */
export interface NodeFigures extends Usage {
  readonly cpuAllocatable?: number;
  readonly memAllocatable?: number;
  readonly cpuPercent?: number;
  readonly memPercent?: number;
}

interface ContainerSpec {
  restartPolicy?: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

function specOf(pod: KubeObject): { containers?: ContainerSpec[]; initContainers?: ContainerSpec[] } {
  return (pod.spec ?? {}) as { containers?: ContainerSpec[]; initContainers?: ContainerSpec[] };
}

/**
 * The containers k9s counts (gatherCoMX): the app containers and the sidecars (init containers
 * with `restartPolicy: Always`, which run beside them); plain init containers have ended.
 */
function countedContainers(pod: KubeObject): ContainerSpec[] {
  const spec = specOf(pod);
  return [...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(spec.containers ?? [])];
}

/** A container's requests as k9s reads them: its requests, or its limits when it sets no request (the API server's defaulting). */
function requestsOf(c: ContainerSpec): Record<string, unknown> {
  const requests = c.resources?.requests;
  if (requests && Object.keys(requests).length > 0) return requests;
  return c.resources?.limits ?? {};
}

export function podReservations(pod: KubeObject): PodReservations {
  let cpuRequest = 0;
  let memRequest = 0;
  let cpuLimit = 0;
  let memLimit = 0;
  for (const c of countedContainers(pod)) {
    const r = requestsOf(c);
    cpuRequest += milliCores(r.cpu) ?? 0;
    memRequest += bytesOf(r.memory) ?? 0;
    cpuLimit += milliCores(c.resources?.limits?.cpu) ?? 0;
    memLimit += bytesOf(c.resources?.limits?.memory) ?? 0;
  }
  return { cpuRequest, memRequest, cpuLimit, memLimit };
}

/** A pod's figures from its containers' summed usage. */
export function podFigures(pod: KubeObject, usage: Usage): PodFigures {
  const r = podReservations(pod);
  return { ...usage, ...r, cpuOfRequest: percentOf(usage.cpu, r.cpuRequest), memOfLimit: percentOf(usage.mem, r.memLimit) };
}

/** A node's figures from its usage and `status.allocatable`. */
export function nodeFigures(node: KubeObject, usage: Usage): NodeFigures {
  const allocatable = ((node.status as { allocatable?: Record<string, unknown> } | undefined)?.allocatable ?? {}) as Record<string, unknown>;
  const cpuAllocatable = milliCores(allocatable.cpu);
  const memAllocatable = bytesOf(allocatable.memory);
  return { ...usage, cpuAllocatable, memAllocatable, cpuPercent: percentOf(usage.cpu, cpuAllocatable), memPercent: percentOf(usage.mem, memAllocatable) };
}

/** The sum of usages (a workload's pods). */
export function sumUsage(usages: Iterable<Usage>): Usage {
  let cpu = 0;
  let mem = 0;
  for (const u of usages) {
    cpu += u.cpu;
    mem += u.mem;
  }
  return { cpu, mem };
}
