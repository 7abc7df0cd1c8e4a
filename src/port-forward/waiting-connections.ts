import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../base';

interface Waiting {
  readonly socket: Socket;
  readonly timer: TimerHandle;
  readonly received: Buffer[];
  readonly onData: (chunk: Buffer) => void;
}

/**
 * Local connections waiting for a ready pod. What a client sends meanwhile is kept and handed on
 * with its socket; a connection that waits `waitMs` is given up (`onTimeout`, with what it sent,
 * for the refusal's message). Invariant: one timer per waiting connection, none once released,
 * timed out, closed or cleared.
 */
export class WaitingConnections {
  private readonly waiting = new Set<Waiting>();

  constructor(
    private readonly clock: Clock,
    private readonly waitMs: number,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  /**
   * Holds `socket` until released, closed or `waitMs` passed (then `onTimeout`). With
   * `untilFirstBytes` the wait ends as soon as the client sent something (or ended its side):
   * enough to answer an HTTP request.
   */
  add(socket: Socket, onTimeout: (socket: Socket, received: Buffer) => void, untilFirstBytes = false): void {
    const received: Buffer[] = [];
    const giveUp = () => {
      if (!this.waiting.delete(entry)) return;
      entry.timer.cancel();
      socket.off('data', entry.onData);
      onTimeout(socket, Buffer.concat(received));
    };
    const entry: Waiting = {
      socket,
      received,
      onData: (chunk) => {
        received.push(chunk);
        if (untilFirstBytes) giveUp();
      },
      timer: this.clock.setTimer(giveUp, this.waitMs),
    };
    if (untilFirstBytes) socket.once('end', giveUp);
    socket.on('data', entry.onData);
    socket.resume();
    socket.once('close', () => {
      if (this.waiting.delete(entry)) entry.timer.cancel();
    });
    this.waiting.add(entry);
  }

  /** Hands every waiting socket (paused, what it sent put back) to `take`. */
  releaseAll(take: (socket: Socket) => void): void {
    for (const w of [...this.waiting]) {
      this.waiting.delete(w);
      w.timer.cancel();
      w.socket.pause();
      w.socket.off('data', w.onData);
      if (w.received.length) w.socket.unshift(Buffer.concat(w.received));
      if (!w.socket.destroyed) take(w.socket);
    }
  }

  /** Ends every waiting connection (the forward stops). */
  clear(): void {
    for (const w of this.waiting) {
      w.timer.cancel();
      w.socket.destroy();
    }
    this.waiting.clear();
  }
}
