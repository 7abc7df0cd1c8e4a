import { labelSelectorText } from '../cluster/label-selector-text';
import type { KubeObject, KubeTransport } from '../informer';
import { ActionNotPossible, fieldManager, plannedOn, watchedOf, type ActionPlan } from './action-plan';
import { accessOf, collectionOf, kubectlObject, objectPath, targetTitle, type ActionTarget } from './action-target';
import { kubectl } from './kubectl-command';

/**
 * `kubectl rollout undo deployment/NAME --to-revision=N`, as kubectl's DeploymentRollbacker does
 * it (polymorphichelpers/rollback.go): the revisions are the Deployment's ReplicaSets (those it
 * controls among the ReplicaSets its selector matches, numbered by their
 * `deployment.kubernetes.io/revision`); rolling back puts the chosen one's pod template (without
 * its `pod-template-hash` label) into the Deployment, and its annotations beside the Deployment's
 * own bookkeeping ones, in one JSON patch. A paused Deployment is refused, a template that already
 * matches is skipped, both in kubectl's words.
 *
 * The plan is made from a fresh read of the Deployment and its ReplicaSets, never the watch's
 * cache (W09), and its JSON patch first tests the uid and the resourceVersion of that read (W02):
 * a Deployment changed or re-created since is refused, and nothing is written.
 */

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const HASH_LABEL = 'pod-template-hash';
/** Annotations kept from the Deployment, never copied from the ReplicaSet (kubectl's annotationsToSkip). */
const KEPT_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/** One revision of a Deployment: a ReplicaSet it controls. */
export interface Revision {
  readonly revision: number;
  readonly replicaSet: KubeObject;
  /** The images of its pod template's containers. */
  readonly images: string[];
  /** Its template is the Deployment's now. */
  readonly current: boolean;
  /** The Deployment as read together with the ReplicaSets: the undo is planned on it. */
  readonly deployment?: KubeObject;
}

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/**
 * The Deployment's revisions, newest first: the Deployment read fresh (GET), then its ReplicaSets
 * listed by its selector as read (as kubectl does). Each revision carries that fresh Deployment.
 */
export async function listRevisions(transport: Pick<KubeTransport, 'list' | 'getJson'>, target: ActionTarget, signal: AbortSignal): Promise<Revision[]> {
  const deployment = await transport.getJson<KubeObject>(objectPath(target), {}, signal);
  const selector = labelSelectorText(rec(deployment.spec).selector);
  const collection = collectionOf({ group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true }, target.namespace);
  const list = await transport.list(collection, selector ? { labelSelector: selector } : {}, signal);
  return revisionsOf(deployment, (list.items ?? []) as KubeObject[]);
}

/** The revisions among `replicaSets` (those the Deployment controls), newest first. */
export function revisionsOf(deployment: KubeObject, replicaSets: readonly KubeObject[]): Revision[] {
  const uid = deployment.metadata.uid;
  const template = rec(rec(deployment.spec).template);
  const out: Revision[] = [];
  for (const rs of replicaSets) {
    const owner = ((rs.metadata.ownerReferences as { uid?: string; controller?: boolean }[] | undefined) ?? []).find((r) => r.controller);
    if (!owner || (uid && owner.uid !== uid)) continue;
    const revision = Number(rs.metadata.annotations?.[REVISION_ANNOTATION]);
    if (!Number.isInteger(revision) || revision < 0) continue;
    const rsTemplate = rec(rec(rs.spec).template);
    const images = ((rec(rsTemplate.spec).containers as { image?: string }[] | undefined) ?? []).map((c) => c.image ?? '');
    out.push({ revision, replicaSet: rs, images, current: equalIgnoreHash(rsTemplate, template), deployment });
  }
  return out.sort((a, b) => b.revision - a.revision);
}

/** The revision `kubectl rollout undo` picks without `--to-revision`: the second newest. */
export function previousRevision(revisions: readonly Revision[]): Revision | undefined {
  return [...revisions].sort((a, b) => b.revision - a.revision)[1];
}

