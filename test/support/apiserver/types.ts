/**
 * Public types of the fake Kubernetes API server used by the tests.
 * Everything here is plain data; behaviour lives in the other files of this folder.
 */

/** One resource type served by the fake server. */
export interface ResourceDefinition {
  /** API group; '' for the core group. */
  group: string;
  version: string;
  /** Plural resource name, e.g. `configmaps`. */
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  /** Singular name for discovery; defaults to the lower-cased kind. */
  singularName?: string;
  /** Verbs advertised by discovery; defaults to the verbs of a real built-in type. */
  verbs?: string[];
  /**
   * Field paths (besides metadata.name and metadata.namespace, which always work) that a
   * fieldSelector may use, e.g. `status.phase` for pods. Others give 400 "field label not supported".
   */
  selectableFields?: string[];
}

/** A Kubernetes object as plain JSON. `metadata` is always present once stored. */
export interface KubeObjectJson {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string | null;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    managedFields?: unknown[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/**
 * Which kube-apiserver generation the server behaves as (transcripts: fixtures/apiserver for 1.26,
 * fixtures/apiserver-modern for 1.34; 1.33 is 1.34 with the WatchList gate off, its default).
 */
export type ServerVersion = '1.26' | '1.32' | '1.33' | '1.34';

export interface FakeApiServerOptions {
  /** Default '1.26'. */
  version?: ServerVersion;
  /** The WatchList feature gate; default on for 1.32 and 1.34, off for 1.33; never on 1.26. */
  watchList?: boolean;
  /**
   * Serve every watch as a plain watch, ignoring sendInitialEvents and resourceVersionMatch, as an
   * old server or a proxy that drops them would (no initial-events-end bookmark ever comes).
   */
  ignoreSendInitialEvents?: boolean;
  /** Default true (HTTPS with the committed test CA). false = plain HTTP (HTTP/1.1 only). */
  tls?: boolean;
  /**
   * With TLS: negotiate HTTP/2 by ALPN (falling back to HTTP/1.1 for clients without it),
   * advertising `maxConcurrentStreams` like a real 1.34 server. Default false (HTTP/1.1 only):
   * the fault tests that time an RST right after a write were written against the HTTP/1.1 server.
   */
  http2?: boolean;
  /** SETTINGS_MAX_CONCURRENT_STREAMS per HTTP/2 connection; default 100 (transcript apiserver-modern/09). */
  maxConcurrentStreams?: number;
  /** Required bearer token; default 'test-token'. Missing header -> 403 (anonymous), wrong -> 401. */
  token?: string;
  /** Max events kept in the watch history (default 1000); the oldest are dropped beyond it. */
  historyLimit?: number;
  /** Default true; bookmarks only with the watch cache; also selects the "too old" messages. */
  watchCache?: boolean;
  /** Milliseconds per server "second" (timeoutSeconds, min request timeout, Retry-After). Default 1000. */
  timeScale?: number;
  /** Default 60 * timeScale. */
  bookmarkIntervalMs?: number;
  /** Default 1800; a watch without timeoutSeconds ends after a random time in [min, 2*min) server seconds. */
  minRequestTimeoutSeconds?: number;
  /** Default 0 (ephemeral). The same port is kept across goDown/comeUp. */
  port?: number;
  /** Randomness for watch timeouts and uids; default Math.random. */
  random?: () => number;
  /** First value of the global resourceVersion counter (default 1). */
  initialResourceVersion?: number;
}

export interface KubeconfigOptions {
  token?: string;
  context?: string;
  user?: string;
  cluster?: string;
  insecureSkipTlsVerify?: boolean;
  namespace?: string;
}

/** A cause inside a Status' details. */
export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export type Fault =
  /** HTTP status + Status JSON body (+ Retry-After header and details.retryAfterSeconds). */
  | { type: 'status'; code: number; reason: string; message: string; retryAfterSeconds?: number; causes?: StatusCause[] }
  /** Watch only: 200, afterEvents real events (default 0), an ERROR event with a Status, then the end. */
  | { type: 'errorEvent'; code: number; reason: string; message: string; afterEvents?: number; retryAfterSeconds?: number }
  /** RST the TCP connection after afterEvents events (default 0: right after the headers); list: before answering. */
  | { type: 'reset'; afterEvents?: number }
  /** 200 + headers flushed, then nothing, never closed (half-open); list: never answered at all. */
  | { type: 'silent' }
  /** Watch only: 200 + headers, then the end at once with no events. */
  | { type: 'closeImmediately' }
  /** Watch only: this raw line (plus \n) after afterEvents events (default 0), then the stream goes on. */
  | { type: 'malformed'; line: string; afterEvents?: number }
  /** Close the connection before any response. */
  | { type: 'refuse' }
  /**
   * Headers with `code` (a Status body; the list itself for a 200 list), then only the first
   * `bytes` bytes of the body (default half), never ended: an error body that never ends, a proxy
   * stalling mid-body (F43).
   */
  | { type: 'stalledBody'; code: number; bytes?: number }
  /** List only: the list as aggregated API servers and proxies may send it: `items: null`, no metadata.resourceVersion (F48). */
  | { type: 'listShape'; itemsNull?: boolean; noResourceVersion?: boolean };

/** 'watchlist' is a watch with sendInitialEvents=true (a streaming list); 'list' faults match it too, 'watch' faults do not. */
export type FaultVerb = 'list' | 'watch' | 'watchlist';

/** Which requests a fault applies to. */
export interface FaultMatch {
  /** Default: list, watch and watchlist (watch-only fault types only ever match watches and watchlists). */
  verb?: FaultVerb;
  /** 'configmaps', 'deployments.apps', ...; default any resource. */
  resource?: string;
  /** How many requests it applies to; default 1; Infinity = until removed. */
  times?: number;
}

export interface FaultHandle {
  remove(): void;
  /** How many requests the fault was applied to so far. */
  readonly hits: number;
}

/** 'watchlist': a watch with sendInitialEvents=true (a streaming list, WatchList). */
export type RequestVerb = 'list' | 'watch' | 'watchlist' | 'get' | 'discovery' | 'other';

/** One request as the server saw it. `status` is 0 when no response was (yet) sent. */
export interface RequestRecord {
  verb: RequestVerb;
  method: string;
  path: string;
  /** 'configmaps', 'deployments.apps', ... for resource requests. */
  resource?: string;
  namespace?: string;
  name?: string;
  query: Record<string, string>;
  status: number;
  /** Date.now() when the request arrived. */
  at: number;
  /** The fault type applied to the request, if any. */
  faulted?: Fault['type'];
  /** SHA-256 fingerprint of the client certificate presented on the connection, if any. */
  clientCert?: string;
  /** The protocol the request came over. */
  protocol?: 'h2' | 'http/1.1';
  /** A write's body as it arrived (UTF-8) and its Content-Type, for tests that assert what a client sent. */
  body?: string;
  contentType?: string;
}

/** A watch event as written on the wire. */
export interface WatchEventJson {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Record<string, unknown>;
}
