import { createHash } from 'node:crypto';
import type * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, TransportError } from '../../base/api-error';
import type { CredentialProvider, Credentials, TlsMaterial } from './credentials';

/**
 * Credentials as `@kubernetes/client-node` resolves them (`applyToHTTPSOptions`) for what is
 * static: the CA, client certificates and keys (files read at each call), bearer tokens,
 * impersonation. Exec plugins, token files and the oidc/gcp/azure auth providers have their
 * own providers (the library caches an exec credential without expiry forever, reads token files
 * once, refreshes OIDC without single flight and runs `cmd-path` synchronously); they use this
 * one for the TLS material of the user without its exec block and auth provider.
 */
export class KubeConfigCredentials implements CredentialProvider {
  private generation = 0;
  private last: Credentials | undefined;

  constructor(private readonly kc: KubeConfig) {}

  async get(signal: AbortSignal): Promise<Credentials> {
    if (signal.aborted) throw new AbortedError('aborted');
    const options: https.RequestOptions = { headers: {} };
    try {
      await this.kc.applyToHTTPSOptions(options);
    } catch (err) {
      throw new TransportError(credentialFailure(err), 'ECREDENTIALS');
    }
    if (signal.aborted) throw new AbortedError('aborted');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    const tls: TlsMaterial = {
      ca: options.ca as TlsMaterial['ca'],
      cert: options.cert as TlsMaterial['cert'],
      key: options.key as TlsMaterial['key'],
      pfx: options.pfx as TlsMaterial['pfx'],
      passphrase: options.passphrase,
      rejectUnauthorized: options.rejectUnauthorized,
      servername: options.servername,
    };
    const tlsKey = tlsKeyOf(tls);
    const changed = !this.last || this.last.tlsKey !== tlsKey || JSON.stringify(this.last.headers) !== JSON.stringify(headers);
    if (changed) this.generation++;
    this.last = { headers, tls, tlsKey, generation: this.generation };
    return this.last;
  }

  refresh(_used: Credentials, signal: AbortSignal): Promise<Credentials> {
    return this.get(signal);
  }

  dispose(): void {
    this.last = undefined;
  }
}

/** A digest of the TLS identity: equal material gives an equal key, and the key reveals nothing. */
export function tlsKeyOf(tls: TlsMaterial): string {
  const h = createHash('sha256');
  for (const part of [tls.ca, tls.cert, tls.key, tls.pfx, tls.passphrase, String(tls.rejectUnauthorized), tls.servername]) {
    h.update(Array.isArray(part) ? part.map(String).join('\n') : String(part ?? ''));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * Credential failures of the library (an unreadable certificate or key file) are reported
 * without the underlying message, which may quote what it read.
 */
export function credentialFailure(err: unknown): string {
  const code = (err as { code?: string } | undefined)?.code;
  const message = err instanceof Error ? err.message : '';
  // The library's own configuration checks carry no secrets and say what to fix.
  if (/HTTP protocol is not allowed|Unsupported proxy type/.test(message)) return message;
  if (code === 'ENOENT') return 'a credential file named in the kubeconfig does not exist';
  return 'the kubeconfig credentials could not be obtained (a certificate or key in it cannot be used)';
}
