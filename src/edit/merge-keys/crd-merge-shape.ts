import type { KubeObject } from '../../informer';
import { WHOLE, type ListRule, type MergeShape } from './merge-shape';

/**
 * The merge shape of a custom resource, from its CustomResourceDefinition's structural schema
 * (`spec.versions[].schema.openAPIV3Schema` of the version edited): a list with
 * `x-kubernetes-list-type: map` merges by its `x-kubernetes-list-map-keys`, `set` as a set, any
 * other list (`atomic`, or no list type) is one value; `x-kubernetes-map-type: atomic` makes a
 * map one value. `metadata` (of the object, and of resources embedded with
 * `x-kubernetes-embedded-resource`) is an ObjectMeta, shaped as the built-in types' is.
 */

interface StructuralSchema {
  type?: string;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-embedded-resource'?: boolean;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The schema of `version` in a CRD; undefined when the CRD does not have one. */
function schemaOf(crd: KubeObject, version: string): StructuralSchema | undefined {
  const spec = (crd as { spec?: unknown }).spec;
  const versions = isMap(spec) && Array.isArray(spec.versions) ? spec.versions : [];
  const v = versions.find((x: unknown) => isMap(x) && x.name === version) as { schema?: { openAPIV3Schema?: unknown } } | undefined;
  const schema = v?.schema?.openAPIV3Schema;
  return isMap(schema) ? (schema as StructuralSchema) : undefined;
}

function listRule(s: StructuralSchema): ListRule {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(keys) && keys.length > 0 && keys.every((k) => typeof k === 'string')) return { kind: 'map', keys };
  if (s['x-kubernetes-list-type'] === 'set') return { kind: 'set' };
  return { kind: 'atomic' };
}

function shapeOf(schema: unknown, objectMeta: MergeShape | undefined): MergeShape | undefined {
  if (!isMap(schema)) return undefined;
  const s = schema as StructuralSchema; // a CRD's schema as the server validated it; each part read below is checked
  if (s['x-kubernetes-map-type'] === 'atomic') return WHOLE;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  return {
    field: (name) => {
      if (embedded && name === 'metadata') return objectMeta;
      const props = isMap(s.properties) ? s.properties : undefined;
      if (props && Object.hasOwn(props, name)) return shapeOf(props[name], objectMeta);
      return shapeOf(s.additionalProperties, objectMeta);
    },
    item: () => shapeOf(s.items, objectMeta),
    list: listRule(s),
    whole: false,
  };
}

/**
 * The shape of a custom resource's objects of `apiVersion` (`group/version`); undefined when the
 * CRD has no schema for it (then every list is one value). `objectMeta`: the shape of ObjectMeta.
 */
export function crdMergeShape(crd: KubeObject, apiVersion: string, objectMeta: MergeShape | undefined): MergeShape | undefined {
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const schema = schemaOf(crd, version);
  return schema && shapeOf({ ...schema, 'x-kubernetes-embedded-resource': true }, objectMeta);
}
