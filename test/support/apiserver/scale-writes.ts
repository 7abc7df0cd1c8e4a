/**
 * The `/scale` subresource of Deployments, ReplicaSets and StatefulSets (transcript
 * actions-1.34.md): PATCH (merge, strategic merge or JSON patch, as `kubectl scale` sends a merge
 * patch) or PUT a `Scale` (autoscaling/v1); the parent's `spec.replicas` changes (its generation
 * goes up, MODIFIED) and the answer is the Scale at the parent's new resourceVersion. A Scale that
 * changes nothing stores nothing. A PUT with a stale `metadata.resourceVersion` gets the 409 of
 * an update.
 */
import type { KubeObjectJson, ResourceDefinition } from './types';
import type { WriteCall, WriteServerParts } from './writes';
import { objectKey } from './store';
import { qualifiedName } from './resources';
import { PatchError, jsonPatch, mergePatch, strategicMergePatch } from './patches';
import { failure, type StatusJson } from './status';
import { conflict } from './write-status';

const SCALABLE = new Set(['apps/deployments', 'apps/replicasets', 'apps/statefulsets']);

/** The Scale of a scalable object, as GET …/scale answers. */
export function scaleOf(obj: KubeObjectJson): KubeObjectJson {
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
  const status = (obj.status ?? {}) as { replicas?: number };
  const selector = Object.entries(spec.selector?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: spec.replicas ?? 1 },
    status: { replicas: status.replicas ?? 0, selector },
  };
}

export function scaleWrites(call: WriteCall, server: WriteServerParts): boolean {
  const { route, def } = call;
  if (route.subresource !== 'scale' || !def || route.name === undefined || route.namespace === undefined) return false;
  if (!SCALABLE.has(`${def.group}/${def.resource}`)) return false;
  if (call.method !== 'PATCH' && call.method !== 'PUT') return false;
  const q = qualifiedName(def);
  const key = objectKey(route.namespace, route.name);
  const current = server.store.peek(q, key);
  if (!current) {
    call.reply(404, failure(404, 'NotFound', `${def.resource}.${def.group} "${route.name}" not found`, { name: route.name, group: def.group, kind: def.resource }));
    return true;
  }
  const before = scaleOf(current);
  let wanted: KubeObjectJson;
  try {
    wanted = desiredScale(call, before);
  } catch (err) {
    const refused = err instanceof PatchError ? failure(err.code, err.code === 422 ? 'Invalid' : 'BadRequest', err.message) : failure(400, 'BadRequest', (err as Error).message);
    call.reply(refused.code, refused);
    return true;
  }
  if (call.method === 'PUT' && wanted.metadata.resourceVersion && wanted.metadata.resourceVersion !== current.metadata.resourceVersion) {
    call.reply(409, conflict(def, route.name));
    return true;
  }
  const replicas = (wanted.spec as { replicas?: unknown } | undefined)?.replicas;
  const invalid = invalidReplicas(route.name, replicas);
  if (invalid) {
    call.reply(422, invalid);
    return true;
  }
  if (replicas === (before.spec as { replicas: number }).replicas || call.query.dryRun === 'All') {
    call.reply(200, { ...before, spec: { replicas } });
    return true;
  }
  call.reply(200, scaleOf(setReplicas(server, def, key, current, replicas as number)));
  return true;
}

function desiredScale(call: WriteCall, before: KubeObjectJson): KubeObjectJson {
  const body: unknown = JSON.parse(call.body.toString('utf8') || 'null');
  if (call.method === 'PUT') return body as KubeObjectJson;
  switch (call.contentType) {
    case 'application/merge-patch+json':
      return mergePatch(before, body) as KubeObjectJson;
    case 'application/strategic-merge-patch+json':
      return strategicMergePatch(before, body) as KubeObjectJson;
    case 'application/json-patch+json':
      return jsonPatch(before, body) as KubeObjectJson;
    default:
      throw new PatchError(400, `the content type ${call.contentType || '(none)'} is not a patch this server applies to /scale`);
  }
}

function invalidReplicas(name: string, replicas: unknown): StatusJson | undefined {
  if (typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= 0) return undefined;
  const message = `Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`;
  return failure(422, 'Invalid', `Scale.autoscaling "${name}" is invalid: spec.replicas: ${message}`, {
    name,
    group: 'autoscaling',
    kind: 'Scale',
    causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.replicas' }],
  });
}

function setReplicas(server: WriteServerParts, def: ResourceDefinition, key: string, current: KubeObjectJson, replicas: number): KubeObjectJson {
  const rv = server.store.nextRv();
  const next = structuredClone(current);
  next.spec = { ...((next.spec as object | undefined) ?? {}), replicas };
  if (typeof next.metadata.generation === 'number') next.metadata.generation += 1;
  next.metadata.resourceVersion = String(rv);
  server.store.commit({ rv, resource: qualifiedName(def), key, type: 'MODIFIED', object: next, prev: current });
  return next;
}
