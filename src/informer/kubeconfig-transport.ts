import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, ApiError, TransportError, statusFromBody } from './api-error';
import { LineSplitter } from './line-splitter';
import { parseEventWithoutManagedFields, parseListWithoutManagedFields } from './managed-fields';
import type { KubeTransport, ListResponse, ParseHints, WatchCallbacks } from './transport';

/**
 * A transport over `@kubernetes/client-node`'s KubeConfig: the library supplies the server,
 * TLS material, bearer tokens, auth providers and exec plugins (`applyToHTTPSOptions`); this
 * class owns the requests, a keep-alive agent shared by all of them, and their cancellation.
 * The library's own Watch is not used: it aborts quiet watches after 30 s and drops lines it
 * cannot parse.
 */
export class KubeConfigTransport implements KubeTransport {
  readonly server: string;
  private readonly base: URL;
  private agent: http.Agent | undefined;
  private disposed = false;

  constructor(private readonly kc: KubeConfig) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    if (!cluster.server) throw new Error(`cluster "${cluster.name}" has no server address`);
    let base: URL;
    try {
      base = new URL(cluster.server);
    } catch {
      throw new Error(`cluster "${cluster.name}" has an invalid server address`);
    }
    this.base = base;
    this.server = `${base.protocol}//${base.host}${base.pathname === '/' ? '' : base.pathname}`;
  }

  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal): Promise<T> {
    return this.requestJson(path, query, signal, (body) => JSON.parse(body.toString('utf8')) as T);
  }

  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    const parse = hints?.dropManagedFields ? parseListWithoutManagedFields : (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;
    return this.requestJson(path, query, signal, (body) => parse(body) as ListResponse);
  }

  async watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void> {
    const res = await this.open(path, { ...query, watch: 'true' }, signal);
    if (res.statusCode !== 200) throw await errorFromResponse(res);
    callbacks.onOpen();
    const parse = hints?.dropManagedFields ? parseEventWithoutManagedFields : parseLine;
    // Lines are parsed straight from the received bytes; the text is decoded only if asked for.
    const splitter = LineSplitter.bytes((buf, start, end) => {
      let parsed: unknown;
      try {
        parsed = parse(buf, start, end);
      } catch {
        parsed = undefined;
      }
      callbacks.onLine(parsed, () => buf.toString('utf8', start, end));
    });
    return pumpBody(res, signal, 'watch', (chunk) => {
      callbacks.onData();
      splitter.push(chunk);
    }, () => splitter.end());
  }

  async stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    const res = await this.open(path, query, signal);
    if (res.statusCode !== 200) throw await errorFromResponse(res);
    onOpen?.();
    return pumpBody(res, signal, 'stream', onChunk, () => undefined);
  }

  dispose(): void {
    this.disposed = true;
    this.agent?.destroy();
    this.agent = undefined;
  }

  /** A GET whose 2xx body is parsed by `parse`; a body that is not JSON is a TransportError. */
  private async requestJson<T>(path: string, query: Record<string, string>, signal: AbortSignal, parse: (body: Buffer) => T): Promise<T> {
    const res = await this.open(path, query, signal);
    const body = await readBody(res, signal);
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) throw apiErrorFrom(body.toString('utf8'), res);
    try {
      return parse(body);
    } catch {
      throw new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON');
    }
  }

  /** Sends a GET and resolves with the response once its headers arrive. */
  private async open(path: string, query: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
    if (this.disposed) throw new AbortedError('transport disposed');
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const url = new URL(this.base.toString());
    url.pathname = `${this.base.pathname.replace(/\/$/, '')}${path}`;
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, v);

    const options: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
    try {
      await this.kc.applyToHTTPSOptions(options);
    } catch (err) {
      throw new TransportError(credentialFailure(err), 'ECREDENTIALS');
    }
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    options.agent = this.agentFor(options);
    const mod = url.protocol === 'http:' ? http : https;

    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = mod.request(url, options, (res) => {
        signal.removeEventListener('abort', onAbort);
        resolve(res);
      });
      const onAbort = () => {
        req.destroy();
        reject(new AbortedError(abortReason(signal)));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err));
      });
      req.end();
    });
  }

  /**
   * One keep-alive agent for every request of this transport, built from the TLS material the
   * library resolved. Proxied clusters keep the library's proxy agent.
   */
  private agentFor(options: https.RequestOptions): http.Agent | undefined {
    if (this.kc.getCurrentCluster()?.proxyUrl) return options.agent as http.Agent | undefined;
    if (!this.agent) {
      this.agent =
        this.base.protocol === 'http:'
          ? new http.Agent({ keepAlive: true })
          : new https.Agent({
              keepAlive: true,
              ca: options.ca,
              cert: options.cert,
              key: options.key,
              pfx: options.pfx,
              passphrase: options.passphrase,
              rejectUnauthorized: options.rejectUnauthorized,
              servername: options.servername,
            });
    }
    return this.agent;
  }
}

