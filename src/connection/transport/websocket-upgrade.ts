import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as tls from 'node:tls';
import WebSocket from 'ws';
import { AbortedError, ApiError, TransportError, statusFromBody } from '../../base/api-error';
import type { Clock, TimerHandle } from '../../base/clock';
import { Emitter, type Disposable } from '../../base/disposable';
import type { UpgradedStream, UpgradeRequest } from '../../informer/transport';
import type { CredentialProvider, Credentials } from '../credentials/credentials';
import { DEFAULT_PING_TIMEOUT_MS, DEFAULT_READ_IDLE_MS, type HealthCheckTiming } from '../h2/session-health-check';
import { openConnectTunnel } from '../proxy/connect-tunnel';
import type { ProxyRoute } from '../proxy/proxy-route';
import type { ClusterReachability } from '../reachability/cluster-reachability';

/** What a transport lends its upgrades: where the server is, how to reach it, who we are. */
export interface UpgradeHost {
  readonly base: URL;
  readonly route: ProxyRoute;
  readonly credentials: CredentialProvider;
  readonly reachability: ClusterReachability;
  readonly clock: Clock;
  /** After read-idle without a read a socket is sent a PING, to be answered within the PING timeout (default client-go's 30 s and 15 s). */
  readonly health?: Partial<HealthCheckTiming>;
  readonly lookup?: net.LookupFunction;
  /** client-node's SOCKS agent (a `library-agent` route). */
  libraryAgent(): Promise<http.Agent | undefined>;
  /** Credential failures as the transport words them (never a secret). */
  credentialError(err: unknown, signal: AbortSignal): Error;
  /** The transport was disposed: no new upgrade starts. */
  readonly disposed: boolean;
}

/** Largest message accepted from the server (a port-forward chunk is at most 32 KiB on the kubelet). */
const MAX_PAYLOAD = 16 * 1024 * 1024;
/** How long the upgrade itself may take once the connection is open. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

/**
 * The WebSocket upgrades of one transport (port-forward and exec streams), each on a connection
 * of its own, as the kubelet's streaming protocol needs: the cluster's credentials (a 401
 * refreshes them once and retries), TLS identity, proxy route (CONNECT tunnels, SOCKS through
 * client-node's agent) and reachability. An open socket silent for the read-idle time gets a
 * PING and ends when none comes back in time; after a wake every socket is PINGed at once.
 * Invariant: `dispose()` ends every socket and timer it opened; `openCount` counts them.
 */
export class WebSocketUpgrades implements Disposable {
  private readonly open = new Set<OpenSocket>();
  private disposed = false;
  /** The last TLS session per TLS identity: each stream is a connection of its own, resumed rather than handshaken in full. */
  private readonly sessions = new Map<string, Buffer>();

  /** `hostOf` is asked at each upgrade (the transport's fields are set after this is built). */
  constructor(private readonly hostOf: () => UpgradeHost) {}

  private get host(): UpgradeHost {
    return this.hostOf();
  }

  get openCount(): number {
    return this.open.size;
  }

