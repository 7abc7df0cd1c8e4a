/**
 * Which field changes a history leaves out of its summaries.
 *
 * Never shown (bookkeeping that changes with every write or says nothing new):
 * - `metadata.resourceVersion`: changes on every write by definition;
 * - `metadata.managedFields`: who wrote which field, rewritten on every apply;
 * - `metadata.generation`: the server bumps it exactly when the spec changes, so it only repeats
 *   what the spec paths already say (and for types without a spec it never moves).
 *
 * Heartbeat noise (left out by default, and consecutive heartbeat-only versions are merged):
 * timestamps under `status` that controllers and the kubelet refresh without anything else
 * changing: conditions' `lastHeartbeatTime` (Nodes), `lastProbeTime` (Pods), `lastUpdateTime`
 * (Deployments, ReplicaSets), and a `lastTransitionTime` that moved alone. A condition whose
 * `status`, `reason` or `message` changed is reported under those fields, so its timestamp adds
 * nothing.
 */

/** Paths (as key arrays from the object root) never reported. */
const IGNORED: readonly (readonly string[])[] = [
  ['metadata', 'resourceVersion'],
  ['metadata', 'managedFields'],
  ['metadata', 'generation'],
];

/** Field names that are heartbeat timestamps when under `status`. */
export const HEARTBEAT_FIELDS: ReadonlySet<string> = new Set(['lastHeartbeatTime', 'lastProbeTime', 'lastUpdateTime', 'lastTransitionTime']);

/** True for a path summaries never report (it or one of its ancestors is ignored). */
export function isIgnoredPath(path: readonly (string | number)[]): boolean {
  return IGNORED.some((p) => p.length <= path.length && p.every((seg, i) => path[i] === seg));
}

/** True for a heartbeat timestamp: under `status`, a field named in HEARTBEAT_FIELDS. */
export function isHeartbeatPath(path: readonly (string | number)[], heartbeatFields: ReadonlySet<string> = HEARTBEAT_FIELDS): boolean {
  const last = path[path.length - 1];
  return path[0] === 'status' && typeof last === 'string' && heartbeatFields.has(last);
}
