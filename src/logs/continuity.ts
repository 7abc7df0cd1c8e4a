/**
 * What the follower tells the reader when a stream resumes: how long the gap was and whether
 * lines may have been lost. Pure functions of what was seen, so the markers are testable.
 */

/** The identity of a container's current run, as the pod informer reports it. */
export interface ContainerRun {
  /** `status.containerStatuses[].restartCount`. */
  readonly restartCount: number;
  /** `status.containerStatuses[].containerID`; empty while the container has not started. */
  readonly containerId: string;
}

/** The container status of `container` in `pod` (regular, init or ephemeral), if the pod has one. */
export function containerRunOf(pod: unknown, container: string): ContainerRun | undefined {
  const status = (pod as { status?: Record<string, unknown> } | undefined)?.status;
  if (!status) return undefined;
  for (const field of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    const list = status[field];
    if (!Array.isArray(list)) continue;
    for (const s of list as Array<{ name?: unknown; restartCount?: unknown; containerID?: unknown }>) {
      if (s?.name !== container) continue;
      return {
        restartCount: typeof s.restartCount === 'number' ? s.restartCount : 0,
        containerId: typeof s.containerID === 'string' ? s.containerID : '',
      };
    }
  }
  return undefined;
}

/** True when the container ran again between `before` and `after` (lines of the old run may be lost). */
export function restartedBetween(before: ContainerRun | undefined, after: ContainerRun | undefined): boolean {
  if (!before || !after) return false;
  if (after.restartCount !== before.restartCount) return true;
  return before.containerId !== '' && after.containerId !== '' && before.containerId !== after.containerId;
}

/** The marker written when a stream resumes: whole seconds between the stream's end and its resumption. */
export function reconnectMarker(gapMs: number, restarted: boolean): string {
  const seconds = Math.max(0, Math.round(gapMs / 1000));
  const base = `reconnected, ${seconds} s gap`;
  return restarted ? `${base}; the container restarted meanwhile: lines written before the restart may have been lost` : base;
}
