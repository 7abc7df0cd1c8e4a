import type { KubeConfig } from '@kubernetes/client-node';
import type { CredentialRegistry } from '../connection/credentials/credential-registry';
import { KubeConfigTransport, type KubeTransport } from '../informer';

/** The connection settings of one context, as `selectContext` produced them. */
export interface TransportTarget {
  contextName: string;
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

/** The default: client-node's kubeconfig handling (TLS, SOCKS) under the engine's transport, credentials shared per user. */
export const kubeConfigTransportFactory: TransportFactory = (target) => {
  const credentials = target.credentials?.acquire(target.kubeConfig);
  try {
    return new KubeConfigTransport(target.kubeConfig, { credentials, editorProxy: target.editorProxy });
  } catch (err) {
    credentials?.dispose();
    throw err;
  }
};
