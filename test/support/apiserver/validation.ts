/**
 * The few validations of kube-apiserver that the local server repeats for writes, with the
 * field paths and messages the real one gives (transcript writes-1.34.md): label keys and
 * values, ConfigMap and Secret keys, immutable ConfigMaps and Secrets, a Deployment's selector
 * (immutable), replicas (not negative) and container images (required). Enough for a client to
 * map a 422's `causes[].field` back to its input; the rest of the real validation is not here.
 */
import type { KubeObjectJson, ResourceDefinition, StatusCause } from './types';

type Cause = Required<StatusCause>;

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const NAME_PART_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function labelCauses(labels: unknown): Cause[] {
  if (!isMap(labels)) return [];
  const out: Cause[] = [];
  for (const [k, v] of Object.entries(labels)) {
    const name = k.includes('/') ? k.slice(k.indexOf('/') + 1) : k;
    if (!NAME_PART.test(name) || name.length > 63) out.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(k)}: ${NAME_PART_MESSAGE}`, field: 'metadata.labels' });
    if (typeof v === 'string' && v !== '' && (!NAME_PART.test(v) || v.length > 63)) out.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(v)}: ${LABEL_VALUE_MESSAGE}`, field: `metadata.labels` });
  }
  return out;
}

function keyCauses(field: string, values: unknown): Cause[] {
  if (!isMap(values)) return [];
  return Object.keys(values)
    .filter((k) => !CONFIG_KEY.test(k))
    .map((k) => ({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(k)}: ${CONFIG_KEY_MESSAGE}`, field: `${field}[${k}]` }));
}

function deploymentCauses(next: KubeObjectJson, prev: KubeObjectJson | undefined): Cause[] {
  const out: Cause[] = [];
  const spec = isMap(next.spec) ? next.spec : {};
  if (typeof spec.replicas === 'number' && spec.replicas < 0) out.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${spec.replicas}: must be greater than or equal to 0`, field: 'spec.replicas' });
  const prevSpec = prev && isMap(prev.spec) ? prev.spec : undefined;
  if (prevSpec && JSON.stringify(prevSpec.selector) !== JSON.stringify(spec.selector)) {
    out.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(spec.selector)}: field is immutable`, field: 'spec.selector' });
  }
  const template = isMap(spec.template) ? spec.template : {};
  const podSpec = isMap(template.spec) ? template.spec : {};
  const containers = Array.isArray(podSpec.containers) ? podSpec.containers : [];
  containers.forEach((c, i) => {
    if (isMap(c) && (typeof c.image !== 'string' || c.image === '')) out.push({ reason: 'FieldValueRequired', message: 'Required value', field: `spec.template.spec.containers[${i}].image` });
  });
  return out;
}

/**
 * The 422 causes of storing `next` over `prev` (undefined for a create), in the order the
 * real validation reports them; empty when valid.
 */
export function validationCauses(def: ResourceDefinition, next: KubeObjectJson, prev: KubeObjectJson | undefined): Cause[] {
  const out = labelCauses(next.metadata.labels);
  if (def.group === '' && (def.resource === 'configmaps' || def.resource === 'secrets')) {
    out.push(...keyCauses('data', next.data));
    if (def.resource === 'configmaps') out.push(...keyCauses('binaryData', next.binaryData));
    if (prev?.immutable === true) {
      if (JSON.stringify(prev.data ?? {}) !== JSON.stringify(next.data ?? {})) out.push({ reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set', field: 'data' });
      if (next.immutable !== true) out.push({ reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set', field: 'immutable' });
    }
  }
  if (def.group === 'apps' && def.resource === 'deployments') out.push(...deploymentCauses(next, prev));
  return out;
}

/**
 * The 400 a body gets before validation when a value has the wrong type: ConfigMap data that
 * is not a string, Secret data that is not base64. Undefined when the body decodes.
 */
export function decodeProblem(def: ResourceDefinition, obj: KubeObjectJson): string | undefined {
  if (def.group !== '') return undefined;
  if (def.resource === 'configmaps' && isMap(obj.data)) {
    for (const v of Object.values(obj.data)) {
      if (typeof v !== 'string') return `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal ${typeof v === 'number' ? 'number' : typeof v} into Go struct field ConfigMap.data of type string`;
    }
  }
  if (def.resource === 'secrets' && isMap(obj.data)) {
    for (const v of Object.values(obj.data)) {
      if (typeof v !== 'string') return `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal ${typeof v} into Go struct field Secret.data of type []uint8`;
      const bad = v.search(/[^A-Za-z0-9+/=]/);
      if (bad >= 0 || v.length % 4 !== 0) return `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${bad >= 0 ? bad : v.length}`;
    }
  }
  return undefined;
}
