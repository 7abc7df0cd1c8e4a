import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { systemClock, type Clock } from '../../base/clock';
import { cloudCommandTokenSource } from './cloud-command-token';
import type { CredentialProvider, Credentials } from './credentials';
import { ExecCredentials, execConfigOf, withoutExec } from './exec-credentials';
import type { ExecInteraction } from './exec-interaction';
import { KubeConfigCredentials } from './kubeconfig-credentials';
import { currentUser, stableUserView } from './kubeconfig-user';
import { oidcTokenSource } from './oidc/oidc-token-source';
import { TokenCredentials } from './token-credentials';
import { tokenFileSource } from './token-file';
import type { TokenSource } from './token-source';

export interface CredentialRegistryOptions {
  clock?: Clock;
  /** The clock that times an exec plugin's run; default `clock` (ExecCredentialsOptions.runClock). */
  runClock?: Clock;
  /** The environment exec plugins inherit; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where exec plugins that may log in meet the user (a VS Code terminal). */
  interaction?: ExecInteraction;
}

interface Shared {
  provider: CredentialProvider;
  leases: number;
}

/**
 * Credential providers shared per kubeconfig user (towards one cluster): every context and
 * informer on the same user and cluster gets a lease on one provider, so an exec plugin runs
 * once for all of them. Token sources (token files, OIDC, cloud commands) are shared per user
 * across clusters too: one OIDC login used for several clusters refreshes once, and never
 * spends its refresh token twice. Invariant: a provider or source is disposed (its plugin
 * killed, its refresh ended) when its last lease is disposed, and every one when the registry is.
 */
export class CredentialRegistry {
  private readonly shared = new Map<string, Shared>();
  private readonly sources = new Map<string, { source: TokenSource; leases: number }>();

  constructor(private readonly options: CredentialRegistryOptions = {}) {}

  /** A lease on the provider of `kc`'s current user and cluster; dispose it when done. */
  acquire(kc: KubeConfig): CredentialProvider {
    const key = userKey(kc);
    let entry = this.shared.get(key);
    if (!entry) {
      entry = { provider: createCredentialProvider(kc, this.options, (k) => this.acquireSource(k)), leases: 0 };
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
    for (const e of this.sources.values()) e.source.dispose();
    this.sources.clear();
  }

  /** A lease on the token source of `kc`'s current user, shared by that user's providers on every cluster. */
  private acquireSource(kc: KubeConfig): TokenSource | undefined {
    const key = sourceKey(kc);
    let entry = this.sources.get(key);
    if (!entry) {
      const source = tokenSourceFor(kc, this.options);
      if (!source) return undefined;
      entry = { source, leases: 0 };
      this.sources.set(key, entry);
    }
    entry.leases++;
    const e = entry;
    let released = false;
    return {
      token: (signal) => e.source.token(signal),
      refresh: (used, signal) => e.source.refresh(used, signal),
      dispose: () => {
        if (released) return;
        released = true;
        if (--e.leases === 0 && this.sources.get(key) === e) {
          this.sources.delete(key);
          e.source.dispose();
        }
      },
    };
  }
}

/**
 * The provider for the current user of `kc`: the project's runner for exec plugins; token
 * sources for token files, OIDC and the cloud `cmd-path` auth providers; client-node's static
 * handling (tokens, client certificates) for everything else.
 */
export function createCredentialProvider(
  kc: KubeConfig,
  options: CredentialRegistryOptions = {},
  sourceFor: (kc: KubeConfig) => TokenSource | undefined = (k) => tokenSourceFor(k, options),
): CredentialProvider {
  const exec = execConfigOf(kc);
  if (exec) return new ExecCredentials(exec, kc, options);
  const source = sourceFor(kc);
  return source ? new TokenCredentials(new KubeConfigCredentials(withoutExec(kc)), source) : new KubeConfigCredentials(kc);
}

/** A token source for the current user's auth provider or token file, or undefined when it has neither. */
function tokenSourceFor(kc: KubeConfig, options: CredentialRegistryOptions): TokenSource | undefined {
  const clock = options.clock ?? systemClock;
  const user = currentUser(kc);
  if (!user) return undefined;
  const provider = user.authProvider as { name?: string; config?: Record<string, string> } | undefined | null;
  if (provider?.name === 'oidc' && provider.config) return oidcTokenSource(user, provider.config, { clock });
  if ((provider?.name === 'gcp' || provider?.name === 'azure') && provider.config) return cloudCommandTokenSource(provider.name, provider.config, { clock, env: options.env });
  // client-node's in-cluster configuration names the service account token this way.
  const file = user.tokenFile ?? (provider?.name === 'tokenFile' ? provider.config?.tokenFile : undefined);
  if (file) return tokenFileSource(file, clock, user.token || undefined);
  return undefined;
}

/** Identifies a user (whatever the cluster) by its configuration without rotating tokens; a digest. */
function sourceKey(kc: KubeConfig): string {
  const user = currentUser(kc);
  return createHash('sha256')
    .update(JSON.stringify({ name: user?.name, definedIn: user?.definedIn, user: stableUserView(user) }))
    .digest('hex');
}

/**
 * Identifies a user and cluster by their configuration, leaving out the tokens an auth provider
 * rotates (so a refresh written back to the kubeconfig keeps the same provider); a digest, so
 * no secret is kept as a key.
 */
function userKey(kc: KubeConfig): string {
  const user = currentUser(kc);
  const cluster = kc.getCurrentCluster();
  return createHash('sha256')
    .update(
      JSON.stringify({
        name: user?.name,
        definedIn: user?.definedIn,
        user: stableUserView(user),
        cluster: cluster && { server: cluster.server, caData: cluster.caData, caFile: cluster.caFile, skip: cluster.skipTLSVerify, sni: cluster.tlsServerName },
      }),
    )
    .digest('hex');
}
