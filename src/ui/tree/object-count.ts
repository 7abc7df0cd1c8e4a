import type { ResourceType } from '../../informer';

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
