/** A `Status` object as the API server sends it, in a response body or an ERROR watch event. */
export interface ApiStatus {
  kind?: string;
  apiVersion?: string;
  metadata?: { continue?: string; resourceVersion?: string };
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
    kind?: string;
    name?: string;
  };
}

/**
 * The server refused a request: a non-2xx HTTP response, or an ERROR event inside a watch.
 * `code` is the Status code when the body had one, else the HTTP status.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  /** Milliseconds the server asked us to wait (Retry-After header or details.retryAfterSeconds). */
  readonly retryAfterMs?: number;

  constructor(
    readonly status: ApiStatus,
    readonly origin: 'http' | 'event',
    httpStatus?: number,
    retryAfterHeader?: string | null,
  ) {
    super(status.message || status.reason || `HTTP ${httpStatus ?? status.code ?? 'error'}`);
    this.name = 'ApiError';
    this.code = status.code ?? httpStatus ?? 0;
    this.reason = status.reason ?? '';
    this.retryAfterMs = retryAfterMs(retryAfterHeader, status.details?.retryAfterSeconds);
  }

  /** 410 Gone / Expired: the resourceVersion or continue token is no longer available. */
  get isExpired(): boolean {
    return this.code === 410 || this.reason === 'Expired' || this.reason === 'Gone';
  }

  /** 504 with cause ResourceVersionTooLarge: the server has not caught up with our resourceVersion. */
  get isResourceVersionTooLarge(): boolean {
    return (
      this.status.details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge') === true ||
      /too large resource version/i.test(this.status.message ?? '')
    );
  }
}

/** A failure below HTTP: refused connection, DNS, TLS handshake, reset, premature close. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** The stream carried something that is not a valid watch event. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly eventType?: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The request was aborted by us (stop, restart, deadline); never reported as a failure. */
export class AbortedError extends Error {
  constructor(reason = 'aborted') {
    super(reason);
    this.name = 'AbortedError';
  }
}

/**
 * The transport was disposed: nothing sent through it can succeed any more, so the engine stops
 * trying (an informer on it waits to be stopped or restarted, never loops).
 */
export class TransportDisposedError extends AbortedError {
  constructor() {
    super('transport disposed');
    this.name = 'TransportDisposedError';
  }
}

function retryAfterMs(header: string | null | undefined, seconds: number | undefined): number | undefined {
  if (header) {
    const n = Number(header);
    if (Number.isFinite(n) && n >= 0) return n * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  if (typeof seconds === 'number' && seconds >= 0) return seconds * 1000;
  return undefined;
}

/** Parses a response body as a Status, tolerating plain-text bodies like "404 page not found". */
export function statusFromBody(body: string, httpStatus: number): ApiStatus {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && (parsed as ApiStatus).kind === 'Status') return parsed as ApiStatus;
  } catch {
    // not JSON: fall through to a Status built from the text
  }
  const text = body.trim().slice(0, 200);
  return { kind: 'Status', status: 'Failure', code: httpStatus, message: text || `HTTP ${httpStatus}`, reason: reasonForCode(httpStatus) };
}

function reasonForCode(code: number): string {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 410: return 'Expired';
    case 429: return 'TooManyRequests';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return code >= 500 ? 'InternalError' : '';
  }
}

/** A one-line description of any failure, safe to show: no headers, no credentials. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return `${err.code} ${err.reason}: ${err.message}`.trim();
  if (err instanceof Error) return err.message;
  return String(err);
}
