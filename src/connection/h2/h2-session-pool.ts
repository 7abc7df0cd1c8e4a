import * as http2 from 'node:http2';
import type { LookupFunction, Socket } from 'node:net';
import * as tls from 'node:tls';
import type { Clock, TimerHandle } from '../../base/clock';
import { Emitter, type Disposable } from '../../base/disposable';
import type { TlsMaterial } from '../credentials/credentials';
import { CONNECTION_REPLACED } from '../../informer/transport';
import { SessionHealthCheck, type HealthCheckTiming } from './session-health-check';

/** Flow-control windows large enough that a big list is not throttled (Go uses megabytes). */
export const STREAM_WINDOW_BYTES = 4 * 1024 * 1024;
export const SESSION_WINDOW_BYTES = 16 * 1024 * 1024;

/** A connection without streams for this long is closed (Go closes idle connections after 90 s). */
export const IDLE_CLOSE_MS = 30_000;

/** The code of a connection attempt a request gave up on (its other waiters try again). */
const ABANDONED = 'EABANDONED';

/** What a server without h2 (or a proxy in the way) makes a pool answer: use HTTP/1.1. */
export const FALLBACK_HTTP1 = 'http/1.1';

export interface H2PoolOptions {
  /** https://host:port of the cluster. */
  origin: string;
  tls: TlsMaterial;
  clock: Clock;
  timing: HealthCheckTiming;
  /** Resolves the origin's host name; default the system resolver. */
  lookup?: LookupFunction;
  /**
   * Opens the raw connection TLS runs over (a CONNECT tunnel through a proxy); default a TCP
   * connection to the origin. The signal fires when the pool is disposed meanwhile.
   */
  openSocket?: (signal: AbortSignal) => Promise<Socket>;
}

/**
 * The protocol of the cluster was settled, a connection was found dead (for the log and
 * reachability), or one was replaced by a fresh connection after a wake (the network is there).
 */
export type ConnectionEvent = { type: 'protocol'; protocol: 'h2' | 'http/1.1' } | { type: 'dead'; reason: string } | { type: 'replaced'; reason: string };



/** One HTTP/2 connection of the pool and the streams it carries. */
class PooledSession {
  active = 0;
  idleTimer: TimerHandle | undefined;
  /** GOAWAY received or closing: carries what runs, takes no new stream. */
  draining = false;
  /** Racing a fresh connection after a wake: takes no new stream until its PING answers. */
  suspect = false;
  constructor(
    readonly session: http2.ClientHttp2Session,
    readonly health: SessionHealthCheck,
  ) {}

  get maxStreams(): number {
    return this.session.remoteSettings.maxConcurrentStreams ?? 100;
  }

  get usable(): boolean {
    return !this.draining && !this.session.closed && !this.session.destroyed;
  }
}

/**
 * The HTTP/2 connections of one cluster and TLS identity. A stream goes on a connection with a
 * free slot under the server's SETTINGS_MAX_CONCURRENT_STREAMS; when none has one, another
 * connection is opened, so no stream ever waits in a queue and there are no more connections
 * than the streams need. Each connection has a PING health check; a dead one is destroyed and
 * its streams fail over. After GOAWAY a connection finishes what runs and new streams go to the
 * next one. A stream that gives evidence against its connection (it outlived its timeout, a
 * request on it timed out) has the connection PINGed at once (`suspect`, F49); after a wake a
 * fresh connection races the PINGs of the old ones (`raceAfterWake`, F24).
 * Invariant: after `dispose()` no connection, socket or timer remains.
 */
export class H2SessionPool implements Disposable {
  private readonly sessions: PooledSession[] = [];
  private connecting: Promise<PooledSession | typeof FALLBACK_HTTP1> | undefined;
  /** Aborts the connection being opened (tunnel, TLS, HTTP/2 handshake): a waiting request gave up, or dispose. */
  private connectAttempt: AbortController | undefined;
  /** Requests waiting for the connection being opened. */
  private connectWaiters = 0;
  private fallback = false;
  private disposed = false;
  /** Of an earlier TLS identity: no new stream; disposed once the last one ends. */
  private retired = false;
  private readonly events = new Emitter<ConnectionEvent>();

