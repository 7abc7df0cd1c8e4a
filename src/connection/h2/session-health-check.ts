import type * as http2 from 'node:http2';
import type { Clock, TimerHandle } from '../../base/clock';

/**
 * Below client-go's 30 s read-idle and 15 s PING timeout (its 45 s is a ceiling, not a target: a
 * PING is a few bytes and a 1.34 server answers it in under a millisecond), so a connection
 * silent with the default watch timeouts is replaced within 25 s (F23, F49). Configurable for
 * slow links (kubeWatch.connection.readIdleSeconds, pingTimeoutSeconds).
 */
export const DEFAULT_READ_IDLE_MS = 15_000;
export const DEFAULT_PING_TIMEOUT_MS = 10_000;

export interface HealthCheckTiming {
  /** A PING goes out after this long without reading anything from the connection. */
  readIdleMs: number;
  /** No answer to the PING within this long: the connection is dead. */
  pingTimeoutMs: number;
}

/**
 * The health check of one HTTP/2 connection, in the manner of client-go: after `readIdleMs`
 * without a read, a PING; no answer within `pingTimeoutMs` and `onDead` runs (the owner closes
 * the connection, failing every stream on it over to the normal retry path). A quiet healthy
 * connection answers its PINGs and is kept: no request is ever sent to check it.
 * Invariant: at most one timer and one PING outstanding; nothing runs after `dispose()`.
 */
export class SessionHealthCheck {
  private lastRead: number;
  private timer: TimerHandle | undefined;
  private disposed = false;
  /** `onDead` ran: it runs once, however many PINGs were outstanding. */
  private dead = false;

  constructor(
    private readonly session: Pick<http2.ClientHttp2Session, 'ping'>,
    private readonly timing: HealthCheckTiming,
    private readonly clock: Clock,
    private readonly onDead: (reason: string) => void,
  ) {
    this.lastRead = clock.now();
    this.schedule(timing.readIdleMs);
  }

  /** Something was read from the connection (response headers, data, a PING answer). */
  noteRead(): void {
    this.lastRead = this.clock.now();
  }

  /** When something was last read from the connection (clock ms). */
  get lastReadAt(): number {
    return this.lastRead;
  }

  /**
   * Sends a PING now; resolves true on its answer, false once `deadlineMs` passed without one
   * (after calling `onDead`). Used by the idle check and, with a short deadline, after a wake
   * and when a stream on the connection gave evidence against it (F49).
   */
  verify(deadlineMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.disposed) return resolve(false);
      let settled = false;
      const settle = (ok: boolean, reason?: string) => {
        if (settled) return;
        settled = true;
        deadline.cancel();
        if (!ok && !this.disposed && !this.dead) {
          this.dead = true;
          this.onDead(reason ?? 'the connection did not answer');
        }
        resolve(ok);
      };
      const deadline = this.clock.setTimer(() => settle(false, `no answer to a PING within ${formatSeconds(deadlineMs)}`), deadlineMs);
      try {
        const sent = this.session.ping((err) => {
          if (err) return settle(false, 'the PING failed');
          this.noteRead();
          settle(true);
        });
        // Too many PINGs outstanding: one already is, and its deadline decides.
        if (!sent) settle(true);
      } catch {
        settle(false, 'the connection is closed');
      }
    });
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (this.disposed) return;
    this.timer = this.clock.setTimer(() => this.tick(), ms);
  }

  private tick(): void {
    if (this.disposed) return;
    const idle = this.clock.now() - this.lastRead;
    if (idle < this.timing.readIdleMs) return this.schedule(this.timing.readIdleMs - idle);
    void this.verify(this.timing.pingTimeoutMs).then((ok) => {
      if (ok) this.schedule(this.timing.readIdleMs);
    });
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms)} ms`;
}
