import type { Disposable } from '../base/disposable';
import type { KubeObject } from './kube-object';

/** One page of a LIST response. */
export interface ListResponse {
  kind?: string;
  apiVersion?: string;
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: unknown[];
}

/** What the caller will do with the objects, so that a transport may skip work. Transports may ignore hints. */
export interface ParseHints {
  /**
   * The caller drops `metadata.managedFields` (the default transform): a transport may leave
   * them out of list items and watch event objects (see managed-fields.ts).
   */
  dropManagedFields?: boolean;
  /**
   * The caller reads only `metadata` (names, labels, resourceVersions): the transport asks for
   * the objects as `meta.k8s.io/v1` PartialObjectMetadata (lists) through the Accept header, as
   * client-go's metadata informer does, so that the server never sends their payload. A server
   * that cannot answer so sends whole objects (the header falls back to `application/json`).
   */
  metadataOnly?: boolean;
}

/** client-go's metadata client (metadata/metadata.go), JSON only: the Accept of a metadata-only LIST. */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** The Accept of a metadata-only WATCH (and GET): each event's object is a PartialObjectMetadata. */
export const METADATA_OBJECT_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

export interface WatchCallbacks {
  /** Response headers arrived with 200: the watch is open. */
  onOpen(): void;
  /**
   * One line of the stream, parsed once. `parsed` is undefined when the line is not JSON.
   * `text()` gives the line as received (decoded only when asked, for messages); it may be
   * called only during this call (the bytes behind it are reused afterwards).
   */
  onLine(parsed: unknown, text: () => string): void;
  /** Bytes arrived (a cheap signal for the no-data deadline). */
  onData(): void;
}

/** The body types a write may carry. */
export type WriteContentType =
  | 'application/json'
  | 'application/merge-patch+json'
  | 'application/strategic-merge-patch+json'
  | 'application/json-patch+json'
  | 'application/apply-patch+yaml';

/** A request that changes something on the server, answered with one JSON body. */
export interface WriteRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** e.g. /apis/apps/v1/namespaces/shop/deployments/web/scale */
  path: string;
  /** dryRun=All, fieldManager=kube-watch, force=true, gracePeriodSeconds, propagationPolicy, ... */
  query?: Record<string, string>;
  /** The body as sent (JSON text, or YAML for apply patches). */
  body?: string;
  /** Default `application/json` when there is a body. */
  contentType?: WriteContentType;
  /** The answer's integers beyond 2^53 as BigInts, exact (an edit's writes, W11); default JSON.parse's doubles. */
  exactIntegers?: boolean;
}

/** How a GET's answer is read. */
export interface ReadOptions {
  /** Integers beyond 2^53 as BigInts, exact (an edit's reads, W11); default JSON.parse's doubles. */
  exactIntegers?: boolean;
}

/**
 * The TransportError code of a request whose connection the transport replaced by a fresh one
 * that answers (after a wake, F24): the network is there, so the engine retries at once.
 */
export const CONNECTION_REPLACED = 'ECONNREPLACED';

/**
 * How the engine talks to one cluster. A transport owns its connections: `dispose()` closes
 * every socket it opened. Implementations reject with ApiError (the server said no),
 * TransportError (the network failed) or AbortedError (the signal fired).
 */
export interface KubeTransport {
  /** A label for logs: the server URL, never a credential. */
  readonly server: string;
  /** Optional: 'h2' or 'http/1.1' once the first connection settled it (tooltip, inspect report, log). */
  readonly protocol?: 'h2' | 'http/1.1';
  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal, options?: ReadOptions): Promise<T>;
  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse>;
  /**
   * Optional: a LIST whose items are handed to `onItem` one by one as they arrive, so that a
   * large unpaginated list is never held whole as text next to its parsed copy. Resolves with the
   * list without its items. One item (or the rest of the body) above the transport's byte bound
   * fails the request. The engine uses it for unpaginated lists when present, else `list`.
   */
  listStream?(path: string, query: Record<string, string>, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse>;
  /** Resolves when the server ends the stream cleanly. */
  watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void>;
  /**
   * Optional: `listener` runs when the cluster answers again after network failures, so an
   * informer waiting in backoff retries at once (one reachability per cluster).
   */
  onReachable?(listener: () => void): Disposable;

  /**
   * A GET whose 200 body is handed over as it arrives (pod logs). Resolves when the server ends
   * the body cleanly; a non-200 answer rejects with ApiError before any chunk. `onOpen` runs
   * when the 200 headers arrive.
   */
  stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void>;
  /**
   * Optional: a WebSocket upgrade (HTTP/1.1) of a GET on the cluster's credentials (401
   * refreshed), TLS identity, proxy route and reachability: pod port-forward and exec. Resolves
   * once the server switched protocols; a refusal rejects with ApiError (the Status the server
   * sent), a network failure with TransportError, an abort with AbortedError.
   */
  upgrade?(request: UpgradeRequest, signal: AbortSignal): Promise<UpgradedStream>;

  /**
   * Optional: a write. Resolves with the parsed 2xx body; rejects with ApiError (the server's
   * Status: code, reason, message, details.causes) for any other answer, TransportError or
   * AbortedError as the rest. Same credentials (401 refreshed once), TLS identity, proxy route,
   * connections and reachability as the reads, with a deadline; never retried by itself (a write
   * is not idempotent: the caller decides). Never logs its body or a credential.
   */
  write?<T = unknown>(request: WriteRequest, signal: AbortSignal): Promise<T>;
  dispose(): void;
}

/** What `KubeTransport.upgrade` opens: a path, its query (repeated keys as arrays) and the WebSocket subprotocols offered, best first. */
export interface UpgradeRequest {
  readonly path: string;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly protocols: readonly string[];
}

/**
 * An open WebSocket, framed by its user (the kubelet's channels). Messages arrive whole, text
 * or binary, as bytes. `onClose` runs once: with undefined after a clean close, else with the
 * TransportError that ended it (a reset, a connection that stopped answering its PING).
 * Invariant: after `onClose` ran nothing is sent or received, and no socket or timer of it is left.
 */
export interface UpgradedStream {
  /** The subprotocol the server chose ('' when it chose none). */
  readonly protocol: string;
  /** Bytes handed to `send` and not yet written to the socket (back-pressure). */
  readonly bufferedAmount: number;
  send(data: Buffer, onWritten?: (err?: Error) => void): void;
  onMessage(listener: (data: Buffer) => void): Disposable;
  onClose(listener: (error: Error | undefined) => void): Disposable;
  /** Stops reading from the socket (the local side cannot take more) until `resume`. */
  pause(): void;
  resume(): void;
  /** A clean close (code 1000). */
  close(): void;
  /** Ends the socket at once. */
  destroy(): void;
}

export type { KubeObject };
