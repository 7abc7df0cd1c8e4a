import { createHash } from 'node:crypto';
import type * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, TransportError } from '../../base/api-error';
import type { CredentialProvider, Credentials, TlsMaterial } from './credentials';

/**
 * Credentials as `@kubernetes/client-node` resolves them (`applyToHTTPSOptions`): bearer
 * tokens, token files, auth providers, exec plugins, client certificates.
 * Known limits of the library that a dedicated provider lifts: an exec credential without
 * expiry is cached forever, plugins run without timeout or single flight.
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
 * Credential failures (an exec plugin that failed, an unreadable key file) are reported
 * without the underlying message: exec plugins may print tokens on stderr.
 */
export function credentialFailure(err: unknown): string {
  const code = (err as { code?: string } | undefined)?.code;
  const message = err instanceof Error ? err.message : '';
  // The library's own configuration checks carry no secrets and say what to fix.
  if (/HTTP protocol is not allowed|Unsupported proxy type/.test(message)) return message;
  if (code === 'ENOENT') return 'a credential file named in the kubeconfig does not exist';
  return 'the kubeconfig credentials could not be obtained (exec plugin or auth provider failed)';
}
