import type { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport, type KubeTransport } from '../informer';
import type { KubeConfigTransportOptions } from '../informer/kubeconfig-transport';
import type { ClusterRegistry } from '../connection/registry/cluster-registry';
import { clusterKeyOf } from '../connection/registry/cluster-key';

/** The connection settings of one context, as `selectContext` produced them. */
export interface TransportTarget {
  contextName: string;
  /** A configuration holding only this context, its cluster and its user, set as current. */
  kubeConfig: KubeConfig;
}

/**
 * Builds the transport of one context. The manager calls it once per context (and again when
 * the context's credentials or server change) and disposes what it returned when done with it.
 */
export type TransportFactory = (target: TransportTarget) => KubeTransport;

/** client-node's kubeconfig handling (auth, TLS, proxies) under the engine's transport, clusters shared through `registry`. */
export function kubeConfigTransportFactoryWith(registry: ClusterRegistry, options: Omit<KubeConfigTransportOptions, 'lease'> = {}): TransportFactory {
  return (target) => {
    const lease = registry.acquire(clusterKeyOf(target.kubeConfig));
    try {
      return new KubeConfigTransport(target.kubeConfig, { ...options, lease });
    } catch (err) {
      lease.dispose();
      throw err;
    }
  };
}

/** The default without sharing: each transport its own reachability, no wake detection. */
export const kubeConfigTransportFactory: TransportFactory = (target) => new KubeConfigTransport(target.kubeConfig);
