/**
 * OpenAPI v3 as kube-apiserver publishes it, for what kubectl reads of it: `kubectl apply`
 * checks that a kind's PATCH takes `fieldValidation` (else it downloads /openapi/v2 to validate
 * on the client), and builds its strategic merge patch from the kind's schema (the
 * x-kubernetes-patch-merge-key/-strategy of each list); `kubectl explain` reads the schemas.
 *
 * - GET /openapi/v3: the index, one `serverRelativeURL` (with the document's hash) per served
 *   group-version;
 * - GET /openapi/v3/api/v1, /openapi/v3/apis/GROUP/VERSION: the document: paths built from the
 *   server's resource definitions (the collection and object paths with their operations,
 *   parameters, x-kubernetes-action and x-kubernetes-group-version-kind, as the real ones), and
 *   components.schemas with the kinds' schemas recorded from 1.34.9 (schemas-1.34.json, written
 *   by capture-openapi.ts) and everything they reach; a kind not recorded there (a custom
 *   resource) gets an open schema (x-kubernetes-preserve-unknown-fields), as a CRD without a
 *   structural schema has.
 *
 * No /openapi/v2: kubectl asks for it in protobuf only; without it kubectl still applies
 * (server-side validation, and a JSON merge patch for custom resources, as with any CRD).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ResourceDefinition } from '../types';
import { DEFAULT_VERBS } from '../resources';
import { META_ROOTS } from './capture-openapi';

type Schema = Record<string, unknown>;

const REF = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const OBJECT_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

let recorded: Record<string, Schema> | undefined;

function schemas(): Record<string, Schema> {
  recorded ??= JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'schemas-1.34.json'), 'utf8')) as Record<string, Schema>;
  return recorded;
}

/** `api/v1` or `apis/apps/v1`: how the index and the document's path name a group-version. */
export function openApiPathOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `apis/${def.group}/${def.version}` : `api/${def.version}`;
}

/** The document of one group-version, or undefined when it serves nothing. */
export function groupVersionDocument(defs: readonly ResourceDefinition[], gvPath: string): Schema | undefined {
  const served = defs.filter((d) => openApiPathOf(d) === gvPath);
  if (served.length === 0) return undefined;
  const all = schemas();
  const components: Record<string, Schema> = {};
  const paths: Record<string, Schema> = {};
  const pending = [...META_ROOTS];
  for (const def of served) {
    const recordedKind = schemaNameOf(def, def.kind);
    const [kind, list] = [recordedKind ?? customSchema(def, components), schemaNameOf(def, `${def.kind}List`) ?? customListSchema(def, components)];
    pending.push(kind, list);
    // A custom resource takes no strategic merge patch: kubectl then sends a JSON merge patch.
    Object.assign(paths, pathsOf(def, kind, list, recordedKind ? PATCH_TYPES : PATCH_TYPES.filter((t) => !t.startsWith('application/strategic'))));
  }
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in components || !(name in all)) continue;
    components[name] = all[name];
    for (const m of JSON.stringify(all[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) pending.push(m[1]);
  }
  const sorted = Object.fromEntries(Object.keys(components).sort().map((k) => [k, components[k]]));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.26.4' },
    paths,
    components: { schemas: sorted, securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } } },
  };
}