  constructor(private readonly o: H2PoolOptions) {}

  /** Every transport using the pool hears of its protocol and of dead connections. */
  onConnectionEvent(listener: (event: ConnectionEvent) => void): Disposable {
    return this.events.on(listener);
  }

  /** 'h2', 'http/1.1' once the server declined h2, undefined before the first connection. */
  get protocol(): 'h2' | 'http/1.1' | undefined {
    if (this.fallback) return 'http/1.1';
    return this.sessions.length > 0 ? 'h2' : undefined;
  }

  /** Open connections (for tests and the bench). */
  get connectionCount(): number {
    return this.sessions.length;
  }

  /**
   * Opens a stream for a GET (or a write with its `body`), or answers FALLBACK_HTTP1 when the
   * server does not speak h2. The stream's slot is freed when it closes.
   */
  async request(headers: http2.OutgoingHttpHeaders, signal?: AbortSignal, body?: Buffer): Promise<http2.ClientHttp2Stream | typeof FALLBACK_HTTP1> {
    for (;;) {
      if (this.disposed) throw Object.assign(new Error('transport disposed'), { code: 'EDISPOSED' });
      if (this.fallback) return FALLBACK_HTTP1;
      const free = this.sessions.find((s) => s.usable && !s.suspect && s.active < s.maxStreams);
      if (free) return this.open(free, headers, body);
      let made;
      try {
        made = await this.awaitConnecting(this.connectShared(), signal);
      } catch (err) {
        // Another request gave up on that attempt: this one, still wanted, tries a fresh connection.
        if ((err as { code?: string }).code === ABANDONED && !signal?.aborted && !this.disposed) continue;
        throw err;
      }
      if (made === FALLBACK_HTTP1) return FALLBACK_HTTP1;
    }
  }

