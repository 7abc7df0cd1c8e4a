import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import type { CredentialProvider, Credentials } from '../connection/credentials/credentials';
import { createCredentialProvider } from '../connection/credentials/credential-registry';
import { withoutExec } from '../connection/credentials/exec-credentials';
import { credentialFailure } from '../connection/credentials/kubeconfig-credentials';
import { openConnectTunnel } from '../connection/proxy/connect-tunnel';
import { proxyRouteFor, type ProxyRoute } from '../connection/proxy/proxy-route';
import { AbortedError, ApiError, TransportError, statusFromBody } from './api-error';
import { LineSplitter } from './line-splitter';
import { parseEventWithoutManagedFields, parseListWithoutManagedFields } from './managed-fields';
import type { KubeTransport, ListResponse, ParseHints, WatchCallbacks } from './transport';

export interface KubeConfigTransportOptions {
  /** The credentials of the context's user (a lease from a CredentialRegistry); disposed with the transport. Default: a provider of its own. */
  credentials?: CredentialProvider;
  /** The environment proxies are read from (HTTPS_PROXY, NO_PROXY, ...); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The editor's proxy (VS Code `http.proxy`), used where the environment names none. */
  editorProxy?: string;
}

/**
 * A transport over `@kubernetes/client-node`'s KubeConfig: the library supplies the server and
 * TLS material; credentials come from a CredentialProvider (exec plugins through the project's
 * runner, refreshed once on 401); the route from the proxy rules (kubeconfig proxy-url, then
 * the environment as kubectl reads it). This class owns the requests, a keep-alive agent per
 * TLS identity, and their cancellation. The library's own Watch is not used: it aborts quiet
 * watches after 30 s and drops lines it cannot parse.
 */
export class KubeConfigTransport implements KubeTransport {
  readonly server: string;
  private readonly base: URL;
  private readonly credentials: CredentialProvider;
  private readonly route: ProxyRoute;
  /** The agent for the current TLS identity; earlier ones stay until dispose so their streams finish. */
  private agent: { tlsKey: string; agent: http.Agent } | undefined;
  private readonly retiredAgents: http.Agent[] = [];
  private disposed = false;

  constructor(
    private readonly kc: KubeConfig,
    options: KubeConfigTransportOptions = {},
  ) {
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
    this.route = proxyRouteFor(base, { kubeconfigProxyUrl: cluster.proxyUrl, env: options.env ?? process.env, editorProxy: options.editorProxy });
    this.credentials = options.credentials ?? createCredentialProvider(kc);
  }

