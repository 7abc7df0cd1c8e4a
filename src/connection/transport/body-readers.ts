import { AbortedError, ApiError, TransportError, statusFromBody } from '../../base/api-error';
import type { HttpResponse } from '../h2/h2-response';
import { DEFAULT_MAX_MESSAGE_BYTES, MessageTooLargeError } from '../wire/line-splitter';

/**
 * Reading response bodies: whole (a JSON answer, an error's Status) or as it arrives (logs).
 * Every reader settles once; on abort it destroys the response, so no socket or stream is left
 * behind a reader that gave up.
 */

/** The whole body; one longer than `maxBytes` rejects with MessageTooLargeError. */
export function readBody(res: HttpResponse, signal: AbortSignal, maxBytes = DEFAULT_MAX_MESSAGE_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      res.destroy();
      reject(new AbortedError(abortReason(signal)));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    let tooLarge = false;
    res.on('data', (c: Buffer) => {
      if (tooLarge) return;
      if (size + c.length > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        signal.removeEventListener('abort', onAbort);
        res.destroy();
        reject(new MessageTooLargeError('body', maxBytes));
        return;
      }
      chunks.push(c);
      size += c.length;
    });
    res.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks, size));
    });
    res.on('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err));
    });
    res.on('close', () => {
      if (!res.complete) {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError('the connection closed before the response ended', 'ECONNRESET'));
      }
    });
  });
}

/**
 * Feeds a streaming response body to `onChunk` until it ends (resolves after `onEnd`), fails
 * (TransportError) or `signal` fires (AbortedError, the response destroyed). Settles once.
 */
export function pumpBody(res: HttpResponse, signal: AbortSignal, what: string, onChunk: (chunk: Buffer) => void, onEnd: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
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
      onChunk(chunk);
    });
    res.on('end', () => {
      if (settled) return;
      onEnd();
      finish();
    });
    res.on('error', (err) => finish(signal.aborted ? new AbortedError(abortReason(signal)) : toTransportError(err)));
    res.on('close', () => {
      if (!res.complete) finish(signal.aborted ? new AbortedError(abortReason(signal)) : new TransportError(`the connection closed before the ${what} ended`, 'ECONNRESET'));
    });
  });
}

export function apiErrorFrom(body: string, res: HttpResponse): ApiError {
  const code = res.statusCode ?? 0;
  const retryAfter = res.headers['retry-after'];
  return new ApiError(statusFromBody(body, code), 'http', code, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
}

/** An error body beyond this is not read on (a Status is a few hundred bytes). */
export const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/**
 * The ApiError a refused response's body describes. The read is the request's: `signal` (its
 * deadline, a stop) ends a body that never ends (F43), and the response is destroyed then.
 */
export async function errorFromResponse(res: HttpResponse, signal: AbortSignal): Promise<Error> {
  try {
    return apiErrorFrom((await readBody(res, signal, MAX_ERROR_BODY_BYTES)).toString('utf8'), res);
  } catch (err) {
    return err instanceof Error ? err : new TransportError(String(err));
  }
}

/**
 * Drops the rest of a refused response's body (a 401 before a retry), so its connection can be
 * reused. The returned function gives up on it: a body that has not ended by then (the retry's
 * answer came, or the request was stopped) is destroyed with its response (F43).
 */
export function discardBody(res: HttpResponse): () => void {
  // Even a body already received whole must be consumed: its connection is freed at its 'end'.
  res.resume();
  return () => {
    if (!res.complete) res.destroy();
  };
}

export function toTransportError(err: Error & { code?: string }): TransportError {
  if (err instanceof TransportError) return err;
  // Node reports a response cut off by the peer as "aborted", which reads like our own abort.
  if (err.message === 'aborted') return new TransportError('the server closed the connection (ECONNRESET)', err.code ?? 'ECONNRESET');
  return new TransportError(err.message || err.code || 'network error', err.code);
}

export function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r.message;
  return typeof r === 'string' ? r : 'aborted';
}

/** The engine aborts a request it found silent (half-open) or unanswered with a DeadlineError. */
export function isDeadline(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'DeadlineError';
}
