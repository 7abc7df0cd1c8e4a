import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { ClusterRegistry } from './cluster-registry';

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

