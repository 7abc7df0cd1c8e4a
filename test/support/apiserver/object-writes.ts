/**
 * Writes of whole objects, as kube-apiserver 1.34 answers them (transcript writes-1.34.md):
 * POST to a collection (create, 201), PUT to an object (update, with the
 * `metadata.resourceVersion` and `metadata.uid` preconditions and their 409s), PATCH with a
 * JSON merge, strategic merge, JSON or apply patch, and `dryRun=All` for each (the answer is
 * what would be stored; nothing is stored, no event is sent). managedFields follow
 * field-manager.ts. An update that changes nothing stores nothing and answers the object as it
 * is (the same resourceVersion), as the real server does.
 *
 * Not here: subresources (404 unless another handler takes them), DELETE (405 unless another
 * handler takes it), admission, defaulting.
 */
import { load } from 'js-yaml';
import type { KubeObjectJson, ResourceDefinition } from './types';
import type { WriteCall, WriteServerParts } from './writes';
import { notFound } from './writes';
import { objectKey } from './store';
import { qualifiedName, groupVersionOf } from './resources';
import { kubeTime, uuidFrom, withTypeMeta } from './object-meta';
import { applyConfiguration, applyConflictMessage, managedFieldsAfterUpdate } from './field-manager';
import { PatchError, jsonPatch, mergePatch, strategicMergePatch } from './patches';
import { decodeProblem, validationCauses } from './validation';
import { undeclaredFieldMessage } from './apply-schema';
import * as s from './write-status';

const PATCH_TYPES = new Set(['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml']);

/** Metadata keys in the order the real server writes them. */
const META_ORDER = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

