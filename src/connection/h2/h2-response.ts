import type * as http2 from 'node:http2';

/**
 * The part of a response the transport reads, shared by HTTP/1.1 (http.IncomingMessage fits it
 * as is) and HTTP/2 (H2Response over a stream).
 */
export interface HttpResponse {
  readonly statusCode?: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The whole body arrived (the peer ended the stream cleanly). */
  readonly complete: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors Node's EventEmitter signature, which both responses have
  on(event: 'data' | 'end' | 'error' | 'close', listener: (...args: any[]) => void): unknown;
  destroy(): void;
  /** Reads and drops the rest of the body (a refused response before a retry). */
  resume(): void;
}

/**
 * An HTTP/2 response: its headers, and the stream as the body. The body waits for its reader:
 * the stream is paused until a 'data' listener comes (the session pool's read-idle tracker
 * listens from the start, which alone would let the body flow past a reader that attaches
 * later, for example after a slow credential refresh on a 401).
 */
export class H2Response implements HttpResponse {
  readonly statusCode: number | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  private ended = false;

  constructor(
    private readonly stream: http2.ClientHttp2Stream,
    headers: http2.IncomingHttpHeaders,
  ) {
    const status = Number(headers[':status']);
    this.statusCode = Number.isFinite(status) ? status : undefined;
    this.headers = headers;
    // Registered before any reader's, so `complete` is true when their 'end' and 'close' run.
    stream.once('end', () => (this.ended = true));
    stream.pause();
  }

  get complete(): boolean {
    return this.ended;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see HttpResponse.on
  on(event: 'data' | 'end' | 'error' | 'close', listener: (...args: any[]) => void): this {
    this.stream.on(event, listener);
    if (event === 'data') this.stream.resume();
    return this;
  }

  destroy(): void {
    this.stream.destroy();
  }

  resume(): void {
    this.stream.resume();
  }
}
