import { AbortedError, ApiError, TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import { parseExactJson } from '../../base/exact-json';
import type { WriteRequest } from '../../informer/transport';
import { apiErrorFrom, readBody } from './body-readers';
import type { HttpResponse } from '../h2/h2-response';

export type { WriteContentType, WriteRequest } from '../../informer/transport';

/**
 * Writes on the transport: what is sent (method, headers, body bytes) and how one answer is
 * judged. The transport sends and reads; this file decides. A write is sent once: nothing here
 * retries it (the transport's one resend after a 401 with refreshed credentials is the only
 * repeat, and the server processed nothing then). Nothing here logs a body or a header.
 */

/** How long a write may wait for its whole answer before it fails with ETIMEDOUT. */
export const WRITE_DEADLINE_MS = 30_000;

/** The HTTP parts of a write, as the transport sends them. */
export interface OutgoingWrite {
  method: WriteRequest['method'];
  /** Content-Type and Content-Length when there is a body. */
  headers: Record<string, string>;
  body?: Buffer;
}

const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The method, headers and body bytes of `request`; throws (a TypeError) for one that cannot be sent. */
export function outgoingWrite(request: WriteRequest): OutgoingWrite {
  if (!METHODS.has(request.method)) throw new TypeError(`a write is POST, PUT, PATCH or DELETE, not ${String(request.method)}`);
  if (!request.path.startsWith('/')) throw new TypeError(`a write's path starts with "/": ${request.path}`);
  if (request.contentType === 'application/apply-patch+yaml' && request.method !== 'PATCH') throw new TypeError('an apply patch is sent with PATCH');
  if (request.contentType?.endsWith('patch+json') && request.method !== 'PATCH') throw new TypeError(`${request.contentType} is sent with PATCH`);
  if (request.body === undefined) return { method: request.method, headers: {} };
  const body = Buffer.from(request.body, 'utf8');
  const contentType = request.contentType ?? 'application/json';
  return { method: request.method, headers: { 'Content-Type': contentType, 'Content-Length': String(body.length) }, body };
}

/** A short name of a write for messages: `PATCH /api/v1/namespaces/shop/configmaps/web` (no query, no body). */
export function writeLabel(request: Pick<WriteRequest, 'method' | 'path'>): string {
  return `${request.method} ${request.path}`;
}

/**
 * Sends one write through `send`, which resolves with the parsed 2xx body and rejects with the
 * server's Status as an ApiError otherwise (the transport's `requestJson`). The deadline (on
 * `clock`) aborts the request and rejects with a TransportError coded ETIMEDOUT whose message
 * says that whether the server applied the write is unknown. The caller's `signal` rejects with
 * AbortedError.
 */
export async function performWrite<T>(
  request: WriteRequest,
  signal: AbortSignal,
  send: (outgoing: OutgoingWrite, signal: AbortSignal) => Promise<T>,
  clock: Clock,
  deadlineMs = WRITE_DEADLINE_MS,
): Promise<T> {
  const outgoing = outgoingWrite(request);
  if (signal.aborted) throw new AbortedError(reasonOf(signal));
  const ctl = new AbortController();
  let timedOut = false;
  const onAbort = () => ctl.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = clock.setTimer(() => {
    timedOut = true;
    ctl.abort(new Error('write deadline'));
  }, deadlineMs);
  try {
    return await send(outgoing, ctl.signal);
  } catch (err) {
    if (timedOut && !signal.aborted) {
      throw new TransportError(`no answer to ${writeLabel(request)} within ${Math.round(deadlineMs / 1000)} s: whether the server applied it is unknown`, 'ETIMEDOUT');
    }
    if (signal.aborted && !(err instanceof ApiError)) throw new AbortedError(reasonOf(signal));
    throw err;
  } finally {
    timer.cancel();
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * One write through `open` (the transport's RequestOpener: credentials, route, 401 renewal):
 * the parsed 2xx body, else the server's Status as an ApiError; a 2xx body that is not JSON is
 * a TransportError (EBADJSON). With performWrite's deadline.
 */
export function sendWrite<T>(
  open: (path: string, query: Record<string, string>, signal: AbortSignal, write: OutgoingWrite) => Promise<HttpResponse>,
  request: WriteRequest,
  signal: AbortSignal,
  clock: Clock,
  maxBytes: number,
): Promise<T> {
  return performWrite<T>(
    request,
    signal,
    async (outgoing, s) => {
      const res = await open(request.path, request.query ?? {}, s, outgoing);
      const body = await readBody(res, s, maxBytes);
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) throw apiErrorFrom(body.toString('utf8'), res);
      try {
        return request.exactIntegers ? parseExactJson<T>(body.toString('utf8')) : (JSON.parse(body.toString('utf8')) as T);
      } catch {
        throw new TransportError(`the server answered ${writeLabel(request)} with something that is not JSON`, 'EBADJSON');
      }
    },
    clock,
  );
}

function reasonOf(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r.message;
  return typeof r === 'string' ? r : 'aborted';
}
