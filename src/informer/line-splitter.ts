/** Receives one line as bytes, `buf[start, end)`, valid only during the call. */
export type LineSink = (buf: Buffer, start: number, end: number) => void;

/**
 * Splits a byte stream into newline-terminated lines without copying whole chunks: a line that
 * lies inside one chunk is handed over in place; only a line spanning chunks is joined.
 * A trailing line without a newline is delivered by `end()`. Blank lines are skipped and a
 * trailing CR is dropped.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private sink: LineSink;

  /** `onLine` receives each line decoded as UTF-8. */
  constructor(onLine: (line: string) => void) {
    this.sink = (buf, start, end) => onLine(buf.toString('utf8', start, end));
  }

  /** A splitter that hands each line over as bytes, so the receiver decides how to decode it. */
  static bytes(sink: LineSink): LineSplitter {
    const s = new LineSplitter(() => undefined);
    s.sink = sink;
    return s;
  }

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(10, start);
    while (nl !== -1) {
      if (this.pendingBytes > 0) {
        this.pending.push(chunk.subarray(start, nl));
        const joined = Buffer.concat(this.pending, this.pendingBytes + (nl - start));
        this.pending = [];
        this.pendingBytes = 0;
        this.emit(joined, 0, joined.length);
      } else {
        this.emit(chunk, start, nl);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
  }

  end(): void {
    if (this.pendingBytes > 0) {
      const joined = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      this.emit(joined, 0, joined.length);
    }
  }

  private emit(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === 13) end--; // tolerate CRLF
    if (end <= start) return; // blank keep-alive lines carry nothing
    this.sink(buf, start, end);
  }
}
