/**
 * What "Follow Logs" offers for a Pod: its containers (regular, init, ephemeral), "all
 * containers" when it has several, and the last terminated run (`--previous`) of each container
 * that has one. Pure: read from the Pod object as the informer reports it.
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

/**
 * The picker's items: "all containers" first when there are several, then one per container,
 * then one "previous" per container with a terminated run. A Pod with no container gives none.
 */
export function logChoicesOf(pod: unknown): LogChoice[] {
  const containers = containersOf(pod);
  const out: LogChoice[] = [];
  if (containers.length > 1) {
    out.push({ label: 'All containers', description: containers.map((c) => c.name).join(', '), containers: containers.map((c) => c.name), previous: false });
  }
  for (const c of containers) out.push({ label: c.name, description: ROLE_TEXT[c.role], containers: [c.name], previous: false });
  for (const c of containers) {
    if (!hasPreviousRun(pod, c.name)) continue;
    const restarts = restartsOf(pod, c.name);
    out.push({
      label: `${c.name} (previous)`,
      description: `the last terminated run${restarts > 0 ? `, before restart ${restarts}` : ''}`,
      containers: [c.name],
      previous: true,
    });
  }
  return out;
}
