import type { ResourceType } from '../informer';
import type { ManifestObject } from './release-details';

/**
 * The resource type of a manifest object, by discovery (the types the cluster serves): the one of
 * its group, version and kind; else its group and kind at the version the cluster serves (a
 * manifest written for an older version); undefined when the cluster serves no such kind (a CRD
 * removed since, a typo helm would have refused). Never a plural guessed from the kind.
 */
export function manifestObjectType(types: readonly ResourceType[], o: Pick<ManifestObject, 'apiVersion' | 'kind'>): ResourceType | undefined {
  const slash = o.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : o.apiVersion.slice(0, slash);
  const version = o.apiVersion.slice(slash + 1);
  const sameKind = types.filter((t) => t.group === group && t.kind === o.kind);
  return sameKind.find((t) => t.version === version) ?? sameKind[0];
}
