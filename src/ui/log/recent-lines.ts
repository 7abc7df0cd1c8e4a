import type { LogSink } from './log-line';

/**
 * A LogSink that keeps the last `capacity` lines (with their level) and forwards each to
 * another sink. The extension-host tests read the log through it, since a LogOutputChannel's
 * text cannot be read back through the VS Code API.
 */
export class RecentLines implements LogSink {
  private readonly lines: string[] = [];

  constructor(
    private readonly next: LogSink,
    private readonly capacity = 2000,
  ) {}

  /** Oldest first, each as `level message`. */
  snapshot(): string[] {
    return [...this.lines];
  }

  trace(message: string): void {
    this.keep('trace', message);
    this.next.trace(message);
  }
  debug(message: string): void {
    this.keep('debug', message);
    this.next.debug(message);
  }
  info(message: string): void {
    this.keep('info', message);
    this.next.info(message);
  }
  warn(message: string): void {
    this.keep('warn', message);
    this.next.warn(message);
  }
  error(message: string): void {
    this.keep('error', message);
    this.next.error(message);
  }

  private keep(level: string, message: string): void {
    this.lines.push(`${level} ${message}`);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }
}
