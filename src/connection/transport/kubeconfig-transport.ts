import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import * as tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import type { CredentialProvider, Credentials } from '../credentials/credentials';
import { createCredentialProvider } from '../credentials/credential-registry';
import { withoutExec } from '../credentials/exec-credentials';
import { credentialFailure } from '../credentials/kubeconfig-credentials';
import { openConnectTunnel, type ProxyConnectOptions } from '../proxy/connect-tunnel';
import { proxyRouteFor, type ProxyRoute } from '../proxy/proxy-route';
import { AbortedError, ApiError, TransportError, statusFromBody } from '../../base/api-error';
import { DEFAULT_MAX_MESSAGE_BYTES, LineSplitter, MessageTooLargeError } from '../wire/line-splitter';
import { ListStreamParser, ListTooLargeError } from '../wire/list-stream-parser';
import type { Disposable } from '../../base/disposable';
import { ClusterReachability } from '../reachability/cluster-reachability';
import { FALLBACK_HTTP1, H2SessionPool, type ConnectionEvent } from '../h2/h2-session-pool';
import { H2Response, type HttpResponse } from '../h2/h2-response';
import { DEFAULT_PING_TIMEOUT_MS, DEFAULT_READ_IDLE_MS, type HealthCheckTiming } from '../h2/session-health-check';
import { systemClock, type Clock, type TimerHandle } from '../../base/clock';
import { BookmarkCadence } from '../http1/bookmark-cadence';
import type { ClusterLease } from '../registry/cluster-registry';
import { parseEventWithoutManagedFields, parseListWithoutManagedFields, parseObjectWithoutManagedFields } from '../wire/managed-fields';
import type { KubeTransport, ListResponse, ParseHints, UpgradedStream, UpgradeRequest, WatchCallbacks } from '../../informer/transport';
import { WebSocketUpgrades } from './websocket-upgrade';

/**
 * A transport over `@kubernetes/client-node`'s KubeConfig: the library supplies the server and
 * TLS material; credentials come from a CredentialProvider (exec plugins through the project's
 * runner, refreshed once on 401); the route from the proxy rules (kubeconfig proxy-url, then
 * the environment as kubectl reads it). This class owns the requests, a keep-alive agent per
 * TLS identity, and their cancellation. The library's own Watch is not used: it aborts quiet
 * watches after 30 s and drops lines it cannot parse.
 */
export interface KubeConfigTransportOptions {
  /** The credentials of the context's user (a lease from a CredentialRegistry); disposed with the transport. Default: a provider of its own. */
  credentials?: CredentialProvider;
  /** The environment proxies are read from (HTTPS_PROXY, NO_PROXY, ...); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The editor's proxy (VS Code `http.proxy`), used where the environment names none. */
  editorProxy?: string;
  /** Resolves host names (of the server and of a proxy) instead of the system resolver, like Go's custom resolver. */
  lookup?: LookupFunction;
  /**
   * What this transport shares with the others of its cluster (reachability, wake), released
   * on dispose; default its own reachability and no wake signal.
   */
  lease?: ClusterLease;
  /** Bound on one watch line and on one response body; default 64 MiB. */
  maxMessageBytes?: number;
  /**
   * HTTP/2 for https servers that negotiate it (ALPN, HTTP/1.1 otherwise). Default true.
   * Through a CONNECT proxy too (TLS with ALPN inside the tunnel); SOCKS proxies use HTTP/1.1.
   */
  http2?: boolean;
  /** The HTTP/2 PING health check; default client-go's: read-idle 30 s, PING timeout 15 s. */
  healthCheck?: Partial<HealthCheckTiming>;
  /** The PING deadline when verifying connections after a wake; default 3 s. */
  wakePingTimeoutMs?: number;
  /** Timers of the health check; default the system clock. */
  clock?: Clock;
  /** The protocol of the cluster became known, or a connection was found dead (for the log). */
  onConnectionEvent?(event: ConnectionEvent): void;
}

/** How long a connection has to answer a PING after a wake before a fresh one is opened. */
export const WAKE_PING_TIMEOUT_MS = 3000;

