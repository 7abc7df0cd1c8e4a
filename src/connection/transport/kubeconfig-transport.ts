import type { LookupFunction } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import type { CredentialProvider } from '../credentials/credentials';
import { createCredentialProvider } from '../credentials/credential-registry';
import { proxyRouteFor, type ProxyRoute } from '../proxy/proxy-route';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../wire/line-splitter';
import type { Disposable } from '../../base/disposable';
import { ClusterReachability } from '../reachability/cluster-reachability';
import { handshakeProbe, handshakeTargetOf } from '../reachability/handshake-probe';
import type { ConnectionEvent } from '../h2/h2-session-pool';
import type { HealthCheckTiming } from '../h2/session-health-check';
import { systemClock, type Clock } from '../../base/clock';
import type { ClusterLease } from '../registry/cluster-registry';
import type { KubeTransport, ListResponse, ParseHints, ReadOptions, UpgradedStream, UpgradeRequest, WatchCallbacks } from '../../informer/transport';
import { ApiCalls } from './api-calls';
import { H2Route } from './h2-route';
import { Http1Route } from './http1-route';
import { credentialError, RequestOpener } from './request';
import { WebSocketUpgrades } from './websocket-upgrade';
import { sendWrite, type WriteRequest } from './write-request';

/** How a KubeConfigTransport connects; every option has a default. */
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
  /** The HTTP/2 PING health check; default read-idle 15 s, PING timeout 10 s (below client-go's 30 s and 15 s). */
  healthCheck?: Partial<HealthCheckTiming>;
  /** The PING deadline after a wake and on evidence against a connection (F24, F49); default 3 s. */
  wakePingTimeoutMs?: number;
  /** Timers of the health check; default the system clock. */
  clock?: Clock;
  /** The protocol of the cluster became known, or a connection was found dead (for the log). */
  onConnectionEvent?(event: ConnectionEvent): void;
}

/** How long a connection has to answer a PING after a wake, or on evidence against it (F49), before it is replaced. */
export const WAKE_PING_TIMEOUT_MS = 3000;

/**
 * A transport over `@kubernetes/client-node`'s KubeConfig: the library supplies the server and
 * TLS material; credentials come from a CredentialProvider (exec plugins through the project's
 * runner, refreshed once on 401); the route from the proxy rules (kubeconfig proxy-url, then
 * the environment as kubectl reads it). This class is the facade over the parts,
 * each in its own file: one request with its 401 (request.ts), the HTTP/2 route (h2-route.ts),
 * the HTTP/1.1 agents with the CONNECT tunnel (http1-route.ts) and the silence guard
 * (http1-silence-guard.ts), the API calls (api-calls.ts) and the body readers (body-readers.ts). The library's own Watch is not used: it aborts quiet
 * watches after 30 s and drops lines it cannot parse.
 */
export class KubeConfigTransport implements KubeTransport {
  readonly server: string;
  private readonly credentials: CredentialProvider;
  private readonly route: ProxyRoute;
  private disposed = false;
  private readonly reachability: ClusterReachability;
  private readonly lease: ClusterLease | undefined;
  private readonly wakeSubscription: Disposable | undefined;
  /** This transport's handshake probe, offered to the cluster's reachability (F50). */
  private readonly probeOffer: Disposable;
  private readonly options: KubeConfigTransportOptions;
  private readonly h2: H2Route;
  private readonly http1: Http1Route;
  /** One request, with its credentials and its 401 (also for what is added beside the API calls). */
  protected readonly requests: RequestOpener;
  private readonly calls: ApiCalls;
  /** Port-forward and exec streams (websocket-upgrade.ts): these credentials, route, reachability and wake. */
  private readonly upgrades: WebSocketUpgrades;

