import { readFileSync } from 'node:fs';
import { TransportError } from '../../../base/api-error';
import type { Clock } from '../../../base/clock';
import type { KubeconfigUser } from '../kubeconfig-user';
import { MIN_RUN_SPACING_MS } from '../renewal-plan';
import { CachingTokenSource, type ObtainedToken, type TokenFetcher } from '../token-source';
import { readAuthProviderConfig, writeAuthProviderConfig } from './auth-provider-file';
import { jwtExpiry } from './jwt-expiry';
import { refreshOidcTokens, type OidcClient } from './oidc-token-endpoint';

/** An id-token is refreshed this long before its `exp` (client-go's expiryDelta). */
export const ID_TOKEN_LEEWAY_MS = 10_000;

export interface OidcOptions {
  clock: Clock;
}

/**
 * The id-tokens of one `oidc` auth-provider user. Shared by every informer of the user (the
 * CredentialRegistry), so an expired id-token is refreshed once for all of them and a refresh
 * token is never spent twice (identity providers that rotate refresh tokens, Dex by default,
 * may end the session when one is reused).
 */
export function oidcTokenSource(user: KubeconfigUser, config: Record<string, string>, options: OidcOptions): CachingTokenSource {
  const fetcher = new OidcFetcher(user, config, options.clock);
  const idToken = config['id-token'];
  const initial = idToken ? { token: idToken, expiresAt: jwtExpiry(idToken) } : undefined;
  return new CachingTokenSource(fetcher, { clock: options.clock, initial, expiryLeewayMs: ID_TOKEN_LEEWAY_MS, minFetchSpacingMs: MIN_RUN_SPACING_MS });
}

/**
 * One refresh: first the kubeconfig file the user came from is read again (kubectl, or another
 * window, may have refreshed since: its fresh id-token is taken as it is, its refresh token
 * replaces ours, which it spent); then the refresh token is spent at the issuer, and the new
 * id-token and refresh token are written back to that file, where it is writable, so the next
 * kubectl run presents a live refresh token.
 */
class OidcFetcher implements TokenFetcher {
  private idToken: string | undefined;
  private refreshToken: string | undefined;
  /** The file's id-token and refresh-token as we last read or wrote them: a difference is someone else's refresh. */
  private inFile: { idToken?: string; refreshToken?: string };
  private readonly client: OidcClient;

  constructor(
    private readonly user: KubeconfigUser,
    config: Record<string, string>,
    private readonly clock: Clock,
  ) {
    this.idToken = config['id-token'] || undefined;
    this.refreshToken = config['refresh-token'] || undefined;
    this.inFile = { idToken: this.idToken, refreshToken: this.refreshToken };
    this.client = { issuer: config['idp-issuer-url'] ?? '', clientId: config['client-id'] ?? '', clientSecret: config['client-secret'] || undefined, ca: idpCa(config) };
  }

  async fetch(signal: AbortSignal): Promise<ObtainedToken> {
    const adopted = await this.adoptFromFile();
    if (adopted) return adopted;
    if (!this.client.issuer || !this.client.clientId) throw new TransportError(`the oidc auth provider of user "${this.user.name}" needs idp-issuer-url and client-id to refresh its id-token`, 'ECREDENTIALS');
    if (!this.refreshToken) throw new TransportError(`the oidc id-token of user "${this.user.name}" has expired and there is no refresh-token to renew it: log in again`, 'ECREDENTIALS');
    const spent = this.refreshToken;
    const tokens = await refreshOidcTokens(this.client, spent, this.clock, signal);
    this.idToken = tokens.idToken;
    this.refreshToken = tokens.refreshToken ?? spent;
    await this.persist();
    return { token: tokens.idToken, expiresAt: jwtExpiry(tokens.idToken) };
  }

  /** Takes the file's tokens when someone else changed them; a fresh id-token from there needs no refresh. */
  private async adoptFromFile(): Promise<ObtainedToken | undefined> {
    const file = this.user.definedIn;
    if (!file) return undefined;
    const config = await readAuthProviderConfig(file, this.user.name);
    if (!config) return undefined;
    const idToken = config['id-token'] || undefined;
    const refreshToken = config['refresh-token'] || undefined;
    if (idToken === this.inFile.idToken && refreshToken === this.inFile.refreshToken) return undefined;
    this.inFile = { idToken, refreshToken };
    if (refreshToken) this.refreshToken = refreshToken;
    if (!idToken || idToken === this.idToken) return undefined;
    this.idToken = idToken;
    const expiresAt = jwtExpiry(idToken);
    const fresh = expiresAt === undefined || this.clock.now() < expiresAt - ID_TOKEN_LEEWAY_MS;
    return fresh ? { token: idToken, expiresAt } : undefined;
  }

  /** Writes the new tokens back to the file the user came from (never another); a read-only file keeps them in memory only. */
  private async persist(): Promise<void> {
    const file = this.user.definedIn;
    if (!file || !this.idToken) return;
    const updates: Record<string, string> = { 'id-token': this.idToken };
    if (this.refreshToken) updates['refresh-token'] = this.refreshToken;
    if (await writeAuthProviderConfig(file, this.user.name, 'oidc', updates, this.clock)) this.inFile = { idToken: this.idToken, refreshToken: this.refreshToken };
  }
}

/** The identity provider's CA: `idp-certificate-authority-data` (base64 PEM) or the file `idp-certificate-authority`. */
function idpCa(config: Record<string, string>): string | Buffer | undefined {
  if (config['idp-certificate-authority-data']) return Buffer.from(config['idp-certificate-authority-data'], 'base64');
  if (config['idp-certificate-authority']) {
    try {
      return readFileSync(config['idp-certificate-authority']);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