function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r.message;
  return typeof r === 'string' ? r : 'aborted';
}

function parseLine(buf: Buffer, start: number, end: number): unknown {
  return JSON.parse(buf.toString('utf8', start, end));
}

function readBody(res: http.IncomingMessage, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      res.destroy();
      reject(new AbortedError(abortReason(signal)));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
    });
    res.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks, size));
    });
    res.on('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err));
    });
    res.on('close', () => {
      if (!res.complete) {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the response ended', 'ECONNRESET'));
      }
    });
  });
}

function apiErrorFrom(body: string, res: http.IncomingMessage): ApiError {
  const code = res.statusCode ?? 0;
  const retryAfter = res.headers['retry-after'];
  return new ApiError(statusFromBody(body, code), 'http', code, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
}

async function errorFromResponse(res: http.IncomingMessage): Promise<Error> {
  const ctl = new AbortController();
  try {
    return apiErrorFrom((await readBody(res, ctl.signal)).toString('utf8'), res);
  } catch (err) {
    return err instanceof Error ? err : new TransportError(String(err));
  }
}

function toTransportError(err: Error & { code?: string }): TransportError {
  if (err instanceof TransportError) return err;
  // Node reports a response cut off by the peer as "aborted", which reads like our own abort.
  if (err.message === 'aborted') return new TransportError('the server closed the connection (ECONNRESET)', err.code ?? 'ECONNRESET');
  return new TransportError(err.message || err.code || 'network error', err.code);
}

/**
 * Credential failures (an exec plugin that failed, an unreadable key file) are reported
 * without the underlying message: exec plugins may print tokens on stderr.
 */
function credentialFailure(err: unknown): string {
  const code = (err as { code?: string } | undefined)?.code;
  const message = err instanceof Error ? err.message : '';
  // The library's own configuration checks carry no secrets and say what to fix.
  if (/HTTP protocol is not allowed|Unsupported proxy type/.test(message)) return message;
  if (code === 'ENOENT') return 'a credential file named in the kubeconfig does not exist';
  return 'the kubeconfig credentials could not be obtained (exec plugin or auth provider failed)';
}

/**
 * Feeds a streaming response body to `onChunk` until it ends (resolves after `onEnd`), fails
 * (TransportError) or `signal` fires (AbortedError, the response destroyed). Settles once.
 */
function pumpBody(res: http.IncomingMessage, signal: AbortSignal, what: string, onChunk: (chunk: Buffer) => void, onEnd: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => {
      res.destroy();
      finish(new AbortedError(abortReason(signal)));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      onChunk(chunk);
    });
    res.on('end', () => {
      if (settled) return;
      onEnd();
      finish();
    });
    res.on('error', (err) => finish(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err)));
    res.on('close', () => {
      if (!res.complete) finish(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError(`the connection closed before the ${what} ended`, 'ECONNRESET'));
    });
  });
}