  constructor(kc: KubeConfig, options: KubeConfigTransportOptions = {}) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    if (!cluster.server) throw new Error(`cluster "${cluster.name}" has no server address`);
    let base: URL;
    try {
      base = new URL(cluster.server);
    } catch {
      throw new Error(`cluster "${cluster.name}" has an invalid server address`);
    }
    this.server = `${base.protocol}//${base.host}${base.pathname === '/' ? '' : base.pathname}`;
    this.route = proxyRouteFor(base, { kubeconfigProxyUrl: cluster.proxyUrl, env: options.env ?? process.env, editorProxy: options.editorProxy });
    this.credentials = options.credentials ?? createCredentialProvider(kc);
    this.options = options;
    this.lease = options.lease;
    this.reachability = options.lease?.cluster.reachability ?? new ClusterReachability();
    const clock = options.clock ?? systemClock;
    const isDisposed = () => this.disposed;
    this.h2 = new H2Route(base, this.route, this.reachability, {
      http2: options.http2,
      healthCheck: options.healthCheck,
      lookup: options.lookup,
      clock,
      shortPingTimeoutMs: options.wakePingTimeoutMs ?? WAKE_PING_TIMEOUT_MS,
      lease: options.lease,
      onConnectionEvent: (e) => this.options.onConnectionEvent?.(e),
    });
    this.http1 = new Http1Route(base, this.route, this.reachability, options.lookup, isDisposed);
    this.requests = new RequestOpener(base, this.credentials, this.h2, this.http1, isDisposed);
    this.calls = new ApiCalls(this.requests, this.http1, this.reachability, clock, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    this.upgrades = new WebSocketUpgrades(() => ({ base, route: this.route, credentials: this.credentials, reachability: this.reachability, clock, health: options.healthCheck, lookup: options.lookup, libraryAgent: () => this.http1.libraryProxyAgent(), credentialError, disposed: this.disposed }));
    this.wakeSubscription = options.lease?.cluster.onWake(() => this.verifyConnections());
    this.probeOffer = this.reachability.attachProbe(handshakeProbe(handshakeTargetOf(kc, base, this.route, options.lookup)), clock);
  }

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
    this.http1.replaceAll();
    this.h2.raceAfterWake();
    this.upgrades.verifyAll(this.options.wakePingTimeoutMs ?? WAKE_PING_TIMEOUT_MS);
  }

  /** 'h2' or 'http/1.1' once known (after the first connection); for the tooltip, the inspect report and the log. */
  get protocol(): 'h2' | 'http/1.1' | undefined {
    return this.h2.protocol;
  }

  /** Open HTTP/2 connections (tests and the bench). */
  get h2ConnectionCount(): number {
    return this.h2.connectionCount;
  }

  /** Agents and HTTP/2 pools of an earlier TLS identity still carrying requests (tests). */
  get retiredConnectionSets(): number {
    return this.http1.retiredCount + this.h2.retiredPoolCount;
  }

  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal, options?: ReadOptions): Promise<T> {
    return this.calls.getJson<T>(path, query, signal, options);
  }

  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    return this.calls.list(path, query, signal, hints);
  }

  listStream(path: string, query: Record<string, string>, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse> {
    return this.calls.listStream(path, query, signal, onItem, hints);
  }

  watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void> {
    return this.calls.watch(path, query, signal, callbacks, hints);
  }

  stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    return this.calls.stream(path, query, signal, onChunk, onOpen);
  }

  /** A write (write-request.ts): sent once, on the same route and credentials as the reads, with a deadline. */
  write<T = unknown>(request: WriteRequest, signal: AbortSignal): Promise<T> {
    return sendWrite<T>((path, query, s, out) => this.requests.open(path, query, s, out), request, signal, this.options.clock ?? systemClock, this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  /** A WebSocket upgrade (port-forward, exec) on this cluster's credentials, route and reachability. */
  upgrade(request: UpgradeRequest, signal: AbortSignal): Promise<UpgradedStream> {
    return this.upgrades.upgrade(request, signal);
  }

  dispose(): void {
    this.disposed = true;
    this.upgrades.dispose();
    this.wakeSubscription?.dispose();
    this.probeOffer.dispose();
    if (this.lease) this.lease.dispose();
    else this.reachability.dispose();
    this.http1.dispose();
    this.h2.dispose();
    this.credentials.dispose();
  }
}
