import type { Cluster } from '@kubernetes/client-node';

/** The name of a cluster's `extensions` entry that client-go hands to exec plugins as `spec.cluster.config`. */
export const EXEC_EXTENSION_NAME = 'client.authentication.k8s.io/exec';

/**
 * A kubeconfig cluster as Kube Watch reads it: client-node's fields, plus what client-node drops
 * and exec plugins need (the cluster's exec extension, kept by the kubeconfig loader).
 */
export interface KubeconfigCluster extends Cluster {
  /** The `extension` of the cluster's `extensions` entry named EXEC_EXTENSION_NAME, as written. */
  execExtension?: unknown;
}

/**
 * Takes each cluster's exec extension out of a parsed kubeconfig document (client-node's loader
 * drops `extensions`): cluster name → the extension's value.
 */
export function execExtensionsOf(doc: object): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const clusters = (doc as { clusters?: unknown }).clusters;
  if (!Array.isArray(clusters)) return found;
  for (const entry of clusters as { name?: unknown; cluster?: { extensions?: unknown } }[]) {
    const extensions = entry?.cluster?.extensions;
    if (typeof entry?.name !== 'string' || !Array.isArray(extensions)) continue;
    const exec = (extensions as { name?: unknown; extension?: unknown }[]).find((e) => e?.name === EXEC_EXTENSION_NAME);
    if (exec && exec.extension !== undefined) found.set(entry.name, exec.extension);
  }
  return found;
}
