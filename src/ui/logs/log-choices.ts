/**
 * What "Follow Logs" offers for a Pod: first the last terminated run (`--previous`) of each
 * container that has one, saying how it ended; then "all containers" when it has several; then
 * its containers (regular, init, ephemeral). Pure: read from the Pod object as the informer reports it.
 */

/** One item of the container picker. */
export interface LogChoice {
  readonly label: string;
  readonly description?: string;
  /** The containers to follow (several: "all containers", lines prefixed with their container). */
  readonly containers: readonly string[];
  /** Read the last terminated run once (`previous=true`) instead of following. */
  readonly previous: boolean;
}

interface ContainerSpec {
  name?: unknown;
}
interface ContainerStatus {
  name?: unknown;
  restartCount?: unknown;
  lastState?: { terminated?: unknown };
}
interface PodLike {
  spec?: { containers?: ContainerSpec[]; initContainers?: ContainerSpec[]; ephemeralContainers?: ContainerSpec[] };
  status?: { containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[]; ephemeralContainerStatuses?: ContainerStatus[] };
}

type ContainerRole = 'container' | 'init' | 'ephemeral';

interface NamedContainer {
  readonly name: string;
  readonly role: ContainerRole;
}

/** The Pod's containers in kubectl's order: regular, then init, then ephemeral. */
export function containersOf(pod: unknown): NamedContainer[] {
  const spec = (pod as PodLike | undefined)?.spec;
  const out: NamedContainer[] = [];
  const add = (list: ContainerSpec[] | undefined, role: ContainerRole) => {
    if (!Array.isArray(list)) return;
    for (const c of list) if (typeof c?.name === 'string' && c.name !== '') out.push({ name: c.name, role });
  };
  add(spec?.containers, 'container');
  add(spec?.initContainers, 'init');
  add(spec?.ephemeralContainers, 'ephemeral');
  return out;
}

/** True when `container` has a terminated run to read with `previous=true` (it restarted, or its last state is terminated). */
export function hasPreviousRun(pod: unknown, container: string): boolean {
  const status = (pod as PodLike | undefined)?.status;
  for (const list of [status?.containerStatuses, status?.initContainerStatuses, status?.ephemeralContainerStatuses]) {
    if (!Array.isArray(list)) continue;
    const s = list.find((x) => x?.name === container);
    if (!s) continue;
    return (typeof s.restartCount === 'number' && s.restartCount > 0) || (s.lastState?.terminated !== undefined && s.lastState.terminated !== null);
  }
  return false;
}

function restartsOf(pod: unknown, container: string): number {
  const status = (pod as PodLike | undefined)?.status;
  for (const list of [status?.containerStatuses, status?.initContainerStatuses, status?.ephemeralContainerStatuses]) {
    const s = Array.isArray(list) ? list.find((x) => x?.name === container) : undefined;
    if (s && typeof s.restartCount === 'number') return s.restartCount;
  }
  return 0;
}

const ROLE_TEXT: Record<ContainerRole, string | undefined> = { container: undefined, init: 'init container', ephemeral: 'ephemeral container' };

/** The last terminated run of `container` as its status reports it (`lastState.terminated`, else `state.terminated`). */
interface Terminated {
  reason?: unknown;
  exitCode?: unknown;
  signal?: unknown;
  finishedAt?: unknown;
  message?: unknown;
}

function terminatedOf(pod: unknown, container: string): Terminated | undefined {
  const status = (pod as PodLike | undefined)?.status;
  for (const list of [status?.containerStatuses, status?.initContainerStatuses, status?.ephemeralContainerStatuses]) {
    const s = Array.isArray(list) ? (list.find((x) => x?.name === container) as (ContainerStatus & { state?: { terminated?: unknown } }) | undefined) : undefined;
    if (!s) continue;
    const t = s.lastState?.terminated ?? s.state?.terminated;
    return typeof t === 'object' && t !== null ? (t as Terminated) : undefined;
  }
  return undefined;
}

/**
 * Why the last run of `container` ended, in the words of its status: `OOMKilled, exit code 137,
 * finished 2026-01-02T10:00:00Z`; `exit code 1` when the kubelet gave no reason; undefined when
 * the status says nothing of it.
 */
export function lastRunEnd(pod: unknown, container: string): string | undefined {
  const t = terminatedOf(pod, container);
  if (!t) return undefined;
  const parts: string[] = [];
  if (typeof t.reason === 'string' && t.reason !== '') parts.push(t.reason);
  if (typeof t.exitCode === 'number') parts.push(`exit code ${t.exitCode}`);
  if (typeof t.signal === 'number' && t.signal !== 0) parts.push(`signal ${t.signal}`);
  if (typeof t.finishedAt === 'string' && t.finishedAt !== '') parts.push(`finished ${t.finishedAt}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/**
 * The heading of a previous run's log: `previous run of app (before restart 3): OOMKilled, exit
 * code 137, finished …`, so the reader knows how the run they read ended before reading it.
 */
export function previousRunHeading(pod: unknown, container: string): string {
  const restarts = restartsOf(pod, container);
  const end = lastRunEnd(pod, container);
  return `previous run of ${container}${restarts > 0 ? ` (before restart ${restarts})` : ''}: ${end ?? 'how it ended is not in the pod\'s status'}`;
}

/**
 * The picker's items: first the last terminated run of each container that has one (on a pod
 * that restarted, the log that explains the restart is the one wanted first, as `kubectl logs
 * --previous`), its description saying how it ended; then "all containers" when there are
 * several; then one per container. A Pod with no container gives none.
 */
export function logChoicesOf(pod: unknown): LogChoice[] {
  const containers = containersOf(pod);
  const out: LogChoice[] = [];
  for (const c of containers) {
    if (!hasPreviousRun(pod, c.name)) continue;
    const restarts = restartsOf(pod, c.name);
    const end = lastRunEnd(pod, c.name);
    out.push({
      label: `${c.name} (previous)`,
      description: `the last terminated run${restarts > 0 ? `, before restart ${restarts}` : ''}${end ? `: ${end}` : ''}`,
      containers: [c.name],
      previous: true,
    });
  }
  if (containers.length > 1) {
    out.push({ label: 'All containers', description: containers.map((c) => c.name).join(', '), containers: containers.map((c) => c.name), previous: false });
  }
  for (const c of containers) out.push({ label: c.name, description: ROLE_TEXT[c.role], containers: [c.name], previous: false });
  return out;
}