  /**
   * Waits for the connection being opened. A request that gives up (its deadline, a stop) takes
   * the attempt down with it: a handshake that has not finished by then is not trusted (a frozen
   * middlebox), and the next request opens a fresh connection.
   */
  private awaitConnecting<T>(connecting: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    this.connectWaiters++;
    let waiting = true;
    const done = () => {
      if (waiting) this.connectWaiters--;
      waiting = false;
    };
    if (!signal) return connecting.finally(done);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        done();
        this.connectAttempt?.abort();
        // New requests do not wait for the abandoned attempt to finish closing.
        this.connecting = undefined;
        reject(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      connecting.then(
        (v) => {
          done();
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (err: unknown) => {
          done();
          signal.removeEventListener('abort', onAbort);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /**
   * After a wake (F24): every connection is PINGed with `deadlineMs` and, at once, a fresh
   * connection is opened beside them; new streams wait for whichever answers first. A connection
   * whose PING has not answered when the fresh one is ready is replaced: its streams fail with
   * CONNECTION_REPLACED and their owners retry at once, on the fresh connection. One that answers
   * first is kept (the fresh one then closes unused). Without network, the PING deadline decides.
   */
  async raceAfterWake(deadlineMs: number): Promise<void> {
    if (this.disposed || this.fallback) return;
    // Draining connections (GOAWAY, a retired identity) take no new stream: only checked.
    for (const s of this.sessions) if (!s.usable && !s.session.destroyed) void s.health.verify(deadlineMs);
    const old = this.sessions.filter((s) => s.usable);
    if (old.length === 0 || this.retired) return;
    const unanswered = new Set(old);
    const ownAttempt = !this.connecting;
    const opening = this.connectShared();
    const attempt = this.connectAttempt;
    const answers = old.map((s) => {
      s.suspect = true;
      return s.health.verify(deadlineMs).then((ok) => {
        unanswered.delete(s);
        s.suspect = false;
        return ok;
      });
    });
    // Every old connection answered before the fresh one was ready: it is not needed, unless a
    // request waits for it meanwhile.
    void Promise.all(answers).then((oks) => {
      if (oks.every(Boolean) && ownAttempt && this.connecting === opening && this.connectWaiters === 0) attempt?.abort();
    });
    let fresh;
    try {
      fresh = await opening;
    } catch {
      return; // no fresh connection: the PINGs decide
    }
    if (fresh === FALLBACK_HTTP1) return;
    for (const s of unanswered) {
      s.draining = true;
      s.suspect = false;
      const reason = 'it did not answer a PING after the wake before a fresh connection was ready';
      this.events.fire({ type: 'replaced', reason });
      s.session.destroy(Object.assign(new Error(`the connection was replaced: ${reason}`), { code: CONNECTION_REPLACED }));
    }
    this.tidy(fresh);
  }

  /**
   * A stream gave evidence against the connection `session` (it outlived its timeout, a request
   * on it timed out): PING it at once with `deadlineMs`; no answer and it is destroyed (F49).
   */
  suspect(session: http2.Http2Session, deadlineMs: number): void {
    const s = this.sessions.find((x) => x.session === session);
    if (s && s.usable) void s.health.verify(deadlineMs);
  }

  /**
   * The pool of an earlier TLS identity (a rotated client certificate): it takes no new stream,
   * and is disposed (connections, timers) as soon as the streams it carries have ended.
   */
  retire(): void {
    this.retired = true;
    for (const s of this.sessions) {
      s.draining = true;
      this.tidy(s);
    }
    this.disposeIfRetiredAndIdle();
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    this.disposed = true;
    this.connectAttempt?.abort();
    this.events.dispose();
    for (const s of this.sessions.splice(0)) {
      s.health.dispose();
      s.idleTimer?.cancel();
      s.session.destroy();
    }
  }

  /** The connection being opened, shared by every request (and a wake race) that waits for one. */
  private connectShared(): Promise<PooledSession | typeof FALLBACK_HTTP1> {
    if (!this.connecting) {
      const attempt: Promise<PooledSession | typeof FALLBACK_HTTP1> = this.connect().finally(() => {
        if (this.connecting === attempt) this.connecting = undefined;
      });
      this.connecting = attempt;
    }
    return this.connecting;
  }

  /** Opens a stream and sends `body` (a write's), or ends the request side at once (a GET). */
  private open(s: PooledSession, headers: http2.OutgoingHttpHeaders, body?: Buffer): http2.ClientHttp2Stream {
    const stream = s.session.request(headers, { endStream: body === undefined });
    if (body !== undefined) stream.end(body);
    s.active++;
    s.idleTimer?.cancel();
    s.idleTimer = undefined;
    stream.on('response', () => s.health.noteRead());
    stream.on('data', () => s.health.noteRead());
    stream.once('close', () => {
      s.active--;
      this.tidy(s);
      this.disposeIfRetiredAndIdle();
    });
    return stream;
  }

  private disposeIfRetiredAndIdle(): void {
    if (this.retired && !this.disposed && this.sessions.every((x) => x.active === 0)) this.dispose();
  }

  /**
   * A connection left without streams closes when it drains, when another one has room, or
   * after IDLE_CLOSE_MS without a stream.
   */
  private tidy(s: PooledSession): void {
    if (s.active > 0 || s.session.closed || s.session.destroyed) return;
    const otherWithRoom = this.sessions.some((o) => o !== s && o.usable && !o.suspect && o.active < o.maxStreams);
    if (s.draining || otherWithRoom) return s.session.close();
    s.idleTimer?.cancel();
    s.idleTimer = this.o.clock.setTimer(() => {
      s.idleTimer = undefined;
      if (s.active === 0 && !s.session.closed) s.session.close();
    }, IDLE_CLOSE_MS);
  }

  private async connect(): Promise<PooledSession | typeof FALLBACK_HTTP1> {
    const attempt = new AbortController();
    this.connectAttempt = attempt;
    try {
      return await this.connectWith(attempt.signal);
    } catch (err) {
      if (attempt.signal.aborted && !this.disposed) throw Object.assign(new Error('the connection attempt was abandoned'), { code: ABANDONED });
      throw err;
    } finally {
      if (this.connectAttempt === attempt) this.connectAttempt = undefined;
    }
  }

  /** Opens one connection; `signal` destroys whatever part of it exists (the attempt is rejected). */
  private async connectWith(signal: AbortSignal): Promise<PooledSession | typeof FALLBACK_HTTP1> {
    const url = new URL(this.o.origin);
    const raw = this.o.openSocket ? await this.o.openSocket(signal) : undefined;
    if (raw && (this.disposed || signal.aborted)) {
      raw.destroy();
      throw Object.assign(new Error(this.disposed ? 'transport disposed' : 'aborted'), { code: this.disposed ? 'EDISPOSED' : 'ABORT_ERR' });
    }
    const socket = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const sock = tls.connect({
        socket: raw,
        lookup: this.o.lookup,
        host: url.hostname,
        port: Number(url.port || 443),
        servername: this.o.tls.servername ?? (isIp(url.hostname) ? undefined : url.hostname),
        ca: this.o.tls.ca,
        cert: this.o.tls.cert,
        key: this.o.tls.key,
        pfx: this.o.tls.pfx,
        passphrase: this.o.tls.passphrase,
        rejectUnauthorized: this.o.tls.rejectUnauthorized,
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      sock.once('secureConnect', () => {
        sock.off('error', reject);
        resolve(sock);
      });
      sock.once('error', reject);
      sock.once('close', () => reject(Object.assign(new Error('the connection closed during the TLS handshake'), { code: 'ECONNRESET' })));
      signal.addEventListener('abort', () => sock.destroy(), { once: true });
    });
    if (this.disposed || signal.aborted) {
      socket.destroy();
      throw Object.assign(new Error(this.disposed ? 'transport disposed' : 'aborted'), { code: this.disposed ? 'EDISPOSED' : 'ABORT_ERR' });
    }
    if (socket.alpnProtocol !== 'h2') {
      socket.destroy();
      this.fallback = true;
      this.events.fire({ type: 'protocol', protocol: 'http/1.1' });
      return FALLBACK_HTTP1;
    }
    const session = http2.connect(this.o.origin, {
      createConnection: () => socket,
      settings: { initialWindowSize: STREAM_WINDOW_BYTES, enablePush: false },
    });
    session.on('error', () => undefined); // streams report their own failure
    await new Promise<void>((resolve, reject) => {
      const onClose = () => reject(Object.assign(new Error('the connection closed during the HTTP/2 handshake'), { code: 'ECONNRESET' }));
      session.once('remoteSettings', () => {
        session.off('close', onClose);
        resolve();
      });
      session.once('close', onClose);
      if (signal.aborted) session.destroy();
    });
    try {
      session.setLocalWindowSize(SESSION_WINDOW_BYTES);
    } catch {
      // an older peer refusing a bigger window is no reason to fail
    }
    const first = this.sessions.length === 0;
    const pooled: PooledSession = new PooledSession(
      session,
      new SessionHealthCheck(session, this.o.timing, this.o.clock, (reason) => {
        this.events.fire({ type: 'dead', reason });
        session.destroy(Object.assign(new Error(`the connection is dead: ${reason}`), { code: 'ETIMEDOUT' }));
      }),
    );
    session.on('goaway', () => {
      pooled.draining = true;
      this.tidy(pooled);
    });
    session.once('close', () => {
      pooled.health.dispose();
      pooled.idleTimer?.cancel();
      const i = this.sessions.indexOf(pooled);
      if (i >= 0) this.sessions.splice(i, 1);
    });
    this.sessions.push(pooled);
    if (first) this.events.fire({ type: 'protocol', protocol: 'h2' });
    return pooled;
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
