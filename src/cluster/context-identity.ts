/**
 * A context's identity, in one place: the fingerprint that tells what changed when a kubeconfig is
 * re-read, and the key of the cluster it talks to (contexts with one key share a connection).
 */
import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { currentUser, stableUserView } from '../connection/credentials/kubeconfig-user';
import { ClusterRegistry } from '../connection/registry/cluster-registry';

/**
 * What identifies a context's connection, as two digests, so that a kubeconfig re-read from
 * disk can tell what changed (F21):
 * - `cluster`: where requests go and how the server is trusted (server URL, CA, TLS name,
 *   skip-verify, proxy). A change means another cluster, or at least another endpoint.
 * - `user`: how requests authenticate (token, token file, client certificate and key, exec
 *   plugin, auth provider, basic auth, impersonation). A change means new credentials for the
 *   same cluster. The tokens an auth provider rotates and writes back (an OIDC refresh) are no
 *   change: the user's credential provider picks them up itself, without a relist.
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
  return {
    cluster: digest(
      cluster && [cluster.server, cluster.caData, cluster.caFile, cluster.tlsServerName, cluster.skipTLSVerify, cluster.proxyUrl],
    ),
    user: digest(stableUserView(currentUser(kc))),
  };
}

/**
 * The cluster a kubeconfig's current context talks to: server URL, CA (by digest) and proxy.
 * Contexts with the same key share one reachability and one wake signal.
 */
export function clusterKeyOf(kc: KubeConfig): string {
  const c = kc.getCurrentCluster();
  const ca = createHash('sha256')
    .update(`${c?.caData ?? ''}|${c?.caFile ?? ''}|${c?.skipTLSVerify ? 'insecure' : ''}|${c?.tlsServerName ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  return ClusterRegistry.keyOf(c?.server ?? '', ca, c?.proxyUrl ?? '');
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value ?? null)).digest('hex');
}
