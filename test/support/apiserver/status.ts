/**
 * metav1.Status bodies, shaped and ordered exactly as kube-apiserver 1.26 writes them
 * (kind, apiVersion, metadata, status, message, reason, details?, code), see transcripts 05, 07, 08, 11.
 */
import type { StatusCause } from './types';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusJson {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Failure';
  message: string;
  reason: string;
  details?: StatusDetails;
  code: number;
}

/** Builds a Failure Status; `details` is omitted when undefined (an empty object is kept). */
export function failure(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
  metadata: { continue?: string } = {},
): StatusJson {
  const s: StatusJson = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message, reason, code };
  if (details === undefined) return s;
  // Re-insert `code` so that it stays the last key, as on the wire.
  const { code: c, ...rest } = s;
  return { ...rest, details, code: c };
}

export const TOO_OLD_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
  'without the continue parameter, or use the continue token in this response to retrieve the remainder of the ' +
  'results. Continuing with the provided token results in an inconsistent list - objects that were created, ' +
  'modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export const unauthorized = (): StatusJson => failure(401, 'Unauthorized', 'Unauthorized');

/**
 * RBAC's 403 on a resource request: for system:anonymous (transcript 07), or for `user` (as
 * 1.34.9 refuses a user without a RoleBinding, test/real/wire-parity): the same message and details.
 */
export function forbiddenResource(
  verb: string,
  group: string,
  resource: string,
  namespace: string | undefined,
  name: string | undefined,
  user = 'system:anonymous',
): StatusJson {
  const qualified = group ? `${resource}.${group}` : resource;
  const subject = name ? `${qualified} "${name}"` : qualified;
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (group) details.group = group;
  details.kind = resource;
  return failure(
    403,
    'Forbidden',
    `${subject} is forbidden: User ${JSON.stringify(user)} cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`,
    details,
  );
}

/** 403 for system:anonymous on a non-resource path such as /api. */
export const forbiddenPath = (path: string): StatusJson =>
  failure(403, 'Forbidden', `forbidden: User "system:anonymous" cannot get path "${path}"`, {});

/** 404 for an unknown resource inside a known group (transcript 08). */
export const resourceNotFound = (): StatusJson =>
  failure(404, 'NotFound', 'the server could not find the requested resource', {});

/** 404 for a missing object. */
export function objectNotFound(group: string, resource: string, name: string): StatusJson {
  const qualified = group ? `${resource}.${group}` : resource;
  const details: StatusDetails = { name };
  if (group) details.group = group;
  details.kind = resource;
  return failure(404, 'NotFound', `${qualified} "${name}" not found`, details);
}

/** 410 for a LIST with a stale continue token; carries a fresh token with rv -1 (transcript 05). */
export const continueExpired = (freshContinue: string): StatusJson =>
  failure(410, 'Expired', TOO_OLD_CONTINUE_MESSAGE, undefined, { continue: freshContinue });

/** 410 for a LIST at a compacted resourceVersion (transcript 11). */
export const listTooOld = (): StatusJson =>
  failure(410, 'Expired', 'The resourceVersion for the provided list is too old.');

/** The Status inside the ERROR event of a watch from a resourceVersion the server no longer has. */
export function watchTooOld(watchCache: boolean, requested: number, oldest: number): StatusJson {
  return watchCache
    ? failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`)
    : failure(410, 'Expired', 'The resourceVersion for the provided watch is too old.');
}

/**
 * The ERROR a watch without the watch cache gets for a change at the compacted revision when it
 * starts just below it: etcd hands the change over without its previous value (modern/12).
 */
export function prevKvNil(key: string, modRevision: number, type: 'PUT' | 'DELETE'): StatusJson {
  const cause = `etcd event received with PrevKv=nil (key=${JSON.stringify(key)}, modRevision=${modRevision}, type=${type})`;
  return failure(500, 'InternalError', `Internal error occurred: ${cause}`, { causes: [{ message: cause }] });
}

/** 504 for a resourceVersion newer than the server's (client-go's "Too large resource version"). */
export function tooLargeResourceVersion(requested: number, current: number): StatusJson {
  return failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

export const badRequest = (message: string): StatusJson => failure(400, 'BadRequest', message);

/** Go's strconv.ParseUint error for a resourceVersion that is not a number, as the validation quotes it. */
function resourceVersionParseError(raw: string): string {
  return `resourceVersion: Invalid value: ${JSON.stringify(raw)}: strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`;
}

/** 400 for a LIST whose resourceVersion is not a number (1.34.9, test/real/wire-parity). */
export const listInvalidResourceVersion = (raw: string): StatusJson => badRequest(`invalid resource version: ${resourceVersionParseError(raw)}`);

/**
 * A watch whose resourceVersion is not a number: the real server answers 500 with the parser's
 * message and neither reason nor details (1.34.9, test/real/wire-parity).
 */
export function watchInvalidResourceVersion(raw: string): StatusJson {
  const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: resourceVersionParseError(raw), code: 500 };
  return s as unknown as StatusJson; // the one Status without a reason: built by hand, keys in wire order
}

export const methodNotAllowed = (): StatusJson =>
  failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

/** 422 for invalid ListOptions (transcript 06); `causes` are FieldValueForbidden on resourceVersionMatch. */
export function invalidListOptions(messages: string[]): StatusJson {
  const causes = messages.map((m) => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${m}`, field: 'resourceVersionMatch' }));
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return failure(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${joined}`, {
    group: 'meta.k8s.io',
    kind: 'ListOptions',
    causes,
  });
}

/** 422 for watch options a 1.33/1.34 server refuses (transcripts modern/03, modern/11). */
export function invalidWatchOptions(causes: { reason: string; message: string; field: string }[]): StatusJson {
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return failure(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${joined}`, { group: 'meta.k8s.io', kind: 'ListOptions', causes });
}

/** The Status a fault carries; details only when retryAfterSeconds or causes are given. */
export function faultStatus(
  code: number,
  reason: string,
  message: string,
  retryAfterSeconds?: number,
  causes?: StatusCause[],
): StatusJson {
  if (retryAfterSeconds === undefined && causes === undefined) return failure(code, reason, message);
  const details: StatusDetails = {};
  if (causes !== undefined) details.causes = causes;
  if (retryAfterSeconds !== undefined) details.retryAfterSeconds = retryAfterSeconds;
  return failure(code, reason, message, details);
}
