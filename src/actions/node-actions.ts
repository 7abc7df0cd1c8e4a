import { fieldManager, metadataPreconditions, plannedOn, watchedOf, type ActionPlan, type PlannedOn } from './action-plan';
import { accessOf, objectPath, type ActionTarget } from './action-target';
import { kubectl } from './kubectl-command';

/**
 * Cordon and uncordon, as kubectl's CordonHelper sends them: a strategic merge patch of the Node,
 * `{"spec":{"unschedulable":true}}` and `{"spec":{"unschedulable":null}}` (the two-way merge patch
 * of `false`, which the API leaves out), with the Node's uid and the resourceVersion the plan was
 * made on in its metadata (W02, W09).
 */

export function isNode(target: Pick<ActionTarget, 'type'>): boolean {
  return target.type.group === '' && target.type.resource === 'nodes';
}

/** `spec.unschedulable` of a Node. */
export function isCordoned(target: Pick<ActionTarget, 'object'>): boolean {
  return (target.object.spec as { unschedulable?: unknown } | undefined)?.unschedulable === true;
}

/** The patch that sets a Node schedulable or not, as `kubectl cordon`/`uncordon` sends it, with the preconditions of `on`. */
export function cordonPatch(unschedulable: boolean, on: PlannedOn = {}): string {
  return JSON.stringify({ ...metadataPreconditions(on), spec: { unschedulable: unschedulable ? true : null } });
}

export function planCordon(target: ActionTarget, unschedulable: boolean): ActionPlan {
  const verb = unschedulable ? 'cordon' : 'uncordon';
  return {
    action: verb,
    target,
    title: `${unschedulable ? 'Cordon' : 'Uncordon'} node ${target.name}?`,
    detail: unschedulable
      ? `Marks node ${target.name} unschedulable (spec.unschedulable: true): no new Pod is placed on it; the Pods running there keep running. Uncordon it to undo.`
      : `Marks node ${target.name} schedulable again (removes spec.unschedulable): new Pods may be placed on it.`,
    button: unschedulable ? 'Cordon' : 'Uncordon',
    reversible: true,
    kubectl: kubectl(undefined, verb, target.name, ...(target.context ? ['--context', target.context] : [])),
    verb,
    summary: '',
    writes: [
      {
        request: { method: 'PATCH', path: objectPath(target), query: { fieldManager: fieldManager() }, body: cordonPatch(unschedulable, plannedOn(target)), contentType: 'application/strategic-merge-patch+json' },
        access: accessOf(target, 'patch'),
        watched: watchedOf(target),
        plannedOn: plannedOn(target),
      },
    ],
  };
}