/** Plans the undo on the Deployment as read with the revisions (`to.deployment`), the one the user saw (same uid). */
export function planUndo(seen: ActionTarget, to: Revision): ActionPlan {
  const target: ActionTarget = to.deployment ? { ...seen, object: to.deployment } : seen;
  const seenUid = seen.object.metadata.uid;
  const readUid = target.object.metadata.uid;
  if (seenUid && readUid && seenUid !== readUid) {
    throw new ActionNotPossible(`${targetTitle(seen)} was deleted and re-created since it was shown (uid ${seenUid} → ${readUid}): nothing was planned on the new one`);
  }
  const spec = rec(target.object.spec);
  if (spec.paused === true) throw new ActionNotPossible(`you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${target.name}' and try again`);
  const template = structuredClone(rec(rec(to.replicaSet.spec).template));
  if (equalIgnoreHash(template, rec(spec.template))) throw new ActionNotPossible(`skipped rollback (current template already matches revision ${to.revision})`);
  const meta = rec(template.metadata);
  const labels = { ...rec(meta.labels) } as Record<string, string>;
  delete labels[HASH_LABEL];
  template.metadata = { ...meta, labels };
  const annotations: Record<string, string> = {};
  const own = target.object.metadata.annotations ?? {};
  for (const k of KEPT_ANNOTATIONS) if (own[k] !== undefined) annotations[k] = own[k];
  for (const [k, v] of Object.entries(to.replicaSet.metadata.annotations ?? {})) if (!KEPT_ANNOTATIONS.has(k)) annotations[k] = v;
  const title = targetTitle(target);
  const currentImages = ((rec(rec(spec.template).spec).containers as { image?: string }[] | undefined) ?? []).map((c) => c.image ?? '');
  return {
    action: 'undo',
    target,
    title: `Roll ${title} back to revision ${to.revision}?`,
    detail: `Puts the pod template of revision ${to.revision} (ReplicaSet ${to.replicaSet.metadata.name ?? ''}: ${to.images.join(', ') || 'no containers'}) back into ${title}, which now runs ${currentImages.join(', ') || 'no containers'}; its rolling update then replaces the Pods, and the rollback becomes the newest revision. As kubectl rollout undo does, one JSON patch replaces spec.template and the annotations (the Deployment keeps its revision bookkeeping).`,
    button: 'Roll Back',
    reversible: false,
    kubectl: kubectl(target, 'rollout', 'undo', kubectlObject(target), `--to-revision=${to.revision}`),
    verb: 'rollback',
    summary: `to revision ${to.revision}`,
    writes: [
      {
        request: {
          method: 'PATCH',
          path: objectPath(target),
          query: { fieldManager: fieldManager() },
          body: JSON.stringify([
            ...preconditionTests(target),
            { op: 'replace', path: '/spec/template', value: template },
            { op: target.object.metadata.annotations ? 'replace' : 'add', path: '/metadata/annotations', value: annotations },
          ]),
          contentType: 'application/json-patch+json',
        },
        access: accessOf(target, 'patch'),
        watched: watchedOf(target),
        plannedOn: plannedOn(target),
      },
    ],
  };
}

/** JSON patch `test` operations of the uid and resourceVersion the plan was made on. */
function preconditionTests(target: ActionTarget): { op: 'test'; path: string; value: string }[] {
  const on = plannedOn(target);
  return [...(on.uid ? [{ op: 'test' as const, path: '/metadata/uid', value: on.uid }] : []), ...(on.resourceVersion ? [{ op: 'test' as const, path: '/metadata/resourceVersion', value: on.resourceVersion }] : [])];
}

/** Two pod templates are the same apart from `pod-template-hash` (kubectl's equalIgnoreHash; empty and absent alike). */
export function equalIgnoreHash(a: Json, b: Json): boolean {
  const strip = (t: Json) => {
    const copy = structuredClone(t);
    const meta = rec(copy.metadata);
    const labels = { ...rec(meta.labels) };
    delete labels[HASH_LABEL];
    copy.metadata = { ...meta, labels };
    return copy;
  };
  return semanticEqual(strip(a), strip(b));
}

/** Deep equality where null, absent, `{}` and `[]` are all the same (apimachinery's Semantic.DeepEqual on nil and empty). */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual((a as Json)[k], (b as Json)[k])) return false;
    return true;
  }
  return a === b;
}