  async upgrade(request: UpgradeRequest, signal: AbortSignal): Promise<UpgradedStream> {
    if (this.disposed || this.host.disposed) throw new AbortedError('transport disposed');
    const used = await this.credentials(signal, undefined);
    try {
      return await this.attempt(request, used, signal);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 401) throw err;
      const fresh = await this.credentials(signal, used);
      if (fresh.generation <= used.generation) throw err;
      return this.attempt(request, fresh, signal);
    }
  }

  /** After a wake: every open socket must answer a PING within `deadlineMs`, or it ends. */
  verifyAll(deadlineMs: number): void {
    for (const s of this.open) s.probe(deadlineMs);
  }

  dispose(): void {
    this.disposed = true;
    for (const s of [...this.open]) s.destroy();
    this.open.clear();
    this.sessions.clear();
  }

  private async credentials(signal: AbortSignal, refreshAfter: Credentials | undefined): Promise<Credentials> {
    try {
      return refreshAfter ? await this.host.credentials.refresh(refreshAfter, signal) : await this.host.credentials.get(signal);
    } catch (err) {
      throw this.host.credentialError(err, signal);
    }
  }

  private async attempt(request: UpgradeRequest, creds: Credentials, signal: AbortSignal): Promise<UpgradedStream> {
    if (signal.aborted) throw new AbortedError(reasonOf(signal));
    const { host } = this;
    const url = new URL(host.base.toString());
    url.protocol = host.base.protocol === 'http:' ? 'ws:' : 'wss:';
    url.pathname = `${host.base.pathname.replace(/\/$/, '')}${request.path}`;
    for (const [k, v] of Object.entries(request.query)) for (const one of typeof v === 'string' ? [v] : v) url.searchParams.append(k, one);
    const agent = host.route.kind === 'library-agent' ? await host.libraryAgent() : undefined;
    const options: WebSocket.ClientOptions = {
      headers: { ...creds.headers },
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      maxPayload: MAX_PAYLOAD,
      perMessageDeflate: false,
      followRedirects: false,
      // An agent of its own even where a connector suffices: VS Code's extension host replaces
      // agent-less requests' agents (its proxy support), which would drop the cluster's CA.
      agent: agent ?? this.oneShotAgent(creds),
      ...(agent ? creds.tls : {}),
    };
    return new Promise<UpgradedStream>((resolve, reject) => {
      const ws = new WebSocket(url, [...request.protocols], options);
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
        reject(err);
      };
      const onAbort = () => fail(new AbortedError(reasonOf(signal)));
      signal.addEventListener('abort', onAbort, { once: true });
      ws.once('unexpected-response', (_req, res) => {
        if ((res.statusCode ?? 0) < 500) host.reachability.reportAnswer();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 64 * 1024) chunks.push(c);
          size += c.length;
        });
        res.on('error', () => undefined);
        res.once('end', () => {
          const retryAfter = res.headers['retry-after'];
          const code = res.statusCode ?? 0;
          fail(new ApiError(statusFromBody(Buffer.concat(chunks).toString('utf8'), code), 'http', code, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter));
        });
      });
      ws.once('error', (err: Error & { code?: string }) => {
        if (!signal.aborted) host.reachability.reportFailure();
        fail(signal.aborted ? new AbortedError(reasonOf(signal)) : new TransportError(err.message || err.code || 'the upgrade failed', err.code));
      });
      ws.once('open', () => {
        if (settled) return ws.terminate();
        settled = true;
        signal.removeEventListener('abort', onAbort);
        ws.removeAllListeners();
        host.reachability.reportAnswer();
        const timing = { readIdleMs: host.health?.readIdleMs ?? DEFAULT_READ_IDLE_MS, pingTimeoutMs: host.health?.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS };
        const socket = new OpenSocket(ws, host.clock, timing, () => this.open.delete(socket));
        if (this.disposed) socket.destroy();
        else this.open.add(socket);
        resolve(socket);
      });
    });
  }

  /** An agent for one upgrade whose connection is opened by `connector` (no keep-alive: the socket leaves with the upgrade). */
  private oneShotAgent(creds: Credentials): http.Agent {
    const agent = this.host.base.protocol === 'http:' ? new http.Agent({ keepAlive: false }) : new https.Agent({ keepAlive: false });
    (agent as unknown as { createConnection: unknown }).createConnection = this.connector(creds);
    return agent;
  }

  /**
   * How the upgrade's connection is opened (instead of an agent): TLS with the credentials'
   * identity, straight or through a CONNECT tunnel. Node's request accepts the callback form.
   */
  private connector(creds: Credentials): (options: tls.ConnectionOptions & { host?: string; port?: number | string }, cb: (err: Error | null, socket?: net.Socket) => void) => undefined {
    const { host } = this;
    const secure = host.base.protocol !== 'http:';
    return (options, cb) => {
      const target = { host: String(options.host ?? 'localhost'), port: Number(options.port) };
      const servername = creds.tls.servername ?? (net.isIP(target.host) ? undefined : target.host);
      const overTls = (socket?: net.Socket) => {
        const session = this.sessions.get(creds.tlsKey);
        const s = tls.connect({ ...creds.tls, host: target.host, port: target.port, servername, socket, lookup: host.lookup, ALPNProtocols: ['http/1.1'], ...(session ? { session } : {}) });
        s.once('session', (next: Buffer) => {
          if (this.sessions.size > 16) this.sessions.clear();
          this.sessions.set(creds.tlsKey, next);
        });
        return s;
      };
      if (host.route.kind === 'connect') {
        const ctl = new AbortController();
        openConnectTunnel(host.route.proxy, target, ctl.signal, { ca: creds.tls.ca, lookup: host.lookup }).then(
          (raw) => cb(null, secure ? overTls(raw) : raw),
          (err: Error) => cb(err),
        );
        return undefined;
      }
      cb(null, secure ? overTls() : net.connect({ host: target.host, port: target.port, lookup: host.lookup }));
      return undefined;
    };
  }
}

