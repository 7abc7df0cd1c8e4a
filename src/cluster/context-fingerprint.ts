import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';

/**
 * What identifies a context's connection, as two digests, so that a kubeconfig re-read from
 * disk can tell what changed (F21):
 * - `cluster`: where requests go and how the server is trusted (server URL, CA, TLS name,
 *   skip-verify, proxy). A change means another cluster, or at least another endpoint.
 * - `user`: how requests authenticate (token, client certificate and key, exec plugin,
 *   auth provider, basic auth, impersonation). A change means new credentials for the same cluster.
 * Invariant: the digests are one-way (SHA-256), so holding or logging them never exposes a
 * credential; equal configurations always give equal digests.
 */
export interface ContextFingerprint {
  cluster: string;
  user: string;
}

/** Fingerprints the current context of `kc` (as returned by `selectContext`). */
export function contextFingerprint(kc: KubeConfig): ContextFingerprint {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  return {
    cluster: digest(
      cluster && [cluster.server, cluster.caData, cluster.caFile, cluster.tlsServerName, cluster.skipTLSVerify, cluster.proxyUrl],
    ),
    user: digest(
      user && [
        user.token,
        user.certData,
        user.certFile,
        user.keyData,
        user.keyFile,
        user.exec,
        user.authProvider,
        user.username,
        user.password,
        user.impersonateUser,
      ],
    ),
  };
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value ?? null)).digest('hex');
}
