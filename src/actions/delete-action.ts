import { fieldManager, plannedOn, watchedOf, type ActionPlan } from './action-plan';
import { accessOf, kubectlObject, objectPath, targetTitle, type ActionTarget } from './action-target';
import { kubectl } from './kubectl-command';

/** What happens to the objects an object owns when it is deleted (`kubectl delete --cascade`). */
export type Propagation = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  /** Seconds a Pod gets to stop; undefined: its own `terminationGracePeriodSeconds` (kubectl's default). */
  gracePeriodSeconds?: number;
  /** Default Background, as the server's and kubectl's. */
  propagation?: Propagation;
}

interface OwnerReference {
  kind?: string;
  name?: string;
  controller?: boolean;
}

/** The grace period a Pod gets when none is given: its own, else the server's default of 30 s. */
export function defaultGraceSeconds(target: ActionTarget): number | undefined {
  if (target.type.group !== '' || target.type.resource !== 'pods') return undefined;
  const grace = (target.object.spec as { terminationGracePeriodSeconds?: unknown } | undefined)?.terminationGracePeriodSeconds;
  return typeof grace === 'number' ? grace : 30;
}

/** True for a namespace: deleting it deletes everything in it, and its name must be typed. */
export function isNamespace(target: ActionTarget): boolean {
  return target.type.group === '' && target.type.resource === 'namespaces';
}

/**
 * Deleting one object, as `kubectl delete TYPE/NAME` does, with a uid precondition so that an
 * object deleted and re-created under the same name meanwhile is never the one deleted.
 */
export function planDelete(target: ActionTarget, options: DeleteOptions = {}): ActionPlan {
  const propagation = options.propagation ?? 'Background';
  const isPod = target.type.group === '' && target.type.resource === 'pods';
  const grace = isPod ? options.gracePeriodSeconds : undefined;
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: propagation };
  if (grace !== undefined) body.gracePeriodSeconds = grace;
  if (target.object.metadata.uid) body.preconditions = { uid: target.object.metadata.uid };
  const flags: string[] = [];
  if (grace !== undefined) flags.push(`--grace-period=${grace}`);
  if (propagation !== 'Background') flags.push(`--cascade=${propagation.toLowerCase()}`);
  const title = targetTitle(target);
  return {
    action: 'delete',
    target,
    title: `Delete ${title}?`,
    detail: deleteDetail(target, propagation, isPod ? (grace ?? defaultGraceSeconds(target)) : undefined),
    button: 'Delete',
    reversible: false,
    ...(isNamespace(target) ? { typeToConfirm: target.name } : {}),
    kubectl: kubectl(target, 'delete', kubectlObject(target), ...flags),
    verb: 'delete',
    summary: grace !== undefined ? `grace ${grace} s` : propagation === 'Background' ? '' : propagation.toLowerCase(),
    writes: [
      {
        request: { method: 'DELETE', path: objectPath(target), query: { fieldManager: fieldManager() }, body: JSON.stringify(body) },
        access: accessOf(target, 'delete'),
        watched: watchedOf(target),
        plannedOn: plannedOn(target, false),
      },
    ],
  };
}

function deleteDetail(target: ActionTarget, propagation: Propagation, grace: number | undefined): string {
  const title = targetTitle(target);
  if (isNamespace(target)) {
    return `Deletes namespace ${target.name} and every object in it: its Pods, Deployments, Services, ConfigMaps, Secrets and the rest. It stays Terminating until they are gone. This cannot be undone: type the namespace's name to confirm.`;
  }
  const owner = ((target.object.metadata.ownerReferences as OwnerReference[] | undefined) ?? []).find((r) => r.controller);
  const lines: string[] = [];
  if (grace !== undefined) {
    const bound = Boolean((target.object.spec as { nodeName?: string } | undefined)?.nodeName);
    lines.push(
      grace === 0 || !bound
        ? `Deletes ${title} at once${bound ? ' (grace period 0: its containers are killed without waiting)' : ' (it runs on no node)'}.`
        : `Deletes ${title} with a grace period of ${grace} s: it turns Terminating, its containers get SIGTERM and ${grace} s to stop, then it is removed.`,
    );
  } else {
    lines.push(`Deletes ${title}.`);
  }
  if (owner?.kind && owner.name) lines.push(`It is owned by ${owner.kind} ${owner.name}, which will ${owner.kind === 'Job' ? 'not bring it back' : 'create a replacement'}.`);
  switch (propagation) {
    case 'Background':
      lines.push('What it owns (if anything) is deleted by the garbage collector after it.');
      break;
    case 'Foreground':
      lines.push('It stays, marked for deletion, until the garbage collector has deleted what it owns; then it goes.');
      break;
    case 'Orphan':
      lines.push('What it owns stays, without an owner.');
      break;
  }
  lines.push(`The delete applies only to this object (uid ${target.object.metadata.uid ?? 'unknown'}), not to one re-created under the same name.`);
  return lines.join(' ');
}
