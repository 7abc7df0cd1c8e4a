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
 * A count as a row shows it: in words (`3 of 17 pods`, `5 pods so far`), and bare (`3 of 17`,
 * `5 so far`) for a resource row whose label already names the type when room is short.
 */
export interface RowCount {
  readonly words: string;
  readonly bare: string;
}

/**
 * Characters a resource row (a root of the tree) has for its label, its state's first words and
 * its count at the default side bar width (300 px: about 225 px of text, some 34 characters),
 * leaving room for the ellipsis VS Code draws where the description goes on and for wide
 * characters; measured in the browser (U09).
 */
export const RESOURCE_ROW_CHARS = 31;

/**
 * A watch's state text with the count after its first words: "watching · 42 pods · rv 48213",
 * "unreachable: connect ECONNREFUSED · 42 pods · next try in 4 s". The state comes first, since a
 * narrow side bar cuts the end of a row. With `label` (a resource row, whose label names the
 * type): where the label, the state's first words and the count in words would not fit in
 * RESOURCE_ROW_CHARS, the bare count (`deployments.apps` "watching · 6 · rv 48213"), so that the
 * count survives at the default width and only what follows it is cut.
 */
export function withCount(stateText: string, count: RowCount | string, label?: string): string {
  const cut = stateText.indexOf(' · ');
  const head = cut < 0 ? stateText : stateText.slice(0, cut);
  const tail = cut < 0 ? '' : stateText.slice(cut);
  const shown = typeof count === 'string' ? count : label !== undefined && label.length + 1 + head.length + 3 + count.words.length > RESOURCE_ROW_CHARS ? count.bare : count.words;
  return `${head} · ${shown}${tail}`;
}

/**
 * A count under a filter, as a row shows it: "3 of 17 pods" (the noun follows the whole count),
 * so a filtered row never claims the objects it hides; without `matched`, `countText`'s.
 */
export function matchedCountText(matched: number | undefined, n: number, type: Pick<ResourceType, 'resource' | 'kind'> | undefined, configured: string): string {
  return matched === undefined ? countText(n, type, configured) : `${matched.toLocaleString('en-US')} of ${countText(n, type, configured)}`;
}

/** `matchedCountText` in words and bare (`3 of 17 pods`, `3 of 17`), with ` so far` while a first list is in progress. */
export function rowCount(matched: number | undefined, n: number, type: Pick<ResourceType, 'resource' | 'kind'> | undefined, configured: string, soFar = false): RowCount {
  const words = matchedCountText(matched, n, type, configured);
  const bare = matched === undefined ? n.toLocaleString('en-US') : `${matched.toLocaleString('en-US')} of ${n.toLocaleString('en-US')}`;
  return soFar ? { words: `${words} so far`, bare: `${bare} so far` } : { words, bare };
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
