import { AbortedError, TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import type { KubeTransport, ListResponse, ParseHints, WatchCallbacks } from '../../informer/transport';
import { H2Response } from '../h2/h2-response';
import { BookmarkCadence } from '../http1/bookmark-cadence';
import type { ClusterReachability } from '../reachability/cluster-reachability';
import { LineSplitter, MessageTooLargeError } from '../wire/line-splitter';
import { ListStreamParser, ListTooLargeError } from '../wire/list-stream-parser';
import { parseEventWithoutManagedFields, parseListWithoutManagedFields, parseObjectWithoutManagedFields } from '../wire/managed-fields';
import { abortReason, apiErrorFrom, errorFromResponse, pumpBody, readBody, toTransportError } from './body-readers';
import type { Http1Route } from './http1-route';
import { watchSilenceGuard } from './http1-silence-guard';
import type { RequestOpener } from './request';

/**
 * The API calls of the transport port (getJson, list, listStream, watch, stream): each opens one
 * request and reads its body as the call needs it, parsing straight from the received bytes.
 */
export class ApiCalls implements Pick<KubeTransport, 'getJson' | 'list' | 'listStream' | 'watch' | 'stream'> {
  /** The server's bookmark cadence on quiet watches, as seen on this transport's watches. */
  private readonly bookmarks = new BookmarkCadence();

  constructor(
    private readonly opener: RequestOpener,
    private readonly http1: Http1Route,
    private readonly reachability: ClusterReachability,
    private readonly clock: Clock,
    private readonly maxMessageBytes: number,
  ) {}

  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal): Promise<T> {
    return this.requestJson(path, query, signal, (body) => JSON.parse(body.toString('utf8')) as T);
  }

  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    const parse = hints?.dropManagedFields ? parseListWithoutManagedFields : (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;
    return this.requestJson(path, query, signal, (body) => parse(body) as ListResponse);
  }

  async listStream(path: string, query: Record<string, string>, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse> {
    const res = await this.opener.open(path, query, signal);
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) throw await errorFromResponse(res);
    const parseItem = hints?.dropManagedFields ? parseObjectWithoutManagedFields : parseLine;
    const parser = new ListStreamParser((buf, start, end) => onItem(parseItem(buf, start, end)));
    return new Promise<ListResponse>((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | undefined, value?: ListResponse) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        if (err) {
          res.destroy();
          reject(err);
        } else resolve(value!);
      };
      const onAbort = () => finish(new AbortedError(abortReason(signal)));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        try {
          parser.push(chunk);
        } catch (err) {
          if (err instanceof ListTooLargeError) finish(new TransportError(err.message, 'ETOOLARGE'));
          else finish(err instanceof SyntaxError ? new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON') : (err as Error));
        }
      });
      res.on('end', () => {
        if (settled) return;
        try {
          const list = JSON.parse(parser.end()) as ListResponse;
          finish(undefined, list);
        } catch {
          finish(new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON'));
        }
      });
      res.on('error', (err) => finish(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err)));
      res.on('close', () => {
        if (!res.complete) finish(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the response ended', 'ECONNRESET'));
      });
    });
  }

  async watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void> {
    const res = await this.opener.open(path, { ...query, watch: 'true' }, signal);
    if (res.statusCode !== 200) throw await errorFromResponse(res);
    callbacks.onOpen();
    const parse = hints?.dropManagedFields ? parseEventWithoutManagedFields : parseLine;
    return new Promise<void>((resolve, reject) => {
      // Lines are parsed straight from the received bytes; the text is decoded only if asked for.
      const splitter = LineSplitter.bytes((buf, start, end) => {
        let parsed: unknown;
        try {
          parsed = parse(buf, start, end);
        } catch {
          parsed = undefined;
        }
        silence?.noteLine(parsed);
        callbacks.onLine(parsed, () => buf.toString('utf8', start, end));
      }, this.maxMessageBytes);
      let settled = false;
      // HTTP/1.1 has no PING: where the server's bookmark cadence is known, silence well past it is a dead connection.
      const silence = res instanceof H2Response ? undefined : watchSilenceGuard(this.clock, this.bookmarks, () => {
        res.destroy();
        this.reachability.reportFailure();
        this.http1.dropIdleSockets();
        finish(new TransportError(`no bookmark for ${Math.round((this.bookmarks.silenceLimitMs() ?? 0) / 1000)} s although the server sends one every ${Math.round((this.bookmarks.interval ?? 0) / 1000)} s: the connection looks half-open`, 'ETIMEDOUT'));
      });
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        silence?.dispose();
        signal.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const onAbort = () => {
        res.destroy();
        if (isDeadline(signal.reason)) {
          this.reachability.reportFailure();
          this.http1.dropIdleSockets();
        }
        finish(new AbortedError(abortReason(signal)));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        silence?.noteData();
        callbacks.onData();
        try {
          splitter.push(chunk);
        } catch (err) {
          if (!(err instanceof MessageTooLargeError)) throw err;
          res.destroy();
          finish(err);
        }
      });
      res.on('end', () => {
        if (settled) return;
        splitter.end();
        finish();
      });
      res.on('error', (err) => finish(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err)));
      res.on('close', () => {
        if (!res.complete) finish(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the watch ended', 'ECONNRESET'));
      });
    });
  }

  async stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    const res = await this.opener.open(path, query, signal);
    if (res.statusCode !== 200) throw await errorFromResponse(res);
    onOpen?.();
    return pumpBody(res, signal, 'stream', onChunk, () => undefined);
  }

  /** A GET whose 2xx body is parsed by `parse`; a body that is not JSON is a TransportError. */
  private async requestJson<T>(path: string, query: Record<string, string>, signal: AbortSignal, parse: (body: Buffer) => T): Promise<T> {
    const res = await this.opener.open(path, query, signal);
    const body = await readBody(res, signal, this.maxMessageBytes);
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) throw apiErrorFrom(body.toString('utf8'), res);
    try {
      return parse(body);
    } catch {
      throw new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON');
    }
  }
}

/** The engine aborts a watch it found silent (half-open) or unanswered with a DeadlineError. */
function isDeadline(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'DeadlineError';
}

function parseLine(buf: Buffer, start: number, end: number): unknown {
  return JSON.parse(buf.toString('utf8', start, end));
}
