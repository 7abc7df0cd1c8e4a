import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../base';
import type { PortForwardStream } from '../connection/streaming/port-forward-stream';
import { refuseWithMessage } from './refusal';

/** High-water mark of bytes queued on either side before the other side is paused. */
const HIGH_WATER = 1024 * 1024;
/** What is kept of the client's first bytes, until the pod answers (enough for an HTTP request line). */
const FIRST_BYTES = 2048;
/** How long a stream that failed at once waits for the client's first bytes (an HTTP request is sent on connect) before it is reset. */
const FIRST_BYTES_WAIT_MS = 1000;

/** How a relayed connection ended. */
export interface RelayEnd {
  /** The pod side's error text, or the network failure, when it did not close cleanly. */
  readonly error?: string;
  /** The local side closed first (the client was done). */
  readonly byClient: boolean;
  /** The pod sent at least one byte: its port took the connection. */
  readonly answered: boolean;
  /** The client had finished before the end (see `onClientDone`): a normal end, whatever closed the stream. */
  readonly clientDone: boolean;
}

/** What a relay tells its forward. */
export interface RelayHooks {
  readonly onBytes: (inbound: number, outbound: number) => void;
  /** The pod's first byte arrived: its port accepts connections. */
  readonly onAnswered: () => void;
  /**
   * The client ended its side after the pod answered (curl got its reply and closed): the
   * connection is over for the client, though the stream stays until the pod closes its side
   * (the kubelet's v4 protocol cannot pass the FIN on).
   */
  readonly onClientDone: () => void;
  readonly onEnd: (end: RelayEnd) => void;
  /** The text an HTTP client gets (a `503`) when the stream fails before the pod sent anything. */
  readonly failureAnswer: (error: string) => string;
  readonly clock: Clock;
}

/**
 * Copies bytes between one local TCP connection and its port-forward stream, both ways, with
 * back-pressure (a side that cannot keep up pauses the other), counting bytes. Ends both when
 * either ends. A stream that fails before the pod sent a byte (the pod refused the port) answers
 * an HTTP client with a `503` that says why, as a connection no pod could take is answered;
 * anything else is reset. Invariant: `onEnd` runs once, after which neither socket nor stream is
 * open; `onClientDone` runs at most once, before it.
 */
export class ConnectionRelay {
  bytesIn = 0;
  bytesOut = 0;
  private ended = false;
  private clientEnded = false;
  private done = false;
  /** The client's first bytes, kept until the pod answers (for the 503). */
  private firstBytes: Buffer[] = [];
  private firstLength = 0;
  /** The stream failed before the pod answered: the answer to the client waits (bounded) for its first bytes. */
  private failed: { error: string; timer: TimerHandle } | undefined;

  constructor(
    readonly socket: Socket,
    readonly stream: PortForwardStream,
    readonly pod: string,
    private readonly hooks: RelayHooks,
  ) {
    stream.onData((chunk) => {
      if (this.bytesIn === 0) {
        this.firstBytes = [];
        hooks.onAnswered();
      }
      this.bytesIn += chunk.length;
      hooks.onBytes(chunk.length, 0);
      this.checkDone();
      if (!socket.write(chunk)) {
        stream.pause();
        socket.once('drain', () => stream.resume());
      }
    });
    stream.onEnd((error) => {
      if (this.ended) return;
      if (!error || this.bytesIn > 0) {
        socket.end();
        return this.finish({ error, byClient: false });
      }
      // The pod refused before the client's request may have been read (it was sent on connect): wait for it, a little.
      this.failed = { error, timer: hooks.clock.setTimer(() => this.answerFailure(), FIRST_BYTES_WAIT_MS) };
      if (this.firstLength > 0 || this.clientEnded) this.answerFailure();
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.bytesIn === 0 && this.firstLength < FIRST_BYTES) {
        this.firstBytes.push(chunk);
        this.firstLength += chunk.length;
      }
      if (this.failed) return this.answerFailure();
      this.bytesOut += chunk.length;
      hooks.onBytes(0, chunk.length);
      // Resumed by the write callback that brings the queue back under half the mark.
      stream.write(chunk, () => {
        if (socket.isPaused() && !this.ended && stream.bufferedAmount <= HIGH_WATER / 2) socket.resume();
      });
      if (stream.bufferedAmount > HIGH_WATER) socket.pause();
    });
    socket.on('end', () => {
      this.clientEnded = true;
      if (this.failed) return this.answerFailure();
      this.checkDone();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      stream.dispose();
      if (this.failed) return this.answerFailure();
      this.finish({ byClient: true });
    });
    socket.resume();
  }

  /** The client has finished with the connection (its side ended after the pod answered). */
  get clientDone(): boolean {
    return this.done;
  }

  /** Ends both sides at once (the forward stops, or its pod went away), with `reason` as the end's error. */
  cut(reason: string): void {
    this.failed?.timer.cancel();
    this.finish({ error: reason, byClient: false });
    this.socket.destroy();
    this.stream.destroy();
  }

  /** Answers the client of a stream that failed before the pod sent a byte: a `503` for an HTTP request, else a reset. */
  private answerFailure(): void {
    const failed = this.failed;
    if (!failed || this.ended) return;
    failed.timer.cancel();
    refuseWithMessage(this.socket, Buffer.concat(this.firstBytes), this.hooks.failureAnswer(failed.error));
    this.finish({ error: failed.error, byClient: false });
  }

  private checkDone(): void {
    if (this.done || this.ended || !this.clientEnded || this.bytesIn === 0) return;
    this.done = true;
    this.hooks.onClientDone();
  }

  private finish(end: Omit<RelayEnd, 'answered' | 'clientDone'>): void {
    if (this.ended) return;
    this.ended = true;
    this.hooks.onEnd({ ...end, answered: this.bytesIn > 0, clientDone: this.done });
  }
}
