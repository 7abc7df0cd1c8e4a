import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Clock } from '../../base/clock';
import type { CredentialProvider, Credentials } from './credentials';
import { ExecCredentials, execConfigOf } from './exec-credentials';
import { KubeConfigCredentials } from './kubeconfig-credentials';

export interface CredentialRegistryOptions {
  clock?: Clock;
  /** The environment exec plugins inherit; default process.env. */
  env?: NodeJS.ProcessEnv;
}

interface Shared {
  provider: CredentialProvider;
  leases: number;
}

/**
 * Credential providers shared per kubeconfig user (towards one cluster): every context and
 * informer on the same user and cluster gets a lease on one provider, so an exec plugin runs
 * once for all of them. Invariant: a provider is disposed (its plugin killed) when its last
 * lease is disposed, and every provider when the registry is.
 */
export class CredentialRegistry {
  private readonly shared = new Map<string, Shared>();

  constructor(private readonly options: CredentialRegistryOptions = {}) {}

  /** A lease on the provider of `kc`'s current user and cluster; dispose it when done. */
  acquire(kc: KubeConfig): CredentialProvider {
    const key = userKey(kc);
    let entry = this.shared.get(key);
    if (!entry) {
      entry = { provider: createCredentialProvider(kc, this.options), leases: 0 };
      this.shared.set(key, entry);
    }
    entry.leases++;
    const e = entry;
    let released = false;
    return {
      get: (signal: AbortSignal) => e.provider.get(signal),
      refresh: (used: Credentials, signal: AbortSignal) => e.provider.refresh(used, signal),
      dispose: () => {
        if (released) return;
        released = true;
        if (--e.leases === 0 && this.shared.get(key) === e) {
          this.shared.delete(key);
          e.provider.dispose();
        }
      },
    };
  }

  /** How many users currently hold a provider (for tests and the inspect report). */
  get size(): number {
    return this.shared.size;
  }

  dispose(): void {
    for (const e of this.shared.values()) e.provider.dispose();
    this.shared.clear();
  }
}

/** An exec user gets the project's runner; every other user keeps client-node's handling. */
export function createCredentialProvider(kc: KubeConfig, options: CredentialRegistryOptions = {}): CredentialProvider {
  const exec = execConfigOf(kc);
  return exec ? new ExecCredentials(exec, kc, options) : new KubeConfigCredentials(kc);
}

/** Identifies a user and cluster by their whole configuration; a digest, so no secret is kept as a key. */
function userKey(kc: KubeConfig): string {
  const user = kc.getCurrentUser();
  const cluster = kc.getCurrentCluster();
  return createHash('sha256')
    .update(JSON.stringify({ user, cluster: cluster && { server: cluster.server, caData: cluster.caData, caFile: cluster.caFile, skip: cluster.skipTLSVerify, sni: cluster.tlsServerName } }))
    .digest('hex');
}
