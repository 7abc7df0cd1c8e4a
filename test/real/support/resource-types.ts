import type { ResourceType } from '../../../src/informer';

/** The built-in types the real-server tests write to, as the engine names them. */
export const CONFIGMAPS: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
export const DEPLOYMENTS: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
export const CRONJOBS: ResourceType = { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true };
export const NODES: ResourceType = { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false };
export const PODS: ResourceType = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
