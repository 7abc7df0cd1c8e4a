/**
 * Tracks every TCP connection accepted by the server so that they can be counted, reset or
 * destroyed. Invariant: a socket is tracked from its 'connection' event until its 'close' event.
 * With TLS the request's socket is a TLSSocket over the tracked raw socket; the raw socket is
 * found by its remote address and port (unique per live loopback connection), because only the
 * raw TCP socket can send an RST (TLSSocket.resetAndDestroy throws ERR_INVALID_HANDLE_TYPE).
 */
import type { Server } from 'node:net';
import type { Socket } from 'node:net';

const keyOf = (s: Socket): string => `${s.remoteAddress}:${s.remotePort}`;

/** An HTTP/2 request's socket is a proxy that refuses destroy(); the raw socket's close ends it anyway. */
function destroyQuietly(socket: Socket): void {
  try {
    socket.destroy();
  } catch {
    // ERR_HTTP2_NO_SOCKET_MANIPULATION
  }
}

export class ConnectionTracker {
  private readonly sockets = new Set<Socket>();
  private readonly byRemote = new Map<string, Socket>();
  /** Per tracked socket: settles once the tracker has forgotten it (after its 'close'). */
  private readonly closed = new Map<Socket, Promise<void>>();

  /** Starts tracking the connections of `server` (call once per server object). */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => {
      const key = keyOf(socket);
      this.sockets.add(socket);
      this.byRemote.set(key, socket);
      this.closed.set(
        socket,
        new Promise<void>((resolve) =>
          socket.on('close', () => {
            this.sockets.delete(socket);
            this.closed.delete(socket);
            if (this.byRemote.get(key) === socket) this.byRemote.delete(key);
            resolve();
          }),
        ),
      );
      // A reset by the client must not crash the test process.
      socket.on('error', () => {});
    });
  }

  get count(): number {
    return this.sockets.size;
  }

  /** The raw TCP socket under a request's (possibly TLS) socket. */
  rawOf(socket: Socket): Socket {
    return this.byRemote.get(keyOf(socket)) ?? socket;
  }

  /** Sends an RST on the connection of `socket` and destroys it. */
  reset(socket: Socket): void {
    const raw = this.rawOf(socket);
    try {
      raw.resetAndDestroy();
    } catch {
      raw.destroy();
    }
    if (socket !== raw) destroyQuietly(socket);
  }

  /** Closes the TCP connection under a request's socket (for HTTP/2, every stream on it), without an RST. */
  destroyConnectionOf(socket: Socket): void {
    const raw = this.rawOf(socket);
    raw.destroy();
    if (socket !== raw) destroyQuietly(socket);
  }

  /** Destroys every connection; resolves once all of them have emitted 'close'. */
  async destroyAll(): Promise<void> {
    const closing = [...this.closed.values()];
    for (const s of this.sockets) s.destroy();
    await Promise.all(closing);
  }
}
