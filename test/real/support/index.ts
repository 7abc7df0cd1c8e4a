/**
 * The real-server test tier's harness (see README.md here): a real kube-apiserver 1.34 with
 * etcd 3.5 on loopback, its users, a setup client, relays, and our informers on it.
 */
export { findAssets, AssetsMissingError, ENVTEST_VERSION, type Assets } from './assets';
export { ControlPlane, type ControlPlaneOptions, type StartupTimes, type User } from './control-plane';
export { useControlPlane } from './hooks';
export { AdminClient, ApiStatusError, isStatus, type KubeJson, type ListJson, type PatchType, type RawResponse } from './admin-client';
export { ClusterSetup, ConfigMaps, READ_ROLE, uniqueName, type CrdOptions, type CrdVersion, type Subject } from './cluster-setup';
export { renderKubeconfig, execPluginUser, type ExecUser, type KubeconfigUser, type KubeconfigOptions } from './kubeconfig';
export { RealRig, PROTOCOLS, REAL_BOUND_MS, REAL_INFORMER_DEFAULTS, configmaps, type Protocol, type RealRigOptions, type RigWatch } from './informer-rig';
export type { AuditEvent } from './audit-log';
export { TcpRelay } from '../../support/tcp-relay';
export { until } from '../../support/until';
export { CONFIGMAPS, CRONJOBS, DEPLOYMENTS, NODES, PODS } from './resource-types';
export { useTransports } from './transports';