function ordered(obj: KubeObjectJson): KubeObjectJson {
  const meta: Record<string, unknown> = {};
  for (const k of META_ORDER) if (obj.metadata[k] !== undefined) meta[k] = obj.metadata[k];
  for (const [k, v] of Object.entries(obj.metadata)) if (!(k in meta) && v !== undefined) meta[k] = v;
  const { kind: _k, apiVersion: _a, metadata: _m, ...rest } = obj;
  return { metadata: meta as KubeObjectJson['metadata'], ...rest };
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The write handler for create, update and patch of a served type's objects. */
export function objectWrites(call: WriteCall, server: WriteServerParts): boolean {
  const def = call.def;
  if (!def || call.route.subresource !== undefined) return false;
  if (call.route.namespace !== undefined && !def.namespaced) return false;
  const dryRun = call.query.dryRun;
  if (dryRun !== undefined && dryRun !== 'All') {
    const kind = call.method === 'POST' ? 'CreateOptions' : call.method === 'PUT' ? 'UpdateOptions' : 'PatchOptions';
    call.reply(422, s.invalidOptions(kind, { reason: 'FieldValueNotSupported', message: `Unsupported value: ["${dryRun}"]: supported values: "All"`, field: 'dryRun' }));
    return true;
  }
  const writer = new ObjectWriter(call, server, def, dryRun === 'All');
  if (call.method === 'POST' && call.route.name === undefined) writer.create();
  else if (call.method === 'PUT' && call.route.name !== undefined) writer.update();
  else if (call.method === 'PATCH' && call.route.name !== undefined) writer.patch();
  else return false;
  return true;
}

class ObjectWriter {
  private readonly q: string;
  private readonly apiVersion: string;

  constructor(
    private readonly call: WriteCall,
    private readonly server: WriteServerParts,
    private readonly def: ResourceDefinition,
    private readonly dryRun: boolean,
  ) {
    this.q = qualifiedName(def);
    this.apiVersion = groupVersionOf(def);
  }

  create(): void {
    const input = this.parseObject();
    if (!input) return;
    const meta = input.metadata as KubeObjectJson['metadata'] & { generateName?: string };
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${uuidFrom(this.server.random).slice(0, 5)}`;
    if (!meta.name) return this.call.reply(422, s.invalid(this.def, '', [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]));
    if (!this.namespaceFits(input)) return;
    if (meta.resourceVersion) return this.call.reply(500, s.internal('resourceVersion should not be set on objects to be created'));
    const key = objectKey(this.namespace(), meta.name);
    if (this.server.store.peek(this.q, key)) return this.call.reply(409, s.alreadyExists(this.def, meta.name));
    if (!this.valid(input, undefined)) return;
    const now = Date.now();
    const stored = ordered(input);
    const m = stored.metadata;
    if (this.def.namespaced) m.namespace = this.namespace();
    else delete m.namespace;
    m.uid = uuidFrom(this.server.random);
    m.creationTimestamp = kubeTime(now);
    delete m.deletionTimestamp;
    if (isMap(stored.spec) && this.def.group !== '') m.generation = 1;
    delete m.managedFields;
    m.managedFields = managedFieldsAfterUpdate(undefined, stored, this.call.manager, this.apiVersion, now);
    const out = ordered(stored);
    if (this.dryRun) return this.call.reply(201, withTypeMeta(this.def, out));
    const rv = this.server.store.nextRv();
    out.metadata.resourceVersion = String(rv);
    const final = ordered(out);
    this.server.store.commit({ rv, resource: this.q, key, type: 'ADDED', object: final });
    this.call.reply(201, withTypeMeta(this.def, final));
  }

  update(): void {
    const input = this.parseObject();
    if (!input) return;
    const name = this.call.route.name!;
    if (input.metadata.name !== name) return this.call.reply(400, s.badRequest(`the name of the object (${String(input.metadata.name ?? '')}) does not match the name on the URL (${name})`));
    if (!this.namespaceFits(input)) return;
    const prev = this.current();
    if (!prev) return this.call.reply(404, notFound(this.def, name));
    this.store(prev, input);
  }

  patch(): void {
    const name = this.call.route.name!;
    if (!PATCH_TYPES.has(this.call.contentType)) return this.call.reply(415, s.unsupportedMediaType());
    if (this.call.contentType === 'application/apply-patch+yaml') return this.apply(name);
    let patchBody: unknown;
    try {
      patchBody = JSON.parse(this.call.body.toString('utf8'));
    } catch (err) {
      return this.call.reply(400, s.badRequest(`error decoding patch: ${goJsonError(err)}`));
    }
    const prev = this.current();
    if (!prev) return this.call.reply(404, notFound(this.def, name));
    let patched: unknown;
    try {
      const base = withTypeMeta(this.def, prev);
      if (this.call.contentType === 'application/merge-patch+json') patched = mergePatch(base, patchBody);
      else if (this.call.contentType === 'application/strategic-merge-patch+json') patched = strategicMergePatch(base, patchBody);
      else patched = jsonPatch(base, patchBody);
    } catch (err) {
      if (err instanceof PatchError) return this.call.reply(err.code, err.code === 422 ? { ...s.badRequest(err.message), reason: 'Invalid', details: {}, code: 422 } : s.badRequest(err.message));
      throw err;
    }
    if (!isMap(patched) || !isMap(patched.metadata)) return this.call.reply(422, s.invalid(this.def, name, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'metadata' }]));
    const input = patched as KubeObjectJson;
    if (input.metadata.name !== name) return this.call.reply(400, s.badRequest(`the name of the object (${String(input.metadata.name ?? '')}) does not match the name on the URL (${name})`));
    this.store(prev, input);
  }

  private apply(name: string): void {
    if (!this.call.query.fieldManager) {
      return this.call.reply(422, s.invalidOptions('PatchOptions', { reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }));
    }
    let applied: unknown;
    try {
      applied = load(this.call.body.toString('utf8'));
    } catch (err) {
      return this.call.reply(400, s.badRequest(`error decoding YAML: ${(err as Error).message.split('\n')[0]}`));
    }
    if (!isMap(applied) || !isMap(applied.metadata)) return this.call.reply(400, s.badRequest('Object \'Kind\' is missing in \'{}\''));
    const config = applied as KubeObjectJson;
    if (config.kind !== this.def.kind || config.apiVersion !== this.apiVersion) {
      return this.call.reply(400, s.badRequest(`the object provided is unrecognized (must be of type ${this.def.kind}): kind ${String(config.kind)} in ${String(config.apiVersion)}`));
    }
    if (config.metadata.name !== name) return this.call.reply(400, s.badRequest(`the name of the object (${String(config.metadata.name ?? '')}) does not match the name on the URL (${name})`));
    if (!this.namespaceFits(config)) return;
    const undeclared = undeclaredFieldMessage(this.def, this.apiVersion, config, this.namespace(), name);
    if (undeclared) return this.call.reply(500, s.internal(undeclared));
    const prev = this.current();
    if (prev && config.metadata.resourceVersion !== undefined && config.metadata.resourceVersion !== prev.metadata.resourceVersion) return this.call.reply(409, s.conflict(this.def, name));
    const live = prev && withTypeMeta(this.def, prev);
    const force = ['true', '1'].includes(this.call.query.force ?? '');
    const result = applyConfiguration(live, config, this.call.manager, this.apiVersion, force);
    if ('conflicts' in result) {
      return this.call.reply(409, s.applyConflicts(applyConflictMessage(result.conflicts, this.apiVersion), result.conflicts, this.apiVersion));
    }
    const next = result.object;
    next.metadata.managedFields = result.managedFields;
    if (!prev) {
      // An apply to a missing object creates it.
      next.metadata.namespace = this.namespace();
      const input = { ...next, metadata: { ...next.metadata, managedFields: undefined, resourceVersion: undefined } } as KubeObjectJson;
      if (!this.valid(input, undefined)) return;
      const now = Date.now();
      next.metadata.uid = uuidFrom(this.server.random);
      next.metadata.creationTimestamp = kubeTime(now);
      return this.commit(undefined, ordered(next), 201);
    }
    this.store(prev, next, result.managedFields);
  }

  /** Stores `input` over `prev` after the preconditions and validation; `managedFields` given by an apply. */
  private store(prev: KubeObjectJson, input: KubeObjectJson, managedFields?: unknown[]): void {
    const name = prev.metadata.name;
    const rv = input.metadata.resourceVersion;
    if (rv !== undefined && rv !== '') {
      if (!/^\d+$/.test(String(rv))) return this.call.reply(500, s.internal(`strconv.ParseUint: parsing ${JSON.stringify(String(rv))}: invalid syntax`));
      if (String(rv) !== prev.metadata.resourceVersion) return this.call.reply(409, s.conflict(this.def, name));
    }
    const uid = input.metadata.uid;
    if (uid !== undefined && uid !== '' && uid !== prev.metadata.uid) return this.call.reply(409, s.uidConflict(this.def, name, this.namespace(), String(uid), String(prev.metadata.uid)));
    const next = ordered(input);
    const m = next.metadata;
    if (this.def.namespaced) m.namespace = prev.metadata.namespace;
    else delete m.namespace;
    m.uid = prev.metadata.uid;
    m.creationTimestamp = prev.metadata.creationTimestamp;
    m.resourceVersion = prev.metadata.resourceVersion;
    // A type with a status keeps it: the status subresource alone writes it.
    if (prev.status !== undefined) next.status = structuredClone(prev.status);
    else delete next.status;
    if (typeof prev.metadata.generation === 'number') {
      m.generation = JSON.stringify(prev.spec) === JSON.stringify(next.spec) ? prev.metadata.generation : prev.metadata.generation + 1;
    }
    const problem = decodeProblem(this.def, next);
    if (problem) return this.call.reply(400, s.badRequest(problem));
    if (!this.valid(next, prev)) return;
    m.managedFields = managedFields ?? managedFieldsAfterUpdate(prev, { ...next, metadata: { ...m, managedFields: undefined } }, this.call.manager, this.apiVersion);
    const stored = ordered(next);
    if (sameContent(prev, stored)) return this.call.reply(200, withTypeMeta(this.def, prev));
    this.commit(prev, stored, 200);
  }

  private commit(prev: KubeObjectJson | undefined, object: KubeObjectJson, status: 200 | 201): void {
    if (this.dryRun) return this.call.reply(status, withTypeMeta(this.def, object));
    const rv = this.server.store.nextRv();
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(rv);
    this.server.store.commit({ rv, resource: this.q, key: objectKey(this.namespace(), object.metadata.name), type: prev ? 'MODIFIED' : 'ADDED', object: stored, prev });
    this.call.reply(status, withTypeMeta(this.def, stored));
  }

  private current(): KubeObjectJson | undefined {
    return this.server.store.peek(this.q, objectKey(this.namespace(), this.call.route.name!));
  }

  private namespace(): string | undefined {
    return this.def.namespaced ? this.call.route.namespace : undefined;
  }

  private namespaceFits(input: KubeObjectJson): boolean {
    const ns = input.metadata.namespace;
    if (this.def.namespaced && ns !== undefined && ns !== '' && ns !== this.call.route.namespace) {
      this.call.reply(400, s.badRequest('the namespace of the provided object does not match the namespace sent on the request'));
      return false;
    }
    return true;
  }

  private valid(next: KubeObjectJson, prev: KubeObjectJson | undefined): boolean {
    const problem = decodeProblem(this.def, next);
    if (problem) {
      this.call.reply(400, s.badRequest(problem));
      return false;
    }
    const causes = validationCauses(this.def, next, prev);
    if (causes.length === 0) return true;
    this.call.reply(422, s.invalid(this.def, next.metadata.name, causes));
    return false;
  }

  /** The body as an object of this type, or undefined after answering 400. */
  private parseObject(): KubeObjectJson | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.call.body.toString('utf8'));
    } catch (err) {
      const text = this.call.body.toString('utf8').slice(0, 200);
      this.call.reply(400, s.badRequest(`the object provided is unrecognized (must be of type ${this.def.kind}): couldn't get version/kind; json parse error: ${goJsonError(err)} (${text})`));
      return undefined;
    }
    if (!isMap(parsed) || !isMap(parsed.metadata)) {
      this.call.reply(400, s.badRequest(`the object provided is unrecognized (must be of type ${this.def.kind}): couldn't get version/kind; json parse error: missing metadata`));
      return undefined;
    }
    const obj = parsed as KubeObjectJson;
    if ((obj.kind !== undefined && obj.kind !== this.def.kind) || (obj.apiVersion !== undefined && obj.apiVersion !== this.apiVersion)) {
      this.call.reply(400, s.badRequest(`${String(obj.kind)} in version ${JSON.stringify(String(obj.apiVersion ?? '').split('/').pop())} cannot be handled as a ${this.def.kind}: the kind or apiVersion does not match the URL`));
      return undefined;
    }
    return obj;
  }
}

/** True when two stored objects differ in nothing but the times of their managedFields. */
function sameContent(a: KubeObjectJson, b: KubeObjectJson): boolean {
  const fields = (o: KubeObjectJson) => (o.metadata.managedFields ?? []).map((e) => ({ ...(e as Record<string, unknown>), time: undefined }));
  const strip = (o: KubeObjectJson) => JSON.stringify({ ...o, metadata: { ...o.metadata, managedFields: fields(o), resourceVersion: undefined } });
  return strip(a) === strip(b);
}

/** Go's encoding/json wording for the common JSON errors. */
function goJsonError(err: unknown): string {
  const m = (err as Error).message;
  return /Unexpected end|end of JSON/i.test(m) ? 'unexpected end of JSON input' : `invalid character in JSON: ${m}`;
}
