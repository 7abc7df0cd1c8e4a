import type { KubeObject } from '../../informer';
import { BUILTIN_MERGE_KEYS } from './builtin-merge-keys';
import { crdMergeShape } from './crd-merge-shape';
import { TableShapes, type MergeShape } from './merge-shape';

const BUILTIN = new TableShapes(BUILTIN_MERGE_KEYS);
const OBJECT_META = BUILTIN.struct('meta.v1.ObjectMeta');

/** Any object whose type is not known: only its metadata is (every Kubernetes object's is an ObjectMeta). */
const ONLY_METADATA: MergeShape = { field: (name) => (name === 'metadata' ? OBJECT_META : undefined), item: () => undefined, list: { kind: 'atomic' }, whole: false };

/**
 * The merge shape of an object of `apiVersion` and `kind`: a custom resource's from its
 * CustomResourceDefinition (`crd`, when the type is custom and its CRD is known), a built-in
 * type's from the table generated from the OpenAPI of kube-apiserver; for any other type, only
 * its metadata is known and its lists are each one value.
 */
export function objectMergeShape(apiVersion: string, kind: string, crd?: KubeObject): MergeShape {
  if (crd) return crdMergeShape(crd, apiVersion, OBJECT_META) ?? ONLY_METADATA;
  return BUILTIN.kind(apiVersion, kind) ?? ONLY_METADATA;
}