export class KubeConfigTransport implements KubeTransport {
  readonly server: string;
  private readonly base: URL;
  private readonly credentials: CredentialProvider;
  private readonly route: ProxyRoute;
  /** The agent for the current TLS identity; earlier ones stay until dispose so their streams finish. */
  private agent: { tlsKey: string; agent: http.Agent } | undefined;
  private readonly retiredAgents: http.Agent[] = [];
  private disposed = false;
  private readonly reachability: ClusterReachability;
  private readonly lease: ClusterLease | undefined;
  private readonly maxMessageBytes: number;
  private readonly wakeSubscription: Disposable | undefined;
  private readonly options: KubeConfigTransportOptions;
  /** The HTTP/2 connections of this transport, by TLS identity (a rotated client certificate gets new ones). */
  private readonly h2Pools = new Map<string, H2SessionPool>();
  private knownProtocol: 'h2' | 'http/1.1' | undefined;
  /** Pools this transport made itself (no shared cluster): it disposes them. */
  private readonly ownPools = new Set<H2SessionPool>();
  /** Own pools of an earlier TLS identity: their streams run to their end; disposed with the transport. */
  private readonly retiredPools: H2SessionPool[] = [];
  private readonly poolSubscriptions: Disposable[] = [];
  /** The server's bookmark cadence on quiet watches, as seen on this transport's watches. */
  private readonly bookmarks = new BookmarkCadence();

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
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.options = options;
    if (base.protocol === 'http:') this.knownProtocol = 'http/1.1';
    this.lease = options.lease;
    this.reachability = options.lease?.cluster.reachability ?? new ClusterReachability();
    this.wakeSubscription = options.lease?.cluster.onWake(() => this.verifyConnections());
  }

  private readonly upgrades = new WebSocketUpgrades(() => ({ base: this.base, route: this.route, credentials: this.credentials, reachability: this.reachability, clock: this.options.clock ?? systemClock, health: this.options.healthCheck, lookup: this.options.lookup, libraryAgent: () => this.libraryProxyAgent(), credentialError, disposed: this.disposed }));
  upgrade = (request: UpgradeRequest, signal: AbortSignal): Promise<UpgradedStream> => this.upgrades.upgrade(request, signal);
  /** How requests reach the server (for logs and tooltips through describeProxyRoute). */
  get proxyRoute(): ProxyRoute {
    return this.route;
  }

  onReachable(listener: () => void): Disposable {
    return this.reachability.onReachable(listener);
  }

  /**
   * After a wake: HTTP/1.1 cannot probe a socket, so every connection is replaced. Streams on
   * them fail over through the normal path (re-watch from the last resourceVersion).
   */
  verifyConnections(): void {
    this.agent?.agent.destroy();
    this.agent = undefined;
    for (const a of this.retiredAgents.splice(0)) a.destroy();
    const deadline = this.options.wakePingTimeoutMs ?? WAKE_PING_TIMEOUT_MS;
    for (const pool of [...this.h2Pools.values(), ...this.retiredPools]) void pool.verifyAll(deadline);
    this.upgrades.verifyAll(deadline);
  }

  /** 'h2' or 'http/1.1' once known (after the first connection); for the tooltip, the inspect report and the log. */
  get protocol(): 'h2' | 'http/1.1' | undefined {
    return this.knownProtocol;
  }

  /** Open HTTP/2 connections (tests and the bench). */
  get h2ConnectionCount(): number {
    let n = 0;
    for (const p of this.h2Pools.values()) n += p.connectionCount;
    return n;
  }

  /**
   * Watches an HTTP/1.1 watch for silence against the cluster's bookmark cadence, and learns
   * the cadence from two bookmarks in a row with nothing between. `onSilent` runs once.
   */
  private watchSilenceGuard(onSilent: () => void): { noteData(): void; noteLine(parsed: unknown): void; dispose(): void } {
    const clock = this.options.clock ?? systemClock;
    let lastData = clock.now();
    let lastBookmark: number | undefined;
    let timer: TimerHandle | undefined;
    let done = false;
    const arm = () => {
      timer?.cancel();
      const limit = this.bookmarks.silenceLimitMs();
      if (limit === undefined || done) return;
      timer = clock.setTimer(() => {
        const limitNow = this.bookmarks.silenceLimitMs() ?? limit;
        if (clock.now() - lastData >= limitNow) {
          done = true;
          onSilent();
        } else arm();
      }, Math.max(1000, lastData + limit - clock.now()));
    };
    arm();
    return {
      noteData: () => {
        lastData = clock.now();
        if (!timer) arm();
      },
      noteLine: (parsed) => {
        const now = clock.now();
        if ((parsed as { type?: unknown } | undefined)?.type === 'BOOKMARK') {
          if (lastBookmark !== undefined) this.bookmarks.noteQuietGap(now - lastBookmark);
          lastBookmark = now;
          arm();
        } else lastBookmark = undefined;
      },
      dispose: () => {
        done = true;
        timer?.cancel();
      },
    };
  }

  /**
   * A watch of this cluster was found half-open: no idle pooled socket can be trusted either
   * (a frozen middlebox looks the same on every one), so none is ever reused.
   */
  private dropIdleSockets(): void {
    const free = this.agent?.agent.freeSockets;
    if (!free) return;
    for (const list of Object.values(free)) for (const socket of list ?? []) socket.destroy();
  }

  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal): Promise<T> {
    return this.requestJson(path, query, signal, (body) => JSON.parse(body.toString('utf8')) as T);
  }

  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    const parse = hints?.dropManagedFields ? parseListWithoutManagedFields : (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;
    return this.requestJson(path, query, signal, (body) => parse(body) as ListResponse);
  }

  async listStream(path: string, query: Record<string, string>, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse> {
    const res = await this.open(path, query, signal);
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) throw await errorFromResponse(res);
    const parseItem = hints?.dropManagedFields ? parseObjectWithoutManagedFields : parseLine;
    const parser = new ListStreamParser((buf, start, end) => onItem(parseItem(buf, start, end)));
    return new Promise<ListResponse>((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | undefined, value?: ListResponse) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        if (err) {
          res.destroy();
          reject(err);
        } else resolve(value!);
      };
      const onAbort = () => finish(new AbortedError(abortReason(signal)));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        try {
          parser.push(chunk);
        } catch (err) {
          if (err instanceof ListTooLargeError) finish(new TransportError(err.message, 'ETOOLARGE'));
          else finish(err instanceof SyntaxError ? new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON') : (err as Error));
        }
      });
      res.on('end', () => {
        if (settled) return;
        try {
          const list = JSON.parse(parser.end()) as ListResponse;
          finish(undefined, list);
        } catch {
          finish(new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON'));
        }
      });
      res.on('error', (err) => finish(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err)));
      res.on('close', () => {
        if (!res.complete) finish(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the response ended', 'ECONNRESET'));
      });
    });
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
        silence?.noteLine(parsed);
        callbacks.onLine(parsed, () => buf.toString('utf8', start, end));
      }, this.maxMessageBytes);
      let settled = false;
      // HTTP/1.1 has no PING: where the server's bookmark cadence is known, silence well past it is a dead connection.
      const silence = res instanceof H2Response ? undefined : this.watchSilenceGuard(() => {
        res.destroy();
        this.reachability.reportFailure();
        this.dropIdleSockets();
        finish(new TransportError(`no bookmark for ${Math.round((this.bookmarks.silenceLimitMs() ?? 0) / 1000)} s although the server sends one every ${Math.round((this.bookmarks.interval ?? 0) / 1000)} s: the connection looks half-open`, 'ETIMEDOUT'));
      });
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        silence?.dispose();
        signal.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const onAbort = () => {
        res.destroy();
        if (isDeadline(signal.reason)) {
          this.reachability.reportFailure();
          this.dropIdleSockets();
        }
        finish(new AbortedError(abortReason(signal)));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        silence?.noteData();
        callbacks.onData();
        try {
          splitter.push(chunk);
        } catch (err) {
          if (!(err instanceof MessageTooLargeError)) throw err;
          res.destroy();
          finish(err);
        }
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

  async stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    const res = await this.open(path, query, signal);
    if (res.statusCode !== 200) throw await errorFromResponse(res);
    onOpen?.();
    return pumpBody(res, signal, 'stream', onChunk, () => undefined);
  }

  dispose(): void {
    this.disposed = true;
    this.upgrades.dispose();
    this.wakeSubscription?.dispose();
    if (this.lease) this.lease.dispose();
    else this.reachability.dispose();
    this.agent?.agent.destroy();
    this.agent = undefined;
    for (const a of this.retiredAgents.splice(0)) a.destroy();
    for (const sub of this.poolSubscriptions.splice(0)) sub.dispose();
    for (const pool of this.ownPools) pool.dispose();
    this.ownPools.clear();
    this.retiredPools.length = 0;
    this.h2Pools.clear();
    this.credentials.dispose();
  }

  /** A GET whose 2xx body is parsed by `parse`; a body that is not JSON is a TransportError. */
  private async requestJson<T>(path: string, query: Record<string, string>, signal: AbortSignal, parse: (body: Buffer) => T): Promise<T> {
    const res = await this.open(path, query, signal);
    const body = await readBody(res, signal, this.maxMessageBytes);
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
  private async open(path: string, query: Record<string, string>, signal: AbortSignal): Promise<HttpResponse> {
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

  private async send(url: URL, creds: Credentials, signal: AbortSignal): Promise<HttpResponse> {
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const headers: Record<string, string> = { Accept: 'application/json', ...creds.headers };
    const pool = this.h2PoolFor(url, creds);
    if (pool) {
      const res = await this.openH2(pool, url, headers, signal);
      if (res) return res;
    }
    const options: https.RequestOptions = { method: 'GET', headers };
    options.agent = await this.agentFor(creds);
    if (this.disposed) throw new AbortedError('transport disposed');
    if (signal.aborted) throw new AbortedError(abortReason(signal));
    const mod = url.protocol === 'http:' ? http : https;

    return new Promise<HttpResponse>((resolve, reject) => {
      const req = mod.request(url, options, (res) => {
        signal.removeEventListener('abort', onAbort);
        if ((res.statusCode ?? 0) < 500) this.reachability.reportAnswer();
        resolve(res);
      });
      const onAbort = () => {
        req.destroy();
        reject(new AbortedError(abortReason(signal)));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) this.reachability.reportFailure();
        reject(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err));
      });
      req.end();
    });
  }

  /**
   * The HTTP/2 pool for these credentials' TLS identity and this route, or undefined when
   * HTTP/1.1 is to be used (http servers, SOCKS proxies, servers without h2).
   */
  private h2PoolFor(url: URL, creds: Credentials): H2SessionPool | undefined {
    if (this.options.http2 === false || url.protocol !== 'https:' || this.route.kind === 'library-agent') return undefined;
    if (this.knownProtocol === 'http/1.1') return undefined;
    const route = this.route;
    // The proxy URL may carry credentials: only a digest of it goes into the key.
    const poolKey = route.kind === 'connect' ? `${creds.tlsKey}|${createHash('sha256').update(route.proxy.href).digest('hex').slice(0, 16)}` : creds.tlsKey;
    let pool = this.h2Pools.get(poolKey);
    if (pool) return pool;
    const target = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443) };
    const create = () =>
      new H2SessionPool({
        origin: url.origin,
        tls: creds.tls,
        clock: this.options.clock ?? systemClock,
        timing: { readIdleMs: this.options.healthCheck?.readIdleMs ?? DEFAULT_READ_IDLE_MS, pingTimeoutMs: this.options.healthCheck?.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS },
        lookup: this.options.lookup,
        openSocket: route.kind === 'connect' ? (signal) => openConnectTunnel(route.proxy, target, signal, { ca: creds.tls.ca, lookup: this.options.lookup }) : undefined,
      });
    // Shared with the other contexts of the cluster that present the same identity; else this transport's own.
    const shared = this.lease?.cluster.h2Pool(poolKey, create);
    pool = shared ?? create();
    if (!shared) this.ownPools.add(pool);
    // A rotated identity: new streams use the new pool; the old one's streams run to their end, then its
    // connections close as idle (own pools are disposed with the transport).
    for (const [key, old] of this.h2Pools) if (key !== poolKey && this.ownPools.has(old)) this.retiredPools.push(old);
    this.h2Pools.clear();
    this.h2Pools.set(poolKey, pool);
    this.poolSubscriptions.push(
      pool.onConnectionEvent((e) => {
        if (e.type === 'protocol') this.knownProtocol = e.protocol;
        else this.reachability.reportFailure();
        this.options.onConnectionEvent?.(e);
      }),
    );
    if (pool.protocol) this.knownProtocol = pool.protocol;
    return pool;
  }

  /** Sends the GET on an HTTP/2 stream; undefined when the server does not speak h2. */
  private async openH2(pool: H2SessionPool, url: URL, requestHeaders: Record<string, string>, signal: AbortSignal): Promise<HttpResponse | undefined> {
    const headers: Record<string, string> = { ':method': 'GET', ':path': `${url.pathname}${url.search}` };
    for (const [k, v] of Object.entries(requestHeaders)) {
      const name = k.toLowerCase();
      if (HOP_BY_HOP.has(name)) continue;
      headers[name] = v;
    }
    let stream;
    try {
      stream = await pool.request(headers, signal);
    } catch (err) {
      if (!signal.aborted) this.reachability.reportFailure();
      throw signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err as Error);
    }
    if (stream === FALLBACK_HTTP1) return undefined;
    const opened = stream;
    return new Promise<HttpResponse>((resolve, reject) => {
      const onAbort = () => {
        opened.destroy();
        reject(new AbortedError(abortReason(signal)));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      opened.once('response', (h) => {
        signal.removeEventListener('abort', onAbort);
        const res = new H2Response(opened, h);
        if ((res.statusCode ?? 0) < 500) this.reachability.reportAnswer();
        resolve(res);
      });
      opened.once('error', (err) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) this.reachability.reportFailure();
        reject(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err));
      });
      opened.once('close', () => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the response', 'ECONNRESET'));
      });
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
    const lookup = this.options.lookup;
    const agent = this.base.protocol === 'http:' ? new http.Agent({ keepAlive: true, lookup }) : new https.Agent({ keepAlive: true, lookup, ...creds.tls });
    if (this.route.kind === 'connect') tunnelThrough(agent, this.route.proxy, this.base.protocol === 'https:', { ca: creds.tls.ca, lookup });
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
function tunnelThrough(agent: http.Agent, proxy: URL, secure: boolean, proxyOptions: ProxyConnectOptions): void {
  type Callback = (err: Error | null, socket?: Socket) => void;
  const target = agent as unknown as { createConnection: (options: tls.ConnectionOptions & { host?: string; port?: number }, cb: Callback) => undefined };
  target.createConnection = (options, cb) => {
    const ctl = new AbortController();
    openConnectTunnel(proxy, { host: String(options.host ?? 'localhost'), port: Number(options.port) }, ctl.signal, proxyOptions).then(
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

/** Headers HTTP/2 forbids (RFC 9113 8.2.2). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

/** The engine aborts a watch it found silent (half-open) or unanswered with a DeadlineError. */
function isDeadline(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'DeadlineError';
}

function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r.message;
  return typeof r === 'string' ? r : 'aborted';
}

function parseLine(buf: Buffer, start: number, end: number): unknown {
  return JSON.parse(buf.toString('utf8', start, end));
}

/** The whole body; one longer than `maxBytes` rejects with MessageTooLargeError. */
function readBody(res: HttpResponse, signal: AbortSignal, maxBytes = DEFAULT_MAX_MESSAGE_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      res.destroy();
      reject(new AbortedError(abortReason(signal)));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    let tooLarge = false;
    res.on('data', (c: Buffer) => {
      if (tooLarge) return;
      if (size + c.length > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        signal.removeEventListener('abort', onAbort);
        res.destroy();
        reject(new MessageTooLargeError('body', maxBytes));
        return;
      }
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

function apiErrorFrom(body: string, res: HttpResponse): ApiError {
  const code = res.statusCode ?? 0;
  const retryAfter = res.headers['retry-after'];
  return new ApiError(statusFromBody(body, code), 'http', code, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
}

async function errorFromResponse(res: HttpResponse): Promise<Error> {
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
 * Feeds a streaming response body to `onChunk` until it ends (resolves after `onEnd`), fails
 * (TransportError) or `signal` fires (AbortedError, the response destroyed). Settles once.
 */
function pumpBody(res: HttpResponse, signal: AbortSignal, what: string, onChunk: (chunk: Buffer) => void, onEnd: () => void): Promise<void> {
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
