import type { KubeConfig } from '@kubernetes/client-node';
import type { CredentialRegistry } from '../credentials/credential-registry';
import { KubeConfigTransport } from './kubeconfig-transport';
import { type KubeTransport } from '../../informer';
import type { KubeConfigTransportOptions } from './kubeconfig-transport';
import type { ClusterRegistry } from '../registry/cluster-registry';

/** The connection settings of one context, as `selectContext` produced them. */
export interface TransportTarget {
  contextName: string;
  /** The cluster the context talks to (`clusterKeyOf`): transports with one key share its connections. */
  clusterKey: string;
  /** A configuration holding only this context, its cluster and its user, set as current. */
  kubeConfig: KubeConfig;
  /** Where the context's user gets its credentials, shared with every other context on that user. */
  credentials?: CredentialRegistry;
  /** The editor's proxy (VS Code `http.proxy`), used where the environment names none. */
  editorProxy?: string;
}

/**
 * Builds the transport of one context. The manager calls it once per context (and again when
 * the context's credentials or server change) and disposes what it returned when done with it.
 */
export type TransportFactory = (target: TransportTarget) => KubeTransport;

/**
 * client-node's kubeconfig handling (TLS, SOCKS) under the engine's transport: clusters shared
 * through `registry`, credentials shared per kubeconfig user through the target's registry.
 */
export function kubeConfigTransportFactoryWith(registry: ClusterRegistry, options: Omit<KubeConfigTransportOptions, 'lease' | 'credentials'> = {}): TransportFactory {
  return (target) => {
    const lease = registry.acquire(target.clusterKey);
    const credentials = target.credentials?.acquire(target.kubeConfig);
    try {
      return new KubeConfigTransport(target.kubeConfig, { ...options, editorProxy: target.editorProxy ?? options.editorProxy, lease, credentials });
    } catch (err) {
      credentials?.dispose();
      lease.dispose();
      throw err;
    }
  };
}

/** The default without sharing: each transport its own reachability, no wake detection; credentials shared per user. */
export const kubeConfigTransportFactory: TransportFactory = (target) => {
  const credentials = target.credentials?.acquire(target.kubeConfig);
  try {
    return new KubeConfigTransport(target.kubeConfig, { credentials, editorProxy: target.editorProxy });
  } catch (err) {
    credentials?.dispose();
    throw err;
  }
};
