import { ActionNotPossible, fieldManager, metadataPreconditions, plannedOn, watchedOf, type ActionPlan } from './action-plan';
import { accessOf, kubectlObject, objectPath, targetTitle, type ActionTarget } from './action-target';
import { kubectl } from './kubectl-command';

/**
 * Scale and rollout restart, as kubectl does them (transcript actions-1.34.md):
 * - scale: a merge patch `{"spec":{"replicas":N}}` on the `/scale` subresource (Deployment,
 *   StatefulSet, ReplicaSet), as `kubectl scale` sends it;
 * - restart: a strategic merge patch setting the pod template's annotation
 *   `kubectl.kubernetes.io/restartedAt` to now (RFC 3339, local time), as `kubectl rollout
 *   restart` does (polymorphichelpers/objectrestarter.go); a paused Deployment is refused with
 *   kubectl's words.
 * Both carry the object's uid and the resourceVersion the plan was made on in the patch's
 * metadata (W02, W09): the Scale's uid and resourceVersion are the workload's, and the server
 * refuses a different uid (409 "Precondition failed: UID in precondition") or a newer object (409).
 */

/** Kinds with a `/scale` subresource that Scale offers. */
export const SCALABLE_KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet'] as const;
/** Kinds `kubectl rollout restart` restarts. */
export const RESTARTABLE_KINDS = ['Deployment', 'DaemonSet', 'StatefulSet'] as const;
/** The annotation kubectl sets on the pod template to restart a workload. */
export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

const APPS = 'apps';

export function isScalable(target: Pick<ActionTarget, 'type'>): boolean {
  return target.type.group === APPS && (SCALABLE_KINDS as readonly string[]).includes(target.type.kind);
}

export function isRestartable(target: Pick<ActionTarget, 'type'>): boolean {
  return target.type.group === APPS && (RESTARTABLE_KINDS as readonly string[]).includes(target.type.kind);
}

/** The replicas the object asks for now (`spec.replicas`, default 1). */
export function currentReplicas(target: ActionTarget): number {
  const replicas = (target.object.spec as { replicas?: unknown } | undefined)?.replicas;
  return typeof replicas === 'number' ? replicas : 1;
}

/** An error for a replica count typed by the user, or undefined when it is one. */
export function replicasProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return 'a whole number of replicas, 0 or more';
  if (Number(trimmed) > 10_000) return 'at most 10000 replicas';
  return undefined;
}

export function planScale(target: ActionTarget, replicas: number): ActionPlan {
  const from = currentReplicas(target);
  const title = targetTitle(target);
  const change = replicas > from ? `its controller then creates ${replicas - from} Pod${replicas - from === 1 ? '' : 's'}` : replicas < from ? `its controller then deletes ${from - replicas} Pod${from - replicas === 1 ? '' : 's'}` : 'nothing changes';
  return {
    action: 'scale',
    target,
    title: `Scale ${title} from ${from} to ${replicas} replica${replicas === 1 ? '' : 's'}?`,
    detail: `Sets spec.replicas of ${title} to ${replicas} through its /scale subresource; ${change}. Scale it back to ${from} to undo.${target.type.kind === 'ReplicaSet' ? ' A ReplicaSet owned by a Deployment is scaled back by it.' : ''}`,
    button: 'Scale',
    reversible: true,
    kubectl: kubectl(target, 'scale', kubectlObject(target), `--replicas=${replicas}`),
    verb: 'scale',
    summary: `replicas ${from} → ${replicas}`,
    writes: [
      {
        request: {
          method: 'PATCH',
          path: objectPath(target, 'scale'),
          query: { fieldManager: fieldManager() },
          body: JSON.stringify({ ...metadataPreconditions(plannedOn(target)), spec: { replicas } }),
          contentType: 'application/merge-patch+json',
        },
        access: accessOf(target, 'patch', 'scale'),
        watched: watchedOf(target),
        plannedOn: plannedOn(target),
      },
    ],
  };
}

/** RFC 3339 in local time, as Go's `time.Now().Format(time.RFC3339)`: `2026-11-25T18:18:40+01:00`, `Z` at UTC. */
export function rfc3339Local(ms: number, offsetMinutes = -new Date(ms).getTimezoneOffset()): string {
  const local = new Date(ms + offsetMinutes * 60_000);
  const stamp = local.toISOString().replace(/\.\d{3}Z$/, '');
  if (offsetMinutes === 0) return `${stamp}Z`;
  const sign = offsetMinutes > 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return `${stamp}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export function planRestart(target: ActionTarget, now: number, offsetMinutes?: number): ActionPlan {
  const spec = (target.object.spec ?? {}) as { paused?: boolean; replicas?: number; strategy?: { type?: string }; updateStrategy?: { type?: string } };
  if (target.type.kind === 'Deployment' && spec.paused) throw new ActionNotPossible("can't restart paused deployment (run rollout resume first)");
  const at = rfc3339Local(now, offsetMinutes);
  const title = targetTitle(target);
  const strategy = spec.strategy?.type ?? spec.updateStrategy?.type ?? (target.type.kind === 'Deployment' ? 'RollingUpdate' : 'RollingUpdate');
  const how = strategy === 'Recreate' ? 'its Pods are all stopped, then new ones start (strategy Recreate)' : strategy === 'OnDelete' ? 'new Pods start only as you delete the old ones (update strategy OnDelete)' : 'its Pods are replaced by new ones a few at a time, as its rolling update allows';
  return {
    action: 'restart',
    target,
    title: `Restart ${title}?`,
    detail: `Sets the pod template annotation ${RESTARTED_AT} of ${title} to ${at}, as kubectl rollout restart does: ${how}. Nothing else in its spec changes.`,
    button: 'Restart',
    reversible: false,
    kubectl: kubectl(target, 'rollout', 'restart', kubectlObject(target)),
    verb: 'restart',
    summary: `restartedAt ${at}`,
    writes: [
      {
        request: {
          method: 'PATCH',
          path: objectPath(target),
          query: { fieldManager: fieldManager() },
          body: JSON.stringify({ ...metadataPreconditions(plannedOn(target)), spec: { template: { metadata: { annotations: { [RESTARTED_AT]: at } } } } }),
          contentType: 'application/strategic-merge-patch+json',
        },
        access: accessOf(target, 'patch'),
        watched: watchedOf(target),
        plannedOn: plannedOn(target),
      },
    ],
  };
}
