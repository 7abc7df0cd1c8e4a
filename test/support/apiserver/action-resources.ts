/** The types Kube Watch's actions act on that the server does not define by itself (define them with `defineResource`). */
import type { ResourceDefinition } from './types';

export const NODES: ResourceDefinition = { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'] };
export const REPLICA_SETS: ResourceDefinition = { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] };
export const STATEFUL_SETS: ResourceDefinition = { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'] };
export const DAEMON_SETS: ResourceDefinition = { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'] };
export const JOBS: ResourceDefinition = { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true };
export const CRON_JOBS: ResourceDefinition = { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true, shortNames: ['cj'] };
export const POD_DISRUPTION_BUDGETS: ResourceDefinition = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'] };

/** All of the above. */
export const ACTION_TYPES: readonly ResourceDefinition[] = [NODES, REPLICA_SETS, STATEFUL_SETS, DAEMON_SETS, JOBS, CRON_JOBS, POD_DISRUPTION_BUDGETS];
