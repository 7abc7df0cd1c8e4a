import { TransportError } from '../../base/api-error';
import { ScratchBuffer } from './scratch-buffer';

/** The default bound on one line of a watch and on one response body: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * A line or a body grew past the bound: the request fails instead of buffering without limit.
 * A TransportError (code ETOOLARGE), so the reflector backs off and retries like any failed request.
 */
export class MessageTooLargeError extends TransportError {
  constructor(
    readonly what: 'line' | 'body',
    readonly limitBytes: number,
  ) {
    super(`the server sent a ${what === 'line' ? 'watch event' : 'response'} larger than ${formatBytes(limitBytes)}; giving up on it`, 'ETOOLARGE');
    this.name = 'MessageTooLargeError';
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** Receives one line as bytes, `buf[start, end)`, valid only during the call. */
export type LineSink = (buf: Buffer, start: number, end: number) => void;

/**
 * Splits a byte stream into newline-terminated lines without copying whole chunks: a line that
 * lies inside one chunk is handed over in place; only a line spanning chunks is joined.
 * A trailing line without a newline is delivered by `end()`. Blank lines are skipped and a
 * trailing CR is dropped. A line longer than `maxLineBytes` makes `push` throw
 * MessageTooLargeError (the buffered part is dropped).
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Where a line spanning chunks is joined (a third of a big list's objects span chunks). */
  private readonly scratch = new ScratchBuffer();
  private sink: LineSink;
  /** Bound on one line, newline excluded. */
  maxLineBytes = DEFAULT_MAX_MESSAGE_BYTES;

  /** `onLine` receives each line decoded as UTF-8. */
  constructor(onLine: (line: string) => void) {
    this.sink = (buf, start, end) => onLine(buf.toString('utf8', start, end));
  }

  /** A splitter that hands each line over as bytes, so the receiver decides how to decode it. */
  static bytes(sink: LineSink, maxLineBytes = DEFAULT_MAX_MESSAGE_BYTES): LineSplitter {
    const s = new LineSplitter(() => undefined);
    s.sink = sink;
    s.maxLineBytes = maxLineBytes;
    return s;
  }

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(10, start);
    while (nl !== -1) {
      if (this.pendingBytes + (nl - start) > this.maxLineBytes) this.overflow();
      if (this.pendingBytes > 0) {
        this.pending.push(chunk.subarray(start, nl));
        const size = this.pendingBytes + (nl - start);
        const joined = this.joined(size);
        this.pending = [];
        this.pendingBytes = 0;
        this.emit(joined, 0, size);
      } else {
        this.emit(chunk, start, nl);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      if (this.pendingBytes + (chunk.length - start) > this.maxLineBytes) this.overflow();
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
  }

  private overflow(): never {
    this.pending = [];
    this.pendingBytes = 0;
    throw new MessageTooLargeError('line', this.maxLineBytes);
  }

  end(): void {
    if (this.pendingBytes > 0) {
      const size = this.pendingBytes;
      const joined = this.joined(size);
      this.pending = [];
      this.pendingBytes = 0;
      this.emit(joined, 0, size);
    }
  }

  /** The pending parts copied into one buffer of at least `size` bytes (the sink may use it only during its call). */
  private joined(size: number): Buffer {
    const target = this.scratch.take(size);
    let at = 0;
    for (const part of this.pending) at += part.copy(target, at);
    return target;
  }

  private emit(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === 13) end--; // tolerate CRLF
    if (end <= start) return; // blank keep-alive lines carry nothing
    this.sink(buf, start, end);
  }
}
