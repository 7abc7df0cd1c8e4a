/**
 * Discovery documents (APIVersions, APIGroupList, APIGroup, APIResourceList) built from the
 * registry, shaped like kube-apiserver 1.26's unaggregated discovery (what kubectl and
 * client-go's discovery client read). Core documents carry no apiVersion, as on the real server.
 * Returns undefined for a group or version that has no resources (-> plain-text 404).
 */
import type { ResourceDefinition } from './types';
import { DEFAULT_VERBS, ResourceRegistry, groupVersionOf } from './resources';

function resourceEntry(def: ResourceDefinition) {
  const entry: Record<string, unknown> = {
    name: def.resource,
    singularName: def.singularName ?? def.kind.toLowerCase(),
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: def.verbs ?? DEFAULT_VERBS,
  };
  if (def.shortNames && def.shortNames.length > 0) entry.shortNames = def.shortNames;
  return entry;
}

/** GET /api */
export function apiVersions(hostPort: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: hostPort }],
  };
}

function groupsOf(registry: ResourceRegistry): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const d of registry.all()) {
    if (d.group === '') continue;
    const versions = groups.get(d.group) ?? [];
    if (!versions.includes(d.version)) versions.push(d.version);
    groups.set(d.group, versions);
  }
  return groups;
}

function groupEntry(name: string, versions: string[]) {
  const vs = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

/** GET /apis */
export function apiGroupList(registry: ResourceRegistry) {
  const groups = [...groupsOf(registry)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(([name, vs]) => groupEntry(name, vs)) };
}

/** GET /apis/GROUP */
export function apiGroup(registry: ResourceRegistry, group: string) {
  const versions = groupsOf(registry).get(group);
  if (!versions) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, versions) };
}

/** GET /api/v1 or /apis/GROUP/VERSION */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string) {
  const defs = registry.all().filter((d) => d.group === group && d.version === version);
  if (defs.length === 0) return undefined;
  const gv = groupVersionOf({ group, version });
  const resources = defs.map(resourceEntry);
  return group === ''
    ? { kind: 'APIResourceList', groupVersion: gv, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources };
}

/** GET /version */
export function versionInfo() {
  return {
    major: '1',
    minor: '26',
    gitVersion: 'v1.26.4',
    gitCommit: 'f89670c3aa4ce8b7d7af36d4e1c3fb0a2e3c9c9b',
    gitTreeState: 'clean',
    buildDate: '2023-04-12T12:05:35Z',
    goVersion: 'go1.19.8',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
