import { AbortedError, TransportDisposedError, TransportError } from '../../base/api-error';
import type { CredentialProvider, Credentials } from '../credentials/credentials';
import { credentialFailure } from '../credentials/kubeconfig-credentials';
import type { HttpResponse } from '../h2/h2-response';
import { abortReason, discardBody } from './body-readers';
import type { H2Route } from './h2-route';
import type { Http1Route } from './http1-route';
import type { OutgoingWrite } from './write-request';

/**
 * One request to the cluster (a GET, or a write with its body), from its path to its response
 * headers: the credentials, the route (HTTP/2 where the server speaks it, else HTTP/1.1), and
 * the 401 that refreshes credentials (a write is sent again then: the server did nothing with it).
 */
export class RequestOpener {
  constructor(
    private readonly base: URL,
    private readonly credentials: CredentialProvider,
    private readonly h2: H2Route,
    private readonly http1: Http1Route,
    private readonly isDisposed: () => boolean,
  ) {}

  /**
   * Sends a GET (or `write`; `accept` replaces the default `application/json`) and resolves with the response once its headers arrive. A 401 refreshes the
   * credentials (once per user, shared) and retries at once when they changed; a 401 with fresh
   * credentials is returned as it is (the caller reports `unauthorized`).
   */
  async open(path: string, query: Record<string, string>, signal: AbortSignal, write?: OutgoingWrite, accept?: string): Promise<HttpResponse> {
    if (this.isDisposed()) throw new TransportDisposedError();
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const url = this.urlOf(path, query);

    const used = await this.currentCredentials(signal);
    const res = await this.send(url, used, signal, write, accept);
    if (res.statusCode !== 401) return res;
    let fresh: Credentials;
    try {
      fresh = await this.refreshedCredentials(used, signal);
    } catch (err) {
      // No response is left unread: an unread one pins an HTTP/1.1 socket (F43).
      res.destroy();
      throw err;
    }
    if (fresh.generation <= used.generation) return res;
    const giveUp = discardBody(res);
    try {
      return await this.send(url, fresh, signal, write, accept);
    } finally {
      giveUp();
    }
  }

  /** The server's URL for `path` and `query` (empty values left out). */
  urlOf(path: string, query: Record<string, string>): URL {
    const url = new URL(this.base.toString());
    url.pathname = `${this.base.pathname.replace(/\/$/, '')}${path}`;
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, v);
    return url;
  }

  /**
   * The provider's credentials; failures become a TransportError coded ECREDENTIALS without
   * secrets. The wait ends when `signal` fires, even if the provider does not listen to it.
   */
  async currentCredentials(signal: AbortSignal): Promise<Credentials> {
    try {
      return await untilAborted(this.credentials.get(signal), signal);
    } catch (err) {
      throw credentialError(err, signal);
    }
  }

  async refreshedCredentials(used: Credentials, signal: AbortSignal): Promise<Credentials> {
    try {
      return await untilAborted(this.credentials.refresh(used, signal), signal);
    } catch (err) {
      throw credentialError(err, signal);
    }
  }

  private async send(url: URL, creds: Credentials, signal: AbortSignal, write?: OutgoingWrite, accept = 'application/json'): Promise<HttpResponse> {
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const headers: Record<string, string> = { Accept: accept, ...write?.headers, ...creds.headers };
    const pool = this.h2.poolFor(url, creds);
    if (pool) {
      const res = await this.h2.send(pool, url, headers, signal, write);
      if (res) return res;
    }
    return this.http1.send(url, headers, creds, signal, write);
  }
}

export function credentialError(err: unknown, signal: AbortSignal): Error {
  if (err instanceof AbortedError || signal.aborted) return new AbortedError(abortReason(signal));
  if (err instanceof TransportError) return err;
  return new TransportError(credentialFailure(err), 'ECREDENTIALS');
}

/** `work`, or an AbortedError as soon as `signal` fires (the work itself is left to its owner). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError(abortReason(signal)));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError(abortReason(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
