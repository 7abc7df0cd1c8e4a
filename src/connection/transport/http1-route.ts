import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import * as tls from 'node:tls';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { AbortedError, TransportDisposedError, TransportError } from '../../base/api-error';
import type { Credentials, TlsMaterial } from '../credentials/credentials';
import type { HttpResponse } from '../h2/h2-response';
import { openConnectTunnel, type ProxyConnectOptions } from '../proxy/connect-tunnel';
import type { ProxyRoute } from '../proxy/proxy-route';
import type { ClusterReachability } from '../reachability/cluster-reachability';
import { abortReason, toTransportError } from './body-readers';
import type { OutgoingWrite } from './write-request';

/**
 * The HTTP/1.1 route of a transport: one keep-alive agent per TLS identity (`tlsKey`), so a
 * rotated client certificate gets a new agent and new connections present it while streams on
 * the old one run to their end; the old agent is released as soon as they have. CONNECT proxies
 * tunnel inside the agent; SOCKS proxies through a SOCKS agent that presents the same TLS
 * identity (the client certificate included). Invariant: after `dispose()` no agent (and so no
 * socket) remains; before it, a retired agent lives only while it still carries a request.
 */
export class Http1Route {
  /** The agent for the current TLS identity; earlier ones stay until dispose so their streams finish. */
  private agent: { tlsKey: string; agent: http.Agent } | undefined;
  /** Agents of an earlier TLS identity whose requests still run. */
  private readonly retiredAgents = new Set<http.Agent>();
  /** The SOCKS agent of the WebSocket upgrades (websocket-upgrade.ts), which pass the TLS identity with each connection. */
  private upgradeAgent: http.Agent | undefined;
  /** How often every connection was replaced (after a wake): a stream cut by it retries at once. */
  private replacedTimes = 0;

  constructor(
    private readonly base: URL,
    private readonly route: ProxyRoute,
    private readonly reachability: ClusterReachability,
    private readonly lookup: LookupFunction | undefined,
    private readonly isDisposed: () => boolean,
  ) {}

  /** Sends the GET (or `write`, with its body) over HTTP/1.1; resolves once the response headers arrive. */
  async send(url: URL, headers: Record<string, string>, creds: Credentials, signal: AbortSignal, write?: OutgoingWrite): Promise<HttpResponse> {
    const options: https.RequestOptions = { method: write?.method ?? 'GET', headers };
    options.agent = await this.agentFor(creds);
    if (this.isDisposed()) throw new TransportDisposedError();
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
      req.end(write?.body);
    });
  }

  /**
   * A watch of this cluster was found half-open: no idle pooled socket can be trusted either
   * (a frozen middlebox looks the same on every one), so none is ever reused.
   */
  dropIdleSockets(): void {
    const free = this.agent?.agent.freeSockets;
    if (!free) return;
    for (const list of Object.values(free)) for (const socket of list ?? []) socket.destroy();
  }

  /** Counts `replaceAll()` calls: a response older than the last one lost its connection to it. */
  get replacements(): number {
    return this.replacedTimes;
  }

  /** After a wake: HTTP/1.1 cannot probe a socket, so every connection is replaced. */
  replaceAll(): void {
    this.replacedTimes++;
    this.dispose();
  }

  /** Agents of an earlier TLS identity still carrying requests. */
  get retiredCount(): number {
    return this.retiredAgents.size;
  }

  /**
   * The SOCKS agent for the WebSocket upgrades of websocket-upgrade.ts (undefined unless the
   * route is SOCKS): they give each connection the credentials' TLS identity themselves.
   */
  async libraryProxyAgent(): Promise<http.Agent | undefined> {
    if (this.route.kind !== 'library-agent') return undefined;
    this.upgradeAgent ??= this.socksAgent(this.route.proxy, {});
    return this.upgradeAgent;
  }

  dispose(): void {
    this.upgradeAgent?.destroy();
    this.upgradeAgent = undefined;
    this.agent?.agent.destroy();
    this.agent = undefined;
    for (const a of this.retiredAgents) a.destroy();
    this.retiredAgents.clear();
  }

  private async agentFor(creds: Credentials): Promise<http.Agent> {
    if (this.agent?.tlsKey === creds.tlsKey) return this.agent.agent;
    if (this.agent) this.retire(this.agent.agent);
    const lookup = this.lookup;
    const secure = this.base.protocol === 'https:';
    let agent: http.Agent;
    if (this.route.kind === 'library-agent') {
      agent = this.socksAgent(this.route.proxy, { keepAlive: true, ...(secure ? creds.tls : {}) });
    } else {
      agent = secure ? new https.Agent({ keepAlive: true, lookup, ...creds.tls }) : new http.Agent({ keepAlive: true, lookup });
      if (this.route.kind === 'connect') tunnelThrough(agent, this.route.proxy, secure, { ca: creds.tls.ca, lookup });
    }
    this.agent = { tlsKey: creds.tlsKey, agent };
    return agent;
  }

  private socksAgent(proxy: URL, options: http.AgentOptions & TlsMaterial): http.Agent {
    try {
      return new SocksProxyAgent(proxy, options);
    } catch {
      throw new TransportError('the SOCKS proxy URL cannot be used', 'EPROXY');
    }
  }

  /**
   * An agent of an earlier TLS identity: no new request uses it; its idle sockets close now, a
   * socket freed by a finished request closes too, and the agent is destroyed once none is left.
   */
  private retire(agent: http.Agent): void {
    this.retiredAgents.add(agent);
    const releaseIfIdle = () => {
      if (!this.retiredAgents.has(agent)) return;
      if (countSockets(agent.sockets) > 0 || countSockets(agent.requests) > 0) return;
      this.retiredAgents.delete(agent);
      agent.destroy();
    };
    agent.on('free', (socket: Socket) => {
      socket.destroy();
      releaseIfIdle();
    });
    for (const list of Object.values(agent.sockets)) for (const socket of list ?? []) socket.once('close', releaseIfIdle);
    for (const list of Object.values(agent.freeSockets)) for (const socket of list ?? []) socket.destroy();
    releaseIfIdle();
  }
}

function countSockets(map: NodeJS.ReadOnlyDict<unknown[]>): number {
  let n = 0;
  for (const list of Object.values(map)) n += list?.length ?? 0;
  return n;
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
