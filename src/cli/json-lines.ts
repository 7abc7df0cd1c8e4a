import type { Writable } from 'node:stream';

/**
 * Writes one JSON value per line to a stream (standard output), surviving a reader that goes
 * away: EPIPE (`kube-watch ... | head -1`) or a destroyed stream closes the writer instead of
 * crashing the process, and `onClosed` is told once.
 * Invariant: after the writer closed, `write` does nothing and `flush` resolves at once.
 */
export class JsonLinesWriter {
  private closed = false;

  constructor(
    private readonly out: Writable,
    private readonly onClosed: (err: Error) => void = () => undefined,
  ) {
    out.on('error', (err) => this.close(err));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  write(value: unknown): void {
    if (this.closed || this.out.destroyed || !this.out.writable) return;
    try {
      this.out.write(`${JSON.stringify(value)}\n`);
    } catch (err) {
      this.close(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Resolves once everything written so far has been handed to the operating system (or the writer closed). */
  flush(): Promise<void> {
    if (this.closed || this.out.destroyed || !this.out.writable) return Promise.resolve();
    return new Promise((resolve) => {
      try {
        this.out.write('', () => resolve());
      } catch {
        resolve();
      }
    });
  }

  private close(err: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.onClosed(err);
  }
}
