/**
 * The Status bodies kube-apiserver 1.34 answers writes with, worded as recorded in
 * transcript writes-1.34.md (beside this file).
 */
import { failure, type StatusJson } from './status';
import type { ResourceDefinition, StatusCause } from './types';

/** `configmaps "web"` as messages name an object. */
function named(def: ResourceDefinition, name: string): string {
  return `${def.group ? `${def.resource}.${def.group}` : def.resource} "${name}"`;
}

function details(def: ResourceDefinition, name: string): { name: string; group?: string; kind: string } {
  return def.group ? { name, group: def.group, kind: def.resource } : { name, kind: def.resource };
}

/** 409 Conflict: the resourceVersion precondition of an update or patch failed. */
export function conflict(def: ResourceDefinition, name: string): StatusJson {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${named(def, name)}: the object has been modified; please apply your changes to the latest version and try again`, details(def, name));
}

/** 409 Conflict: the uid precondition failed. */
export function uidConflict(def: ResourceDefinition, name: string, namespace: string | undefined, given: string, actual: string): StatusJson {
  const key = `/registry/${def.group ? `${def.group}/` : ''}${def.resource}/${namespace ? `${namespace}/` : ''}${name}`;
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${named(def, name)}: StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${given}, UID in object meta: ${actual}`,
    details(def, name),
  );
}

/** 409 AlreadyExists for a create. */
export function alreadyExists(def: ResourceDefinition, name: string): StatusJson {
  return failure(409, 'AlreadyExists', `${named(def, name)} already exists`, details(def, name));
}

/** 422 Invalid with one cause per field, as validation words it. */
export function invalid(def: ResourceDefinition, name: string, causes: Required<StatusCause>[]): StatusJson {
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const kind = def.group ? `${def.kind}.${def.group}` : def.kind;
  const d = def.group ? { name, group: def.group, kind: def.kind, causes } : { name, kind: def.kind, causes };
  return failure(422, 'Invalid', `${kind} "${name}" is invalid: ${joined}`, d);
}

/** 422 for the options of a request (`dryRun=Yes`, an apply without fieldManager). */
export function invalidOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', cause: Required<StatusCause>): StatusJson {
  return failure(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${cause.field}: ${cause.message}`, { group: 'meta.k8s.io', kind, causes: [cause] });
}

/** 409 Conflict of a server-side apply: one FieldManagerConflict cause per field. */
export function applyConflicts(message: string, conflicts: { manager: string; field: string }[], apiVersion: string): StatusJson {
  return failure(409, 'Conflict', message, {
    causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${JSON.stringify(c.manager)} using ${apiVersion}`, field: c.field })),
  });
}

/** 400 BadRequest without details. */
export function badRequest(message: string): StatusJson {
  return failure(400, 'BadRequest', message);
}

/** 415 for a PATCH with a content type that is not a patch. */
export function unsupportedMediaType(): StatusJson {
  return failure(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
}

/** 415 for an object (POST, PUT) in a media type the server cannot read. */
export function unsupportedBodyType(): StatusJson {
  return failure(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}

/** 413 for a body over the server's limit (3 MiB). */
export function tooLarge(): StatusJson {
  return failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728', {});
}

/** A 500 without a reason, as the server sends for a resourceVersion it cannot parse. */
export function internal(message: string): StatusJson {
  const s = failure(500, '', message);
  const { reason: _r, ...rest } = s;
  return rest as StatusJson;
}
