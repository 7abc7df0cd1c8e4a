import type { AccessQuery } from '../cluster/access-review';
import type { WriteRequest } from '../informer';
import { objectPath, targetTitle, type ActionTarget } from './action-target';

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
  /** The uid of the object the write was planned for: a relist that no longer holds it shows a delete; an object under its name with another uid is not it. */
  readonly uid?: string;
}

/**
 * What a write was planned on: the object's uid and, where the write depends on what the user
 * saw, its resourceVersion. The request carries both as preconditions (W02, W09); a refusal
 * against them means the object moved since the plan (`WriteResult.moved`).
 */
export interface PlannedOn {
  readonly uid?: string;
  readonly resourceVersion?: string;
  /** `Deployment shop/web`: the object in the words of a refusal. */
  readonly title?: string;
  /** Where the object is read to say how it moved (the object's path, not a subresource's). */
  readonly path?: string;
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
  /** The object as the plan saw it, when the request carries preconditions on it. */
  readonly plannedOn?: PlannedOn;
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
  const uid = target.object.metadata.uid;
  return { context: target.context, group: target.type.group, resource: target.type.resource, namespace: target.namespace, name: target.name, ...(uid ? { uid } : {}) };
}

/** The target's uid and resourceVersion as the plan saw them. */
export function plannedOn(target: ActionTarget, withVersion = true): PlannedOn {
  const { uid, resourceVersion } = target.object.metadata;
  return { ...(uid ? { uid } : {}), ...(withVersion && resourceVersion ? { resourceVersion } : {}), title: targetTitle(target), path: objectPath(target) };
}

/**
 * The preconditions of a merge or strategic merge patch: `metadata.uid` (a different uid is
 * refused as immutable, 422) and `metadata.resourceVersion` (a newer object is refused with 409
 * Conflict). Measured on kube-apiserver 1.34: a JSON patch `test` that fails answers a bare 422
 * "the server rejected our request due to an error in our request", which says nothing of why,
 * so the merge patches carry their preconditions in metadata instead.
 */
export function metadataPreconditions(on: PlannedOn): { metadata?: { uid?: string; resourceVersion?: string } } {
  const metadata = { ...(on.uid ? { uid: on.uid } : {}), ...(on.resourceVersion ? { resourceVersion: on.resourceVersion } : {}) };
  return Object.keys(metadata).length > 0 ? { metadata } : {};
}

/** An action that cannot be done on this object now, with kubectl's words for why (a paused Deployment). */
export class ActionNotPossible extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionNotPossible';
  }
}
