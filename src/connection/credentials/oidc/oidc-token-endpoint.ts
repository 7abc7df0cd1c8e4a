import * as http from 'node:http';
import * as https from 'node:https';
import { AbortedError, TransportError } from '../../../base/api-error';
import type { Clock } from '../../../base/clock';

/** How long one refresh (discovery and token request together) may take. */
export const OIDC_REFRESH_TIMEOUT_MS = 30_000;
/** An answer longer than this is refused (discovery documents and token responses are a few KiB). */
const MAX_BODY_BYTES = 1024 * 1024;

/** The client of an `oidc` auth provider, as the kubeconfig names it. */
export interface OidcClient {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** PEM of the identity provider's CA (`idp-certificate-authority(-data)`); default the system's. */
  ca?: string | Buffer;
}

export interface RefreshedTokens {
  idToken: string;
  /** A new refresh token when the provider rotated it (Dex does), else undefined. */
  refreshToken?: string;
}

/**
 * Spends `refreshToken` once at the issuer's token endpoint (found by OpenID Connect
 * discovery), as client-go's oidc auth provider does: the client authenticates with HTTP Basic
 * when it has a secret (retried with the secret in the form only when the provider answers
 * `invalid_client`, which spends nothing), and the answer must carry an `id_token`.
 * Errors name the issuer and the OAuth error code, never a token or the provider's text.
 */
export async function refreshOidcTokens(client: OidcClient, refreshToken: string, clock: Clock, signal: AbortSignal): Promise<RefreshedTokens> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = clock.setTimer(() => ctl.abort(new TransportError(`the OIDC issuer ${client.issuer} did not answer within ${OIDC_REFRESH_TIMEOUT_MS / 1000} s`, 'ECREDENTIALS')), OIDC_REFRESH_TIMEOUT_MS);
  try {
    if (signal.aborted) throw new AbortedError('aborted');
    const tokenUrl = await tokenEndpoint(client, ctl.signal);
    const form: Record<string, string> = { grant_type: 'refresh_token', refresh_token: refreshToken };
    let answer = await post(tokenUrl, form, client, client.clientSecret ? 'basic' : 'form', ctl.signal);
    if (answer.status !== 200 && client.clientSecret && oauthError(answer.json) === 'invalid_client') answer = await post(tokenUrl, form, client, 'form', ctl.signal);
    if (answer.status !== 200) {
      const code = oauthError(answer.json);
      const hint = code === 'invalid_grant' ? ': the refresh token is no longer valid, log in again' : '';
      throw new TransportError(`the OIDC issuer ${client.issuer} refused to refresh the token (${code ?? `HTTP ${answer.status}`})${hint}`, 'ECREDENTIALS');
    }
    const body = answer.json as { id_token?: unknown; refresh_token?: unknown } | undefined;
    if (typeof body?.id_token !== 'string' || !body.id_token) {
      throw new TransportError(`the OIDC issuer ${client.issuer} answered the refresh without an id_token (was the openid scope requested at login?)`, 'ECREDENTIALS');
    }
    return { idToken: body.id_token, refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined };
  } catch (err) {
    if (signal.aborted) throw new AbortedError('aborted');
    if (ctl.signal.aborted && ctl.signal.reason instanceof TransportError) throw ctl.signal.reason;
    throw err;
  } finally {
    timer.cancel();
    signal.removeEventListener('abort', onAbort);
  }
}

const endpoints = new WeakMap<OidcClient, URL>();

/** The token endpoint from `ISSUER/.well-known/openid-configuration`, looked up once per client. */
async function tokenEndpoint(client: OidcClient, signal: AbortSignal): Promise<URL> {
  const known = endpoints.get(client);
  if (known) return known;
  const wellKnown = new URL(`${client.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  const answer = await request(wellKnown, 'GET', undefined, {}, client.ca, signal);
  const url = (answer.json as { token_endpoint?: unknown } | undefined)?.token_endpoint;
  if (answer.status !== 200 || typeof url !== 'string') {
    throw new TransportError(`the OIDC issuer ${client.issuer} has no usable discovery document (HTTP ${answer.status})`, 'ECREDENTIALS');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TransportError(`the OIDC issuer ${client.issuer} names an invalid token endpoint`, 'ECREDENTIALS');
  }
  endpoints.set(client, parsed);
  return parsed;
}

function post(url: URL, form: Record<string, string>, client: OidcClient, auth: 'basic' | 'form', signal: AbortSignal) {
  const fields = { ...form };
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  if (auth === 'basic') {
    // RFC 6749 2.3.1: the id and secret are form-encoded before Basic encoding.
    headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret ?? '')}`).toString('base64')}`;
  } else {
    fields.client_id = client.clientId;
    if (client.clientSecret) fields.client_secret = client.clientSecret;
  }
  return request(url, 'POST', new URLSearchParams(fields).toString(), headers, client.ca, signal);
}

function oauthError(json: unknown): string | undefined {
  const code = (json as { error?: unknown } | undefined)?.error;
  // Only a well-formed OAuth error code is shown: the provider's free text could echo anything.
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : undefined;
}

/** One HTTP(S) request; resolves with the status and the JSON body (undefined when not JSON). */
function request(url: URL, method: 'GET' | 'POST', body: string | undefined, headers: Record<string, string>, ca: string | Buffer | undefined, signal: AbortSignal): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError('aborted'));
    const mod = url.protocol === 'http:' ? http : https;
    const options: https.RequestOptions = { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, signal };
    if (ca && url.protocol === 'https:') options.ca = ca;
    const req = mod.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) return req.destroy(new Error('too large'));
        chunks.push(c);
      });
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
      res.on('error', () => reject(failure(url, signal)));
    });
    req.on('error', () => reject(failure(url, signal)));
    req.end(body);
  });
}

function failure(url: URL, signal: AbortSignal): Error {
  if (signal.aborted) return signal.reason instanceof TransportError ? signal.reason : new AbortedError('aborted');
  return new TransportError(`the OIDC issuer at ${url.protocol}//${url.host} cannot be reached`, 'ECREDENTIALS');
}
