import type { AccessQuery } from '../cluster/access-review';
import type { ActionId } from './action-plan';
import { accessOf, type ActionTarget } from './action-target';
import { isCronJob, isSuspended } from './cronjob-actions';
import { isCordoned, isNode } from './node-actions';
import { isRestartable, isScalable } from './workload-actions';

/**
 * Which actions an object offers, and what the user must be allowed to do for each: the kind
 * decides what applies (Scale for Deployments, StatefulSets and ReplicaSets, Cordon for a Node
 * that is schedulable, …), the access reviews decide what is offered. The questions are asked per
 * type and namespace, not per name, so that one answer serves every row of a namespace.
 */
export interface ActionDefinition {
  readonly id: ActionId;
  /** As menus show it. */
  readonly title: string;
  /** Changes something on the server. */
  readonly writes: boolean;
  /** Undone by the opposite action (its confirmation may be skipped by setting). */
  readonly reversible: boolean;
  appliesTo(target: ActionTarget): boolean;
  /** What the user must be allowed, all of it, for the action to be offered. */
  needs(target: ActionTarget): AccessQuery[];
}

const isDeployment = (t: ActionTarget) => t.type.group === 'apps' && t.type.kind === 'Deployment';
const byType = (t: ActionTarget, verb: string, subresource?: string) => accessOf(t, verb, subresource, false);

export const ACTIONS: readonly ActionDefinition[] = [
  { id: 'scale', title: 'Scale…', writes: true, reversible: true, appliesTo: isScalable, needs: (t) => [byType(t, 'patch', 'scale')] },
  { id: 'restart', title: 'Rollout Restart', writes: true, reversible: false, appliesTo: isRestartable, needs: (t) => [byType(t, 'patch')] },
  {
    id: 'undo',
    title: 'Rollout Undo…',
    writes: true,
    reversible: false,
    appliesTo: isDeployment,
    needs: (t) => [byType(t, 'patch'), { verb: 'list', group: 'apps', resource: 'replicasets', namespace: t.namespace }],
  },
  { id: 'cordon', title: 'Cordon', writes: true, reversible: true, appliesTo: (t) => isNode(t) && !isCordoned(t), needs: (t) => [byType(t, 'patch')] },
  { id: 'uncordon', title: 'Uncordon', writes: true, reversible: true, appliesTo: (t) => isNode(t) && isCordoned(t), needs: (t) => [byType(t, 'patch')] },
  {
    id: 'drain',
    title: 'Drain…',
    writes: true,
    reversible: false,
    appliesTo: isNode,
    needs: (t) => [byType(t, 'patch'), { verb: 'list', group: '', resource: 'pods' }, { verb: 'create', group: '', resource: 'pods', subresource: 'eviction' }],
  },
  { id: 'suspend', title: 'Suspend', writes: true, reversible: true, appliesTo: (t) => isCronJob(t) && !isSuspended(t), needs: (t) => [byType(t, 'patch')] },
  { id: 'resume', title: 'Resume', writes: true, reversible: true, appliesTo: (t) => isCronJob(t) && isSuspended(t), needs: (t) => [byType(t, 'patch')] },
  {
    id: 'createJob',
    title: 'Create Job Now…',
    writes: true,
    reversible: false,
    appliesTo: isCronJob,
    needs: (t) => [{ verb: 'create', group: 'batch', resource: 'jobs', namespace: t.namespace }],
  },
  { id: 'delete', title: 'Delete…', writes: true, reversible: false, appliesTo: (t) => !t.object.metadata.deletionTimestamp || t.type.resource === 'pods', needs: (t) => [byType(t, 'delete')] },
  { id: 'copyName', title: 'Copy Name', writes: false, reversible: true, appliesTo: () => true, needs: () => [] },
  { id: 'copyKubectl', title: 'Copy kubectl Command…', writes: false, reversible: true, appliesTo: () => true, needs: () => [] },
];

export function actionById(id: ActionId): ActionDefinition {
  const found = ACTIONS.find((a) => a.id === id);
  if (!found) throw new Error(`unknown action ${id}`);
  return found;
}

/** The actions that apply to the object's kind and state (permissions aside), in menu order. */
export function applicableActions(target: ActionTarget): ActionDefinition[] {
  return ACTIONS.filter((a) => a.appliesTo(target));
}
