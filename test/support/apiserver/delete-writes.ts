/**
 * DELETE of one object with DeleteOptions, from the body (`{"gracePeriodSeconds":10,
 * "propagationPolicy":"Foreground","preconditions":{"uid":…}}`, as kubectl sends them) or the
 * query (`?gracePeriodSeconds=20&propagationPolicy=Orphan&dryRun=All`); the work is
 * object-deleter.ts'. A collection DELETE (deletecollection) is left to the next handler (405).
 */
import type { WriteCall, WriteServerParts } from './writes';
import type { DeleteRequest, ObjectDeleter, PropagationPolicy } from './object-deleter';
import { failure, type StatusJson } from './status';

const POLICIES = new Set(['Foreground', 'Background', 'Orphan']);

export function deleteWrites(deleter: ObjectDeleter): (call: WriteCall, server: WriteServerParts) => boolean {
  return (call, server) => {
    const { route, def } = call;
    if (call.method !== 'DELETE' || !def || route.name === undefined || route.subresource !== undefined) return false;
    if (route.namespace !== undefined && !def.namespaced) return false;
    const parsed = deleteRequestOf(call);
    if ('refused' in parsed) {
      call.reply(parsed.refused.code, parsed.refused);
      return true;
    }
    const outcome = deleter.delete(server, def, route.namespace, route.name, parsed);
    call.reply(outcome.status, outcome.body);
    return true;
  };
}

/** The DeleteOptions of a DELETE (body first, then query), or the Status refusing them. */
export function deleteRequestOf(call: Pick<WriteCall, 'body' | 'query'>): DeleteRequest | { refused: StatusJson } {
  let options: { gracePeriodSeconds?: unknown; propagationPolicy?: unknown; preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: unknown } = {};
  const text = call.body.toString('utf8').trim();
  if (text) {
    try {
      options = JSON.parse(text) as typeof options;
    } catch {
      return { refused: failure(400, 'BadRequest', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf') };
    }
  }
  return deleteRequestFrom(options, call.query);
}

/** DeleteOptions as the server reads them (an Eviction's `deleteOptions` too). */
export function deleteRequestFrom(
  options: { gracePeriodSeconds?: unknown; propagationPolicy?: unknown; preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: unknown },
  query: Record<string, string> = {},
): DeleteRequest | { refused: StatusJson } {
  const policy = options.propagationPolicy ?? query.propagationPolicy;
  if (policy !== undefined && (typeof policy !== 'string' || !POLICIES.has(policy))) {
    const message = `Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan", "nil"`;
    return {
      refused: failure(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: ${message}`, {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueNotSupported', message, field: 'propagationPolicy' }],
      }),
    };
  }
  const grace = options.gracePeriodSeconds ?? (query.gracePeriodSeconds !== undefined ? Number(query.gracePeriodSeconds) : undefined);
  const dryRun = Array.isArray(options.dryRun) ? options.dryRun.includes('All') : query.dryRun === 'All';
  return {
    ...(typeof grace === 'number' && Number.isFinite(grace) ? { gracePeriodSeconds: Math.max(0, Math.floor(grace)) } : {}),
    ...(policy ? { propagationPolicy: policy as PropagationPolicy } : {}),
    ...(options.preconditions ? { preconditions: options.preconditions } : {}),
    ...(dryRun ? { dryRun } : {}),
  };
}
