/**
 * The minimal shape of a Kubernetes object that the engine relies on. Everything else is
 * carried along untouched.
 */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  managedFields?: unknown[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** Key of an object in a store: `namespace/name`, or just `name` for cluster-scoped objects. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export function keyOf(obj: KubeObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name ?? '');
}

/** True when the value has the metadata the store needs (a name and a resourceVersion). */
export function isKubeObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null) return false;
  const meta = (value as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null) return false;
  const m = meta as ObjectMeta;
  return typeof m.name === 'string' && m.name !== '' && typeof m.resourceVersion === 'string';
}
