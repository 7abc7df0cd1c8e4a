/**
 * Splits a byte stream into newline-terminated lines without copying whole chunks: a line that
 * lies inside one chunk is decoded straight from it; only a line spanning chunks is joined.
 * A trailing line without a newline is delivered by `end()`.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly onLine: (line: string) => void) {}

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
    this.onLine(buf.toString('utf8', start, end));
  }
}
