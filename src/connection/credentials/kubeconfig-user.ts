/**
 * What Kube Watch knows about a kubeconfig user beyond `@kubernetes/client-node`'s `User`, and
 * the user's identity for sharing and change detection.
 */
import type { KubeConfig, User } from '@kubernetes/client-node';

/**
 * Fields the kubeconfig loader adds to a client-node `User` (client-node drops or mishandles
 * them: it ignores kubectl's `tokenFile`, reads its own spelling `token-file` once, at load,
 * relative to the working directory, and rejects the whole kubeconfig when any user's file is
 * unreadable).
 */
export interface KubeconfigUserSource {
  /** `tokenFile` (or client-node's `token-file`), made absolute against the directory of the file that defined the user; read only when used. */
  tokenFile?: string;
  /**
   * The kubeconfig file (absolute) that defined the user: one the user named (the setting,
   * `KUBECONFIG`, or `~/.kube/config`). Refreshed auth-provider tokens are written back there.
   */
  definedIn?: string;
}

export type KubeconfigUser = User & KubeconfigUserSource;

/** The current user of `kc` with the loader's extra fields, or undefined. */
export function currentUser(kc: KubeConfig): KubeconfigUser | undefined {
  return (kc.getCurrentUser() as KubeconfigUser | null) ?? undefined;
}

/**
 * Auth-provider fields that the provider itself rewrites as tokens rotate (kubectl's persister,
 * ours, `gcloud`): not part of who the user is. An OIDC user whose refresh token was rotated is
 * still the same user, with the same connections and the same single-flight refresh.
 */
const ROTATING_AUTH_PROVIDER_FIELDS = new Set(['id-token', 'refresh-token', 'access-token', 'expiry', 'expires-on', 'expires-in']);

/**
 * The user's configuration without the tokens its auth provider rotates: equal for a kubeconfig
 * re-read after a refresh was written back, different for any other change (another token
 * file, client certificate, exec plugin, issuer or client id). Leaves out the user's name.
 * Holds secrets: only ever digested.
 */
export function stableUserView(user: KubeconfigUser | undefined | null): unknown {
  if (!user) return null;
  const provider = user.authProvider as { name?: string; config?: Record<string, unknown> } | undefined | null;
  const config = provider?.config
    ? Object.fromEntries(Object.entries(provider.config).filter(([k]) => !ROTATING_AUTH_PROVIDER_FIELDS.has(k)).sort(([a], [b]) => a.localeCompare(b)))
    : undefined;
  return [
    user.token,
    user.tokenFile,
    user.certData,
    user.certFile,
    user.keyData,
    user.keyFile,
    user.exec,
    provider ? { name: provider.name, config } : null,
    user.username,
    user.password,
    user.impersonateUser,
  ];
}
