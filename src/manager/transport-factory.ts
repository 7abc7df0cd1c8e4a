import type { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport, type KubeTransport } from '../informer';

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

/** The default: client-node's kubeconfig handling (auth, TLS, proxies) under the engine's transport. */
export const kubeConfigTransportFactory: TransportFactory = (target) => new KubeConfigTransport(target.kubeConfig);
