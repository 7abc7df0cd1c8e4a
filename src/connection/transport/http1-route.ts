import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import * as tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, TransportError } from '../../base/api-error';
import type { Credentials } from '../credentials/credentials';
import { withoutExec } from '../credentials/exec-credentials';
import { credentialFailure } from '../credentials/kubeconfig-credentials';
import type { HttpResponse } from '../h2/h2-response';
import { openConnectTunnel, type ProxyConnectOptions } from '../proxy/connect-tunnel';
import type { ProxyRoute } from '../proxy/proxy-route';
import type { ClusterReachability } from '../reachability/cluster-reachability';
import { abortReason, toTransportError } from './body-readers';
import type { OutgoingWrite } from './write-request';

/**
 * The HTTP/1.1 route of a transport: one keep-alive agent per TLS identity (`tlsKey`), so a
 * rotated client certificate gets a new agent and new connections present it while streams on
 * the old one run to their end. CONNECT proxies tunnel inside the agent; SOCKS keeps the
 * library's proxy agent. Invariant: after `dispose()` no agent (and so no socket) remains.
 */
export class Http1Route {
  /** The agent for the current TLS identity; earlier ones stay until dispose so their streams finish. */
  private agent: { tlsKey: string; agent: http.Agent } | undefined;
  private readonly retiredAgents: http.Agent[] = [];
  private libraryAgent: http.Agent | undefined;

  constructor(
    private readonly base: URL,
    private readonly route: ProxyRoute,
    private readonly kc: KubeConfig,
    private readonly reachability: ClusterReachability,
    private readonly lookup: LookupFunction | undefined,
    private readonly isDisposed: () => boolean,
  ) {}

  /** Sends the GET (or `write`, with its body) over HTTP/1.1; resolves once the response headers arrive. */
  async send(url: URL, headers: Record<string, string>, creds: Credentials, signal: AbortSignal, write?: OutgoingWrite): Promise<HttpResponse> {
    const options: https.RequestOptions = { method: write?.method ?? 'GET', headers };
    options.agent = await this.agentFor(creds);
    if (this.isDisposed()) throw new AbortedError('transport disposed');
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

  /** After a wake: HTTP/1.1 cannot probe a socket, so every connection is replaced. */
  replaceAll(): void {
    this.agent?.agent.destroy();
    this.agent = undefined;
    for (const a of this.retiredAgents.splice(0)) a.destroy();
  }

  dispose(): void {
    this.replaceAll();
  }

  private async agentFor(creds: Credentials): Promise<http.Agent | undefined> {
    if (this.route.kind === 'library-agent') return this.libraryProxyAgent();
    if (this.agent?.tlsKey === creds.tlsKey) return this.agent.agent;
    if (this.agent) this.retiredAgents.push(this.agent.agent);
    const lookup = this.lookup;
    const agent = this.base.protocol === 'http:' ? new http.Agent({ keepAlive: true, lookup }) : new https.Agent({ keepAlive: true, lookup, ...creds.tls });
    if (this.route.kind === 'connect') tunnelThrough(agent, this.route.proxy, this.base.protocol === 'https:', { ca: creds.tls.ca, lookup });
    this.agent = { tlsKey: creds.tlsKey, agent };
    return agent;
  }

  /** client-node's SOCKS agent, from the configuration without exec (so the library never runs a plugin). */
  /** client-node's SOCKS agent (also for the WebSocket upgrades of websocket-upgrade.ts). */
  async libraryProxyAgent(): Promise<http.Agent | undefined> {
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
