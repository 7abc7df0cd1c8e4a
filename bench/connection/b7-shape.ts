/** B7's cluster shape: 50 namespaces x 5 types = 250 informers, a few objects each. */
import type { ResourceType } from '../../src/informer/resource-type';

export const B7_NAMESPACES = 50;
export const B7_PER_TYPE_AND_NAMESPACE = 4;

export const B7_TYPES: ResourceType[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
];

/** What a client process reports once synced. */
export interface B7ClientReport {
  informers: number;
  syncedMs: number;
  /** Heap used after gc, minus before the informers were made, bytes. */
  heapGrowth: number;
}

/** One side's B7 figures. */
export interface B7Result extends B7ClientReport {
  /** TCP connections the server holds once every watch is open. */
  connections: number;
  /** Watches open on the server when counted. */
  watches: number;
}
