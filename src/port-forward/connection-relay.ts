import type { Socket } from 'node:net';
import type { PortForwardStream } from '../connection/streaming/port-forward-stream';

/** High-water mark of bytes queued on either side before the other side is paused. */
const HIGH_WATER = 1024 * 1024;

/** How a relayed connection ended. */
export interface RelayEnd {
  /** The pod side's error text, or the network failure, when it did not close cleanly. */
  readonly error?: string;
  /** The local side closed first (the client was done). */
  readonly byClient: boolean;
}

/**
 * Copies bytes between one local TCP connection and its port-forward stream, both ways, with
 * back-pressure (a side that cannot keep up pauses the other), counting bytes. Ends both when
 * either ends. Invariant: `onEnd` runs once, after which neither socket nor stream is open.
 */
export class ConnectionRelay {
  bytesIn = 0;
  bytesOut = 0;
  private ended = false;

  constructor(
    readonly socket: Socket,
    readonly stream: PortForwardStream,
    readonly pod: string,
    private readonly onBytes: (inbound: number, outbound: number) => void,
    private readonly onEnd: (end: RelayEnd) => void,
  ) {
    stream.onData((chunk) => {
      this.bytesIn += chunk.length;
      this.onBytes(chunk.length, 0);
      if (!socket.write(chunk)) {
        stream.pause();
        socket.once('drain', () => stream.resume());
      }
    });
    stream.onEnd((error) => {
      socket.end();
      this.finish({ error, byClient: false });
    });
    socket.on('data', (chunk: Buffer) => {
      this.bytesOut += chunk.length;
      this.onBytes(0, chunk.length);
      // Resumed by the write callback that brings the queue back under half the mark.
      stream.write(chunk, () => {
        if (socket.isPaused() && !this.ended && stream.bufferedAmount <= HIGH_WATER / 2) socket.resume();
      });
      if (stream.bufferedAmount > HIGH_WATER) socket.pause();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      stream.dispose();
      this.finish({ byClient: true });
    });
    socket.resume();
  }

  /** Ends both sides at once (the forward stops, or its pod went away), with `reason` as the end's error. */
  cut(reason: string): void {
    this.finish({ error: reason, byClient: false });
    this.socket.destroy();
    this.stream.destroy();
  }

  private finish(end: RelayEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(end);
  }
}
