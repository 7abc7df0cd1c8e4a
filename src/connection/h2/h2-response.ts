import { constants, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';

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
  /**
   * The response gave evidence against its connection (a stream the server should have ended,
   * a request that timed out): have the connection checked at once. Only where it can be
   * checked without harm (an HTTP/2 PING); absent on HTTP/1.1.
   */
  suspectConnection?(): void;
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
  private readonly endListeners: (() => void)[] = [];
  private readonly errorListeners: ((err: Error) => void)[] = [];

  constructor(
    private readonly stream: ClientHttp2Stream,
    headers: IncomingHttpHeaders,
    private readonly onSuspect: () => void = () => undefined,
  ) {
    const status = Number(headers[':status']);
    this.statusCode = Number.isFinite(status) ? status : undefined;
    this.headers = headers;
    // Node ends the readable side ('end') also when the connection closes mid-response (a FIN
    // without END_STREAM) and then closes the stream with NGHTTP2_CANCEL: the body is complete
    // only when the stream closes with NO_ERROR after its 'end'. Readers' 'end' listeners run
    // then (registered before theirs, so `complete` is true when their 'close' runs); a cut
    // reaches their 'error' listeners as a connection reset instead.
    let sawEnd = false;
    stream.once('end', () => (sawEnd = true));
    stream.once('close', () => {
      if (!sawEnd) return;
      if (stream.rstCode === constants.NGHTTP2_NO_ERROR) {
        this.ended = true;
        for (const l of this.endListeners) l();
      } else {
        const cut = Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' });
        for (const l of this.errorListeners) l(cut);
      }
    });
    stream.pause();
  }

  get complete(): boolean {
    return this.ended;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see HttpResponse.on
  on(event: 'data' | 'end' | 'error' | 'close', listener: (...args: any[]) => void): this {
    if (event === 'end') {
      this.endListeners.push(listener);
      return this;
    }
    if (event === 'error') this.errorListeners.push(listener);
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

  suspectConnection(): void {
    this.onSuspect();
  }
}
