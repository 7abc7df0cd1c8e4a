/** One watchable resource type, as discovery describes it. */
export interface ResourceType {
  /** API group; '' for the core group. */
  group: string;
  version: string;
  /** Plural resource name, e.g. `deployments`. */
  resource: string;
  /** Kind, e.g. `Deployment`. */
  kind: string;
  namespaced: boolean;
}

/** `deployments.apps`, or `pods` for the core group: the way kubectl spells it. */
export function resourceTypeName(type: Pick<ResourceType, 'group' | 'resource'>): string {
  return type.group ? `${type.resource}.${type.group}` : type.resource;
}

/** `apps/v1`, or `v1` for the core group. */
export function groupVersion(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/**
 * The collection path for list and watch. A namespaced type with no namespace (or a
 * cluster-scoped type) yields the cluster-wide path.
 */
export function collectionPath(type: ResourceType, namespace?: string): string {
  const base = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const ns = type.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${type.resource}`;
}
