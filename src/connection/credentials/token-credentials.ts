import type { CredentialProvider, Credentials } from './credentials';
import type { KubeConfigCredentials } from './kubeconfig-credentials';
import type { TokenSource } from './token-source';

/**
 * The credentials of a user whose bearer token comes from a TokenSource (a token file, an OIDC
 * or cloud auth provider), with the CA and any client certificate from the kubeconfig.
 * Invariant: `generation` changes exactly when what is presented (headers, TLS identity)
 * changes, so a request refused with a token is retried only with another one.
 */
export class TokenCredentials implements CredentialProvider {
  private last: Credentials | undefined;
  private generation = 0;

  constructor(
    private readonly base: KubeConfigCredentials,
    readonly source: TokenSource,
  ) {}

  async get(signal: AbortSignal): Promise<Credentials> {
    const token = await this.source.token(signal);
    return this.compose(await this.base.get(signal), token);
  }

  async refresh(used: Credentials, signal: AbortSignal): Promise<Credentials> {
    const token = await this.source.refresh(bearerOf(used) ?? '', signal);
    return this.compose(await this.base.get(signal), token);
  }

  dispose(): void {
    this.source.dispose();
    this.base.dispose();
    this.last = undefined;
  }

  private compose(base: Credentials, token: string): Credentials {
    const headers = { ...base.headers, Authorization: `Bearer ${token}` };
    const last = this.last;
    if (last && last.tlsKey === base.tlsKey && JSON.stringify(last.headers) === JSON.stringify(headers)) return last;
    this.last = { headers, tls: base.tls, tlsKey: base.tlsKey, generation: ++this.generation };
    return this.last;
  }
}

function bearerOf(creds: Credentials): string | undefined {
  const auth = creds.headers.Authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}
