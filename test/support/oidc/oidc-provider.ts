/**
 * A small OpenID Connect identity provider for tests, over HTTPS with the test CA: discovery
 * (`/.well-known/openid-configuration`) and the token endpoint's refresh grant. Refresh tokens
 * rotate as Dex rotates them: each is good for one use and the answer carries the next one; a
 * spent token presented again is refused (`invalid_grant`) and counted. Id-tokens are JWTs (not
 * signed: the local API server compares tokens as strings) whose `exp` follows the given clock.
 */
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../src/base/clock';
import { loadTlsMaterial } from '../apiserver/tls';

export interface OidcProviderOptions {
  clock: Clock;
  clientId?: string;
  /** Required from the client (HTTP Basic or form) when set. */
  clientSecret?: string;
  /** Lifetime of the id-tokens it issues; default an hour. */
  idTokenLifetimeMs?: number;
  /** Called with each id-token issued (a test makes the API server accept it). */
  onIssue?: (idToken: string) => void;
}

/** A JWT with the given `exp` (ms since the epoch) and subject; its signature is a placeholder. */
export function unsignedJwt(expMs: number, sub = 'alice', extra: Record<string, unknown> = {}): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: 'test', sub, aud: 'kube', exp: Math.floor(expMs / 1000), ...extra })}.c2lnbmF0dXJl`;
}

export class OidcProvider {
  /** Successful refreshes, each with the refresh token it spent. */
  readonly refreshes: { spent: string; issuedIdToken: string; issuedRefreshToken: string }[] = [];
  /** Spent refresh tokens presented again. */
  readonly reuses: string[] = [];
  /** Token requests that were refused (unknown token, wrong client). */
  refused = 0;
  /** Hold token answers this long (real ms) so that concurrent refreshes would overlap. */
  delayMs = 0;
  private live: string;
  private readonly spent = new Set<string>();
  private serial = 0;
  private readonly server: https.Server;

  private constructor(private readonly options: OidcProviderOptions) {
    this.live = this.nextRefreshToken();
    const tls = loadTlsMaterial();
    this.server = https.createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => void this.handle(req, res));
  }

  static async start(options: OidcProviderOptions): Promise<OidcProvider> {
    const p = new OidcProvider(options);
    await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
    return p;
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get caPem(): string {
    return loadTlsMaterial().caPem;
  }

  /** The refresh token that is good for one use now. */
  get liveRefreshToken(): string {
    return this.live;
  }

  /** Spends a refresh token as another client (kubectl) would: the new id-token and refresh token, or undefined when refused. */
  redeem(refreshToken: string): { idToken: string; refreshToken: string } | undefined {
    if (refreshToken !== this.live) {
      if (this.spent.has(refreshToken)) this.reuses.push(refreshToken);
      else this.refused++;
      return undefined;
    }
    this.spent.add(refreshToken);
    const idToken = unsignedJwt(this.options.clock.now() + (this.options.idTokenLifetimeMs ?? 3_600_000), 'alice', { n: ++this.serial });
    this.live = this.nextRefreshToken();
    this.refreshes.push({ spent: refreshToken, issuedIdToken: idToken, issuedRefreshToken: this.live });
    this.options.onIssue?.(idToken);
    return { idToken, refreshToken: this.live };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private nextRefreshToken(): string {
    return `refresh-${this.serial}-${Math.random().toString(36).slice(2, 8)}`;
  }

  private async handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/.well-known/openid-configuration') {
      return send(200, { issuer: this.url, token_endpoint: `${this.url}/token`, token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'] });
    }
    if (req.method !== 'POST' || req.url !== '/token') return send(404, { error: 'not_found' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    let clientId = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic) [clientId, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':').map(decodeURIComponent);
    if (clientId !== (this.options.clientId ?? 'kube') || (this.options.clientSecret !== undefined && secret !== this.options.clientSecret)) {
      this.refused++;
      return send(401, { error: 'invalid_client' });
    }
    if (form.get('grant_type') !== 'refresh_token') return send(400, { error: 'unsupported_grant_type' });
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const issued = this.redeem(form.get('refresh_token') ?? '');
    if (!issued) return send(400, { error: 'invalid_grant', error_description: 'Refresh token is invalid or has already been claimed by another client.' });
    send(200, { access_token: 'opaque-access', token_type: 'bearer', expires_in: 3600, id_token: issued.idToken, refresh_token: issued.refreshToken });
  }
}
