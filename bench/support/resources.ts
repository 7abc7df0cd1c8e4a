/**
 * The resource types the cases use, each with the typed API's unpaginated list call that the
 * reference informer is given (as @kubernetes/client-node's README shows).
 */
import { AppsV1Api, BatchV1Api, CoreV1Api, NetworkingV1Api, PolicyV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { ResourceSpec } from './datasets';

export type ListCall = (kc: KubeConfig, namespace: string | undefined) => () => Promise<{ items: unknown[]; metadata?: { resourceVersion?: string } }>;

export interface BenchResource {
  spec: ResourceSpec;
  list: ListCall;
}

const core = (resource: string, kind: string, list: ListCall): BenchResource => ({
  spec: { group: '', version: 'v1', resource, kind, namespaced: true },
  list,
});
const grouped = (group: string, resource: string, kind: string, list: ListCall): BenchResource => ({
  spec: { group, version: 'v1', resource, kind, namespaced: true },
  list,
});

// Each call builds its API client once, like an application would.
const coreApi = (f: (api: CoreV1Api, namespace: string) => Promise<{ items: unknown[] }>): ListCall => (kc, ns) => {
  const api = kc.makeApiClient(CoreV1Api);
  return () => f(api, ns ?? '');
};
const appsApi = (f: (api: AppsV1Api, namespace: string) => Promise<{ items: unknown[] }>): ListCall => (kc, ns) => {
  const api = kc.makeApiClient(AppsV1Api);
  return () => f(api, ns ?? '');
};

export const configmaps: BenchResource = core('configmaps', 'ConfigMap', (kc, ns) => {
  const api = kc.makeApiClient(CoreV1Api);
  return ns === undefined ? () => api.listConfigMapForAllNamespaces() : () => api.listNamespacedConfigMap({ namespace: ns });
});

export const podsResource: BenchResource = core('pods', 'Pod', (kc, ns) => {
  const api = kc.makeApiClient(CoreV1Api);
  return ns === undefined ? () => api.listPodForAllNamespaces() : () => api.listNamespacedPod({ namespace: ns });
});

/** Twenty namespaced types for B6, each listed with its own typed call. */
export const quietTypes: BenchResource[] = [
  configmaps,
  core('secrets', 'Secret', coreApi((a, namespace) => a.listNamespacedSecret({ namespace }))),
  core('services', 'Service', coreApi((a, namespace) => a.listNamespacedService({ namespace }))),
  core('serviceaccounts', 'ServiceAccount', coreApi((a, namespace) => a.listNamespacedServiceAccount({ namespace }))),
  core('endpoints', 'Endpoints', coreApi((a, namespace) => a.listNamespacedEndpoints({ namespace }))),
  core('limitranges', 'LimitRange', coreApi((a, namespace) => a.listNamespacedLimitRange({ namespace }))),
  core('resourcequotas', 'ResourceQuota', coreApi((a, namespace) => a.listNamespacedResourceQuota({ namespace }))),
  core('persistentvolumeclaims', 'PersistentVolumeClaim', coreApi((a, namespace) => a.listNamespacedPersistentVolumeClaim({ namespace }))),
  core('podtemplates', 'PodTemplate', coreApi((a, namespace) => a.listNamespacedPodTemplate({ namespace }))),
  core('replicationcontrollers', 'ReplicationController', coreApi((a, namespace) => a.listNamespacedReplicationController({ namespace }))),
  grouped('apps', 'deployments', 'Deployment', appsApi((a, namespace) => a.listNamespacedDeployment({ namespace }))),
  grouped('apps', 'statefulsets', 'StatefulSet', appsApi((a, namespace) => a.listNamespacedStatefulSet({ namespace }))),
  grouped('apps', 'daemonsets', 'DaemonSet', appsApi((a, namespace) => a.listNamespacedDaemonSet({ namespace }))),
  grouped('apps', 'replicasets', 'ReplicaSet', appsApi((a, namespace) => a.listNamespacedReplicaSet({ namespace }))),
  grouped('apps', 'controllerrevisions', 'ControllerRevision', appsApi((a, namespace) => a.listNamespacedControllerRevision({ namespace }))),
  grouped('batch', 'jobs', 'Job', (kc, ns) => {
    const api = kc.makeApiClient(BatchV1Api);
    return () => api.listNamespacedJob({ namespace: ns ?? '' });
  }),
  grouped('batch', 'cronjobs', 'CronJob', (kc, ns) => {
    const api = kc.makeApiClient(BatchV1Api);
    return () => api.listNamespacedCronJob({ namespace: ns ?? '' });
  }),
  grouped('networking.k8s.io', 'ingresses', 'Ingress', (kc, ns) => {
    const api = kc.makeApiClient(NetworkingV1Api);
    return () => api.listNamespacedIngress({ namespace: ns ?? '' });
  }),
  grouped('networking.k8s.io', 'networkpolicies', 'NetworkPolicy', (kc, ns) => {
    const api = kc.makeApiClient(NetworkingV1Api);
    return () => api.listNamespacedNetworkPolicy({ namespace: ns ?? '' });
  }),
  grouped('policy', 'poddisruptionbudgets', 'PodDisruptionBudget', (kc, ns) => {
    const api = kc.makeApiClient(PolicyV1Api);
    return () => api.listNamespacedPodDisruptionBudget({ namespace: ns ?? '' });
  }),
];

export const byResource = new Map<string, BenchResource>([...quietTypes, podsResource].map((r) => [`${r.spec.group}/${r.spec.resource}`, r]));

export function benchResource(spec: ResourceSpec): BenchResource {
  const r = byResource.get(`${spec.group}/${spec.resource}`);
  if (!r) throw new Error(`no typed list call for ${spec.resource}`);
  return r;
}
