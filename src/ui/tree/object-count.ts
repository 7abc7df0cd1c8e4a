import type { KubeObject, ResourceType } from '../../informer';
import type { ResourceNode } from './tree-node';

/**
 * A count of objects in words, as a row shows it: "1 pod", "5 pods", "0 configmaps". The
 * singular is the kind in lower case, the plural the resource name (`deployments`, not
 * `deployments.apps`); without a resolved type, the resource as configured.
 */
export function countText(n: number, type: Pick<ResourceType, 'resource' | 'kind'> | undefined, configured: string): string {
  const plural = type?.resource ?? configured.split('.')[0];
  const noun = n === 1 ? (type?.kind.toLowerCase() ?? plural) : plural;
  return `${n.toLocaleString('en-US')} ${noun}`;
}

/**
 * A watch's state text with the count after its first words: "watching · 42 pods · rv 48213",
 * "unreachable: connect ECONNREFUSED · 42 pods · next try in 4 s". The state comes first, since a
 * narrow side bar cuts the end of a row.
 */
export function withCount(stateText: string, count: string): string {
  const cut = stateText.indexOf(' · ');
  return cut < 0 ? `${stateText} · ${count}` : `${stateText.slice(0, cut)} · ${count}${stateText.slice(cut)}`;
}

/**
 * A count under a filter, as a row shows it: "3 of 17 pods" (the noun follows the whole count),
 * so a filtered row never claims the objects it hides; without `matched`, `countText`'s.
 */
export function matchedCountText(matched: number | undefined, n: number, type: Pick<ResourceType, 'resource' | 'kind'> | undefined, configured: string): string {
  return matched === undefined ? countText(n, type, configured) : `${matched.toLocaleString('en-US')} of ${countText(n, type, configured)}`;
}

/** How many objects a resource node holds over all its namespaces (with `shows`, how many of them pass it). */
export function objectsUnder(node: ResourceNode, shows?: (obj: KubeObject) => boolean): number {
  let n = shows ? matching(node.container, shows) : node.container.size;
  for (const ns of node.namespaces.values()) n += shows ? matching(ns.container, shows) : ns.container.size;
  return n;
}

export function matching(container: { values(): Iterable<{ object: KubeObject }> }, shows: (obj: KubeObject) => boolean): number {
  let n = 0;
  for (const o of container.values()) if (shows(o.object)) n++;
  return n;
}
