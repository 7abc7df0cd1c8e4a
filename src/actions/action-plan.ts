import type { AccessQuery } from '../cluster/access-review';
import type { WriteRequest } from '../informer';
import type { ActionTarget } from './action-target';

/** Every action Kube Watch offers on an object. */
export type ActionId = 'delete' | 'scale' | 'restart' | 'undo' | 'cordon' | 'uncordon' | 'drain' | 'suspend' | 'resume' | 'createJob' | 'copyName' | 'copyKubectl';

/** Kube Watch's field manager (`kubeWatch.edit.fieldManager`): what the server records as the author of its writes. */
export { fieldManager } from '../base';

/** The object whose change the watch must show for a write to count as confirmed. */
export interface WatchedObject {
  /** Context name, as the watch entries report it. */
  readonly context: string;
  readonly group: string;
  readonly resource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
}

/** One write of a plan. */
export interface PlannedWrite {
  readonly request: WriteRequest;
  /** What the write needs to be allowed: the words of a refusal, and what a 403 makes the access cache forget. */
  readonly access: AccessQuery;
  /** The object the watch must show changed. */
  readonly watched: WatchedObject;
  /**
   * How the watch confirms it: the resourceVersion of the answer (the default), or the object
   * terminating or gone (an eviction, whose answer carries no resourceVersion).
   */
  readonly confirm?: 'resourceVersion' | 'deletion';
}

/**
 * What an action will do, decided before anything is sent: the words of the confirmation, the
 * kubectl command that does the same, and the writes. Invariant: `detail` names every object the
 * writes change and how; nothing is sent that the plan does not list.
 */
export interface ActionPlan {
  readonly action: ActionId;
  readonly target: ActionTarget;
  /** One line: "Scale Deployment shop/web from 2 to 3 replicas?". */
  readonly title: string;
  /** What will happen, in words. */
  readonly detail: string;
  /** The button that does it: "Scale", "Delete". */
  readonly button: string;
  /** Undone by the opposite action: a setting may skip its confirmation. */
  readonly reversible: boolean;
  /** The user must type this (a namespace's name) to confirm. */
  readonly typeToConfirm?: string;
  /** The kubectl command that does the same. */
  readonly kubectl: string;
  /** For the write journal: the verb (`scale`) and a short summary (`replicas 2 → 3`). */
  readonly verb: string;
  readonly summary: string;
  readonly writes: readonly PlannedWrite[];
}

/** The watched object of a plan's target. */
export function watchedOf(target: ActionTarget): WatchedObject {
  return { context: target.context, group: target.type.group, resource: target.type.resource, namespace: target.namespace, name: target.name };
}

/** An action that cannot be done on this object now, with kubectl's words for why (a paused Deployment). */
export class ActionNotPossible extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionNotPossible';
  }
}
