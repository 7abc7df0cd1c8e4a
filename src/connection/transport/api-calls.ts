import { AbortedError, TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import type { Disposable } from '../../base/disposable';
import { parseExactJson } from '../../base/exact-json';
import { CONNECTION_REPLACED, METADATA_LIST_ACCEPT, METADATA_OBJECT_ACCEPT, type KubeTransport, type ListResponse, type ParseHints, type ReadOptions, type WatchCallbacks } from '../../informer/transport';
import { H2Response, type HttpResponse } from '../h2/h2-response';
import type { ClusterReachability } from '../reachability/cluster-reachability';
import { LineSplitter, MessageTooLargeError } from '../wire/line-splitter';
import { ListStreamParser, ListTooLargeError } from '../wire/list-stream-parser';
import { parseEventWithoutManagedFields, parseListWithoutManagedFields, parseObjectWithoutManagedFields } from '../wire/managed-fields';
import { abortReason, apiErrorFrom, errorFromResponse, isDeadline, pumpBody, readBody, toTransportError } from './body-readers';
import type { Http1Route } from './http1-route';
import { watchSilenceGuard } from './http1-silence-guard';
import type { RequestOpener } from './request';

/**
 * The API calls of the transport port (getJson, list, listStream, watch, stream): each opens one
 * request and reads its body as the call needs it, parsing straight from the received bytes.
 */
/** How long past its timeoutSeconds a watch may stay open before its connection is checked (F49). */
export const STREAM_END_GRACE_MS = 3000;

export class ApiCalls implements Pick<KubeTransport, 'getJson' | 'list' | 'listStream' | 'watch' | 'stream'> {
  constructor(
    private readonly opener: RequestOpener,
    private readonly http1: Http1Route,
    private readonly reachability: ClusterReachability,
    private readonly clock: Clock,
    private readonly maxMessageBytes: number,
  ) {}

  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal, options?: ReadOptions): Promise<T> {
    return this.requestJson(path, query, signal, (body) => (options?.exactIntegers ? parseExactJson<T>(body.toString('utf8')) : (JSON.parse(body.toString('utf8')) as T)));
  }

  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    const parse = hints?.dropManagedFields ? parseListWithoutManagedFields : (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;
    return this.requestJson(path, query, signal, (body) => parse(body) as ListResponse, listAccept(hints));
  }

  async listStream(path: string, query: Record<string, string>, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse> {
    const res = await this.opener.open(path, query, signal, undefined, listAccept(hints));
    const deadline = this.suspectOnDeadline(res, signal);
    try {
      return await this.readListStream(res, path, signal, onItem, hints);
    } finally {
      deadline.dispose();
    }
  }

  private async readListStream(res: HttpResponse, path: string, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse> {
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) throw await errorFromResponse(res, signal);
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
    const res = await this.opener.open(path, { ...query, watch: 'true' }, signal, undefined, hints?.metadataOnly ? METADATA_OBJECT_ACCEPT : undefined);
    const replacements = this.http1.replacements;
    const deadline = this.suspectOnDeadline(res, signal);
    // F49: a stream the server should have ended by now (its timeoutSeconds plus a small grace)
    // is evidence about its connection: checked at once where that is harmless (an HTTP/2 PING).
    const timeoutSeconds = Number(query.timeoutSeconds);
    const overdue =
      res.suspectConnection && Number.isFinite(timeoutSeconds) && timeoutSeconds > 0
        ? this.clock.setTimer(() => res.suspectConnection?.(), timeoutSeconds * 1000 + STREAM_END_GRACE_MS)
        : undefined;
    try {
      await this.readWatch(res, signal, callbacks, hints);
    } catch (err) {
      // The HTTP/1.1 connections were replaced after a wake (HTTP/2 streams carry the code themselves).
      if (err instanceof TransportError && !(res instanceof H2Response) && this.http1.replacements !== replacements) {
        throw new TransportError('the connection was replaced after a wake', CONNECTION_REPLACED);
      }
      throw err;
    } finally {
      overdue?.cancel();
      deadline.dispose();
    }
  }

  private async readWatch(res: HttpResponse, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void> {
    if (res.statusCode !== 200) throw await errorFromResponse(res, signal);
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
      const silence = res instanceof H2Response ? undefined : watchSilenceGuard(this.clock, () => {
        res.destroy();
        this.reachability.reportFailure();
        this.http1.dropIdleSockets();
        finish(new TransportError(silence!.verdict, 'ETIMEDOUT'));
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
    const deadline = this.suspectOnDeadline(res, signal);
    try {
      if (res.statusCode !== 200) throw await errorFromResponse(res, signal);
      onOpen?.();
      await pumpBody(res, signal, 'stream', onChunk, () => undefined);
    } finally {
      deadline.dispose();
    }
  }

  /**
   * A request that ran out of its deadline (the engine aborts with a DeadlineError) is evidence
   * about its connection (F49): an HTTP/2 connection is PINGed at once; on HTTP/1.1, which cannot
   * be probed, the cluster counts as failing and no idle pooled socket is reused (F23). Registered
   * before the body readers' own abort listeners, so it runs while the response still has its
   * connection.
   */
  private suspectOnDeadline(res: HttpResponse, signal: AbortSignal): Disposable {
    const onAbort = () => {
      if (!isDeadline(signal.reason)) return;
      if (res.suspectConnection) return res.suspectConnection();
      this.reachability.reportFailure();
      this.http1.dropIdleSockets();
    };
    if (signal.aborted) {
      onAbort();
      return { dispose: () => undefined };
    }
    signal.addEventListener('abort', onAbort, { once: true });
    return { dispose: () => signal.removeEventListener('abort', onAbort) };
  }

  /** A GET whose 2xx body is parsed by `parse`; a body that is not JSON is a TransportError. */
  private async requestJson<T>(path: string, query: Record<string, string>, signal: AbortSignal, parse: (body: Buffer) => T, accept?: string): Promise<T> {
    const res = await this.opener.open(path, query, signal, undefined, accept);
    const deadline = this.suspectOnDeadline(res, signal);
    let body: Buffer;
    try {
      body = await readBody(res, signal, this.maxMessageBytes);
    } finally {
      deadline.dispose();
    }
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) throw apiErrorFrom(body.toString('utf8'), res);
    try {
      return parse(body);
    } catch {
      throw new TransportError(`the server answered ${path} with something that is not JSON`, 'EBADJSON');
    }
  }
}

/** The Accept of a LIST: PartialObjectMetadataList when only metadata is wanted, else the default. */
function listAccept(hints: ParseHints | undefined): string | undefined {
  return hints?.metadataOnly ? METADATA_LIST_ACCEPT : undefined;
}

function parseLine(buf: Buffer, start: number, end: number): unknown {
  return JSON.parse(buf.toString('utf8', start, end));
}