  /** How requests reach the server (for logs and tooltips through describeProxyRoute). */
  get proxyRoute(): ProxyRoute {
    return this.route;
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
    return new Promise<void>((resolve, reject) => {
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
        callbacks.onData();
        splitter.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        splitter.end();
        finish();
      });
      res.on('error', (err) => finish(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err)));
      res.on('close', () => {
        if (!res.complete) finish(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the watch ended', 'ECONNRESET'));
      });
    });
  }

  dispose(): void {
    this.disposed = true;
    this.agent?.agent.destroy();
    this.agent = undefined;
    for (const a of this.retiredAgents.splice(0)) a.destroy();
    this.credentials.dispose();
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

  /**
   * Sends a GET and resolves with the response once its headers arrive. A 401 refreshes the
   * credentials (once per user, shared) and retries at once when they changed; a 401 with fresh
   * credentials is returned as it is (the caller reports `unauthorized`).
   */
  private async open(path: string, query: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
    if (this.disposed) throw new AbortedError('transport disposed');
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const url = new URL(this.base.toString());
    url.pathname = `${this.base.pathname.replace(/\/$/, '')}${path}`;
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, v);

    const used = await this.currentCredentials(signal);
    const res = await this.send(url, used, signal);
    if (res.statusCode !== 401) return res;
    const fresh = await this.refreshedCredentials(used, signal);
    if (fresh.generation <= used.generation) return res;
    res.resume();
    return this.send(url, fresh, signal);
  }

  /** The provider's credentials; failures become a TransportError coded ECREDENTIALS without secrets. */
  private async currentCredentials(signal: AbortSignal): Promise<Credentials> {
    try {
      return await this.credentials.get(signal);
    } catch (err) {
      throw credentialError(err, signal);
    }
  }

  private async refreshedCredentials(used: Credentials, signal: AbortSignal): Promise<Credentials> {
    try {
      return await this.credentials.refresh(used, signal);
    } catch (err) {
      throw credentialError(err, signal);
    }
  }

  private async send(url: URL, creds: Credentials, signal: AbortSignal): Promise<http.IncomingMessage> {
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const options: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json', ...creds.headers } };
    options.agent = await this.agentFor(creds);
    if (this.disposed) throw new AbortedError('transport disposed');
    if (signal.aborted) throw new AbortedError(abortReason(signal));
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
   * One keep-alive agent per TLS identity (`tlsKey`): a rotated client certificate gets a new
   * agent, so new connections present it while streams on the old one run to their end.
   * CONNECT proxies tunnel inside the agent; SOCKS keeps the library's proxy agent.
   */
  private async agentFor(creds: Credentials): Promise<http.Agent | undefined> {
    if (this.route.kind === 'library-agent') return this.libraryProxyAgent();
    if (this.agent?.tlsKey === creds.tlsKey) return this.agent.agent;
    if (this.agent) this.retiredAgents.push(this.agent.agent);
    const agent = this.base.protocol === 'http:' ? new http.Agent({ keepAlive: true }) : new https.Agent({ keepAlive: true, ...creds.tls });
    if (this.route.kind === 'connect') tunnelThrough(agent, this.route.proxy, this.base.protocol === 'https:');
    this.agent = { tlsKey: creds.tlsKey, agent };
    return agent;
  }

  private libraryAgent: http.Agent | undefined;

  /** client-node's SOCKS agent, from the configuration without exec (so the library never runs a plugin). */
  private async libraryProxyAgent(): Promise<http.Agent | undefined> {
    if (!this.libraryAgent) {
      const options: https.RequestOptions = { headers: {} };
      try {
        await withoutExec(this.kc).applyToHTTPSOptions(options);
      } catch (err) {
        throw new TransportError(credentialFailure(err), 'ECREDENTIALS');
      }
      this.libraryAgent = options.agent as http.Agent | undefined;
      if (this.libraryAgent) this.retiredAgents.push(this.libraryAgent);
    }
    return this.libraryAgent;
  }
}

/**
 * Makes `agent` open its connections through a CONNECT tunnel (Node's Agent accepts an
 * asynchronous createConnection with a callback). TLS to the server runs inside the tunnel.
 */
function tunnelThrough(agent: http.Agent, proxy: URL, secure: boolean): void {
  type Callback = (err: Error | null, socket?: Socket) => void;
  const target = agent as unknown as { createConnection: (options: tls.ConnectionOptions & { host?: string; port?: number }, cb: Callback) => undefined };
  target.createConnection = (options, cb) => {
    const ctl = new AbortController();
    openConnectTunnel(proxy, { host: String(options.host ?? 'localhost'), port: Number(options.port) }, ctl.signal).then(
      (socket) => {
        if (!secure) return cb(null, socket);
        const servername = options.servername ?? (isIpLiteral(String(options.host)) ? undefined : String(options.host));
        cb(null, tls.connect({ ...options, socket, servername }));
      },
      (err: Error) => cb(err),
    );
    return undefined;
  };
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

function credentialError(err: unknown, signal: AbortSignal): Error {
  if (err instanceof AbortedError || signal.aborted) return new AbortedError(abortReason(signal));
  if (err instanceof TransportError) return err;
  return new TransportError(credentialFailure(err), 'ECREDENTIALS');
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