/** GET /openapi/v3: each served group-version's document, by a URL carrying its hash. */
export function openApiIndex(defs: readonly ResourceDefinition[]): Schema {
  const gvs = [...new Set(defs.map(openApiPathOf))].sort();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of gvs) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${documentHash(groupVersionDocument(defs, gv)!)}` };
  return { paths };
}

/** The hash the index puts in a document's URL: SHA-512, upper-case hex, as the real server's. */
export function documentHash(doc: Schema): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
}

/** The recorded schema whose x-kubernetes-group-version-kind is the definition's group, version and `kind`. */
function schemaNameOf(def: ResourceDefinition, kind: string): string | undefined {
  for (const [name, s] of Object.entries(schemas())) {
    const gvks = (s['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined) ?? [];
    if (gvks.some((g) => g.group === def.group && g.version === def.version && g.kind === kind)) return name;
  }
  return undefined;
}

/** `com.example.v1.Widget`: the name a CRD's schema gets (the group reversed). */
function customName(def: ResourceDefinition, kind: string): string {
  return `${def.group.split('.').reverse().join('.')}.${def.version}.${kind}`;
}

function customSchema(def: ResourceDefinition, out: Record<string, Schema>): string {
  const name = customName(def, def.kind);
  out[name] = {
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { allOf: [{ $ref: `${REF}${META}.ObjectMeta` }] } },
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: def.kind }],
  };
  return name;
}

function customListSchema(def: ResourceDefinition, out: Record<string, Schema>): string {
  const name = customName(def, `${def.kind}List`);
  out[name] = {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: `${REF}${customName(def, def.kind)}` } },
      kind: { type: 'string' },
      metadata: { allOf: [{ $ref: `${REF}${META}.ListMeta` }], default: {} },
    },
    'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: `${def.kind}List` }],
  };
  return name;
}

const query = (...names: string[]) => names.map((name) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } }));
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', uniqueItems: true } });
const LIST_PARAMS = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];

function content(types: string[], ref: string): Schema {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: `${REF}${ref}` } }]));
}

function answers(codes: string[], ref: string, types = OBJECT_TYPES): Schema {
  return { ...Object.fromEntries(codes.map((c) => [c, { description: c === '201' ? 'Created' : c === '202' ? 'Accepted' : 'OK', content: content(types, ref) }])), 401: { description: 'Unauthorized' } };
}

/** The collection and object paths of one type, with the operations its verbs allow. */
function pathsOf(def: ResourceDefinition, kind: string, list: string, patchTypes: string[]): Record<string, Schema> {
  const verbs = new Set(def.verbs ?? DEFAULT_VERBS);
  const base = `/${openApiPathOf(def)}`;
  const collection = def.namespaced ? `${base}/namespaces/{namespace}/${def.resource}` : `${base}/${def.resource}`;
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const op = (action: string, extra: Schema) => ({ tags: [tagOf(def)], 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk, ...extra });
  const scope = def.namespaced ? [pathParam('namespace')] : [];
  const paths: Record<string, Schema> = {};
  const coll: Schema = { parameters: [...scope, ...query('pretty')] };
  if (verbs.has('list')) coll.get = op('list', { parameters: query(...LIST_PARAMS), responses: answers(['200'], list, [...OBJECT_TYPES, 'application/json;stream=watch']) });
  if (verbs.has('create')) coll.post = op('post', { parameters: query('dryRun', 'fieldManager', 'fieldValidation'), requestBody: { content: content(['*/*'], kind), required: true }, responses: answers(['200', '201', '202'], kind) });
  if (verbs.has('deletecollection')) coll.delete = op('deletecollection', { parameters: query('continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'timeoutSeconds'), requestBody: { content: content(['*/*'], `${META}.DeleteOptions`) }, responses: answers(['200'], `${META}.Status`) });
  paths[collection] = coll;
  const item: Schema = { parameters: [pathParam('name'), ...scope, ...query('pretty')] };
  if (verbs.has('get')) item.get = op('get', { responses: answers(['200'], kind) });
  if (verbs.has('update')) item.put = op('put', { parameters: query('dryRun', 'fieldManager', 'fieldValidation'), requestBody: { content: content(['*/*'], kind), required: true }, responses: answers(['200', '201'], kind) });
  if (verbs.has('patch')) item.patch = op('patch', { parameters: query('dryRun', 'fieldManager', 'fieldValidation', 'force'), requestBody: { content: content(patchTypes, `${META}.Patch`), required: true }, responses: answers(['200', '201'], kind) });
  if (verbs.has('delete')) item.delete = op('delete', { parameters: query('dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy'), requestBody: { content: content(['*/*'], `${META}.DeleteOptions`) }, responses: answers(['200', '202'], `${META}.Status`) });
  paths[`${collection}/{name}`] = item;
  if (def.namespaced && verbs.has('list')) paths[`${base}/${def.resource}`] = { parameters: [...query(...LIST_PARAMS), ...query('pretty')], get: op('list', { responses: answers(['200'], list, [...OBJECT_TYPES, 'application/json;stream=watch']) }) };
  return paths;
}

/** `core_v1`, `apps_v1`, `discovery_v1`: the tag the real document gives a group-version's operations. */
function tagOf(def: ResourceDefinition): string {
  return `${(def.group || 'core').split('.')[0]}_${def.version}`;
}
