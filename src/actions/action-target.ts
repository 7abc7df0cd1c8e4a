import type { AccessQuery } from '../cluster/access-review';
import type { KubeObject, ResourceType } from '../informer';

/**
 * The object an action acts on: where it lives (context, type, namespace, name) and the object as
 * the watch last showed it. Invariant: `namespace` is '' exactly for cluster-scoped types.
 */
export interface ActionTarget {
  /** The kubeconfig context's name ('' when unknown: the kubectl command then names none). */
  readonly context: string;
  readonly type: ResourceType;
  readonly namespace: string;
  readonly name: string;
  /** The object as the watch showed it when the action was chosen. */
  readonly object: KubeObject;
}

/** Groups whose kinds kubectl resolves by their lower-cased kind alone (`deployment/web`). */
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'policy', 'autoscaling', 'networking.k8s.io', 'rbac.authorization.k8s.io', 'storage.k8s.io', 'discovery.k8s.io', 'coordination.k8s.io', 'events.k8s.io']);

/** The object's path on the server, or a subresource's: `/apis/apps/v1/namespaces/shop/deployments/web/scale`. */
export function objectPath(target: Pick<ActionTarget, 'type' | 'namespace' | 'name'>, subresource?: string): string {
  return `${collectionOf(target.type, target.namespace)}/${encodeURIComponent(target.name)}${subresource ? `/${subresource}` : ''}`;
}

/** The collection path of a type in a namespace (or cluster-wide). */
export function collectionOf(type: Pick<ResourceType, 'group' | 'version' | 'resource' | 'namespaced'>, namespace: string): string {
  const base = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const ns = type.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${type.resource}`;
}

/** `shop/web`, or `node-1` for a cluster-scoped object. */
export function objectLabel(target: Pick<ActionTarget, 'namespace' | 'name'>): string {
  return target.namespace ? `${target.namespace}/${target.name}` : target.name;
}

/** `Deployment shop/web`: kind and place, for titles and messages. */
export function targetTitle(target: Pick<ActionTarget, 'type' | 'namespace' | 'name'>): string {
  return `${target.type.kind} ${objectLabel(target)}`;
}

/** `deployments.apps`, `pods`: the type as kubectl and the log spell it. */
export function typeName(type: Pick<ResourceType, 'group' | 'resource'>): string {
  return type.group ? `${type.resource}.${type.group}` : type.resource;
}

/** kubectl's TYPE/NAME for the object: `deployment/web`, `node/node-1`, `widgets.example.com/blue`. */
export function kubectlObject(target: Pick<ActionTarget, 'type' | 'name'>): string {
  const type = BUILT_IN_GROUPS.has(target.type.group) ? target.type.kind.toLowerCase() : typeName(target.type);
  return `${type}/${target.name}`;
}

/** An access question about the target: `verb` on its type (and subresource), in its namespace, by its name. */
export function accessOf(target: Pick<ActionTarget, 'type' | 'namespace' | 'name'>, verb: string, subresource?: string, byName = true): AccessQuery {
  return {
    verb,
    group: target.type.group,
    resource: target.type.resource,
    ...(subresource ? { subresource } : {}),
    ...(target.namespace ? { namespace: target.namespace } : {}),
    ...(byName ? { name: target.name } : {}),
  };
}
