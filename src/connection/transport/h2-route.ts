import { createHash } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { AbortedError, TransportDisposedError, TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import type { Disposable } from '../../base/disposable';
import type { Credentials } from '../credentials/credentials';
import { H2Response, type HttpResponse } from '../h2/h2-response';
import { FALLBACK_HTTP1, H2SessionPool, type ConnectionEvent } from '../h2/h2-session-pool';
import { DEFAULT_PING_TIMEOUT_MS, DEFAULT_READ_IDLE_MS, type HealthCheckTiming } from '../h2/session-health-check';
import { openConnectTunnel } from '../proxy/connect-tunnel';
import type { ProxyRoute } from '../proxy/proxy-route';
import type { ClusterReachability } from '../reachability/cluster-reachability';
import type { ClusterLease } from '../registry/cluster-registry';
import { abortReason, isDeadline, toTransportError } from './body-readers';
import type { OutgoingWrite } from './write-request';

export interface H2RouteOptions {
  /** false: never HTTP/2. */
  http2?: boolean;
  healthCheck?: Partial<HealthCheckTiming>;
  lookup?: LookupFunction;
  clock: Clock;
  /** The PING deadline after a wake and on evidence against a connection (F24, F49). */
  shortPingTimeoutMs: number;
  /** The cluster's shared pools, when the transport has one. */
  lease?: ClusterLease;
  onConnectionEvent?(event: ConnectionEvent): void;
}

/**
 * The HTTP/2 route of a transport: its connections by TLS identity and proxy (a rotated client
 * certificate gets new ones), shared with the other contexts of the cluster through the lease,
 * and the cluster's protocol once known. Invariant: after `dispose()` the pools this route made
 * itself are disposed; shared ones belong to the cluster.
 */
export class H2Route {
  /** The HTTP/2 connections of this transport, by TLS identity (a rotated client certificate gets new ones). */
  private readonly pools = new Map<string, H2SessionPool>();
  private knownProtocol: 'h2' | 'http/1.1' | undefined;
  /** Pools this transport made itself (no shared cluster): it disposes them. */
  private readonly ownPools = new Set<H2SessionPool>();
  /** Own pools of an earlier TLS identity: their streams run to their end, then they dispose themselves. */
  private readonly retiredPools: H2SessionPool[] = [];
  private readonly poolSubscriptions: Disposable[] = [];

  constructor(
    base: URL,
    private readonly route: ProxyRoute,
    private readonly reachability: ClusterReachability,
    private readonly o: H2RouteOptions,
  ) {
    if (base.protocol === 'http:') this.knownProtocol = 'http/1.1';
  }

  /** 'h2' or 'http/1.1' once known (after the first connection). */
  get protocol(): 'h2' | 'http/1.1' | undefined {
    return this.knownProtocol;
  }

  /** Pools of an earlier TLS identity still carrying streams (tests). */
  get retiredPoolCount(): number {
    return this.retiredPools.filter((p) => !p.isDisposed).length;
  }

  /** Open HTTP/2 connections (tests and the bench). */
  get connectionCount(): number {
    let n = 0;
    for (const p of this.pools.values()) n += p.connectionCount;
    return n;
  }

  /**
   * After a wake: every connection is PINGed with the short deadline while a fresh one is opened
   * beside it; the watches resume on whichever answers first (F24).
   */
  raceAfterWake(): void {
    for (const pool of [...this.pools.values(), ...this.retiredPools]) void pool.raceAfterWake(this.o.shortPingTimeoutMs);
  }

  /**
   * The HTTP/2 pool for these credentials' TLS identity and this route, or undefined when
   * HTTP/1.1 is to be used (http servers, SOCKS proxies, servers without h2).
   */
  poolFor(url: URL, creds: Credentials): H2SessionPool | undefined {
    if (this.o.http2 === false || url.protocol !== 'https:' || this.route.kind === 'library-agent') return undefined;
    if (this.knownProtocol === 'http/1.1') return undefined;
    const route = this.route;
    // The proxy URL may carry credentials: only a digest of it goes into the key.
    const poolKey = route.kind === 'connect' ? `${creds.tlsKey}|${createHash('sha256').update(route.proxy.href).digest('hex').slice(0, 16)}` : creds.tlsKey;
    let pool = this.pools.get(poolKey);
    if (pool) return pool;
    const target = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443) };
    const create = () =>
      new H2SessionPool({
        origin: url.origin,
        tls: creds.tls,
        clock: this.o.clock,
        timing: { readIdleMs: this.o.healthCheck?.readIdleMs ?? DEFAULT_READ_IDLE_MS, pingTimeoutMs: this.o.healthCheck?.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS },
        lookup: this.o.lookup,
        openSocket: route.kind === 'connect' ? (signal) => openConnectTunnel(route.proxy, target, signal, { ca: creds.tls.ca, lookup: this.o.lookup }) : undefined,
      });
    // Shared with the other contexts of the cluster that present the same identity; else this transport's own.
    const shared = this.o.lease?.cluster.h2Pool(poolKey, create);
    pool = shared ?? create();
    if (!shared) this.ownPools.add(pool);
    // A rotated identity: new streams use the new pool; the old one's streams run to their end, then its
    // connections close as idle (own pools are disposed with the transport).
    for (const [key, old] of this.pools) {
      if (key === poolKey || !this.ownPools.has(old)) continue;
      old.retire();
      this.ownPools.delete(old);
      if (!old.isDisposed) this.retiredPools.push(old);
    }
    // Retired pools whose streams ended are gone.
    for (let i = this.retiredPools.length - 1; i >= 0; i--) if (this.retiredPools[i].isDisposed) this.retiredPools.splice(i, 1);
    this.pools.clear();
    this.pools.set(poolKey, pool);
    this.poolSubscriptions.push(
      pool.onConnectionEvent((e) => {
        if (e.type === 'protocol') this.knownProtocol = e.protocol;
        else if (e.type === 'dead') this.reachability.reportFailure();
        this.o.onConnectionEvent?.(e);
      }),
    );
    if (pool.protocol) this.knownProtocol = pool.protocol;
    return pool;
  }

  /** Sends the GET (or `write`, with its body) on an HTTP/2 stream; undefined when the server does not speak h2. */
  async send(pool: H2SessionPool, url: URL, requestHeaders: Record<string, string>, signal: AbortSignal, write?: OutgoingWrite): Promise<HttpResponse | undefined> {
    const headers: Record<string, string> = { ':method': write?.method ?? 'GET', ':path': `${url.pathname}${url.search}` };
    for (const [k, v] of Object.entries(requestHeaders)) {
      const name = k.toLowerCase();
      if (HOP_BY_HOP.has(name)) continue;
      headers[name] = v;
    }
    let stream;
    try {
      stream = await pool.request(headers, signal, write?.body);
    } catch (err) {
      if ((err as { code?: string }).code === 'EDISPOSED') throw new TransportDisposedError();
      if (!signal.aborted) this.reachability.reportFailure();
      throw signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err as Error);
    }
    if (stream === FALLBACK_HTTP1) return undefined;
    const opened = stream;
    // Evidence against the connection (F49): PING it at once with the short deadline.
    const suspect = () => {
      if (opened.session) pool.suspect(opened.session, this.o.shortPingTimeoutMs);
    };
    return new Promise<HttpResponse>((resolve, reject) => {
      const onAbort = () => {
        // No answer to the request within its deadline.
        if (isDeadline(signal.reason)) suspect();
        opened.destroy();
        reject(new AbortedError(abortReason(signal)));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      opened.once('response', (h) => {
        signal.removeEventListener('abort', onAbort);
        const res = new H2Response(opened, h, suspect);
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

  dispose(): void {
    for (const sub of this.poolSubscriptions.splice(0)) sub.dispose();
    for (const pool of [...this.ownPools, ...this.retiredPools]) pool.dispose();
    this.ownPools.clear();
    this.retiredPools.length = 0;
    this.pools.clear();
  }
}

/** Headers HTTP/2 forbids (RFC 9113 8.2.2). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);