/** One open WebSocket with its health check: PING after read-idle, ended when unanswered. */
class OpenSocket implements UpgradedStream {
  private readonly messages = new Emitter<Buffer>();
  private readonly closes = new Emitter<Error | undefined>();
  private idle: TimerHandle | undefined;
  private deadline: TimerHandle | undefined;
  private ended = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly clock: Clock,
    private readonly timing: HealthCheckTiming,
    private readonly forget: () => void,
  ) {
    ws.binaryType = 'nodebuffer';
    ws.on('message', (data: Buffer) => {
      this.noteRead();
      this.messages.fire(data);
    });
    ws.on('pong', () => this.noteRead());
    ws.on('ping', () => this.noteRead());
    ws.on('error', (err: Error & { code?: string }) => this.end(new TransportError(err.message || 'the stream failed', err.code)));
    ws.on('close', (code: number, reason: Buffer) => this.end(code === 1000 || code === 1005 ? undefined : new TransportError(closeText(code, reason), 'ECONNRESET')));
    this.armIdle();
  }

  get protocol(): string {
    return this.ws.protocol;
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  send(data: Buffer, onWritten?: (err?: Error) => void): void {
    if (this.ended || this.ws.readyState !== WebSocket.OPEN) {
      onWritten?.(new TransportError('the stream is closed', 'EPIPE'));
      return;
    }
    this.ws.send(data, { binary: true }, onWritten);
  }

  onMessage(listener: (data: Buffer) => void): Disposable {
    return this.messages.on(listener);
  }

  onClose(listener: (error: Error | undefined) => void): Disposable {
    return this.closes.on(listener);
  }

  pause(): void {
    if (!this.ended) this.ws.pause();
  }

  resume(): void {
    if (!this.ended) this.ws.resume();
  }

  close(): void {
    if (this.ended) return;
    this.ws.close(1000);
    // A peer that never answers the close handshake must not hold the socket.
    const t = this.clock.setTimer(() => this.destroy(), this.timing.pingTimeoutMs);
    this.closes.on(() => t.cancel());
  }

  destroy(): void {
    this.ws.terminate();
    this.end(undefined);
  }

  /** PING now; no answer within `deadlineMs` ends the socket (a frozen middlebox, a wake). */
  probe(deadlineMs: number): void {
    if (this.ended || this.deadline) return;
    try {
      this.ws.ping();
    } catch {
      return this.end(new TransportError('the stream closed', 'ECONNRESET'));
    }
    this.deadline = this.clock.setTimer(() => {
      this.ws.terminate();
      this.end(new TransportError(`the connection did not answer a PING within ${Math.round(deadlineMs / 1000)} s`, 'ETIMEDOUT'));
    }, deadlineMs);
  }

  private noteRead(): void {
    this.deadline?.cancel();
    this.deadline = undefined;
    this.armIdle();
  }

  private armIdle(): void {
    this.idle?.cancel();
    if (this.ended) return;
    this.idle = this.clock.setTimer(() => this.probe(this.timing.pingTimeoutMs), this.timing.readIdleMs);
  }

  private end(error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.idle?.cancel();
    this.deadline?.cancel();
    this.forget();
    this.messages.dispose();
    this.closes.fire(error);
    this.closes.dispose();
  }
}

/** A close that was not clean, in words: 1006 is a connection cut without a close frame (a reset, a middlebox, a dead server). */
function closeText(code: number, reason: Buffer): string {
  if (code === 1006) return 'the connection was cut';
  return `the server closed the stream (code ${code}${reason.length ? `: ${reason.toString('utf8')}` : ''})`;
}

function reasonOf(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r.message;
  return typeof r === 'string' ? r : 'aborted';
}
