import type { KubeObject } from './kube-object';

/** One page of a LIST response. */
export interface ListResponse {
  kind?: string;
  apiVersion?: string;
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: unknown[];
}

export interface WatchCallbacks {
  /** Response headers arrived with 200: the watch is open. */
  onOpen(): void;
  /** One line of the stream, parsed once. `parsed` is undefined when the line is not JSON. */
  onLine(parsed: unknown, raw: string): void;
  /** Bytes arrived (a cheap signal for the no-data deadline). */
  onData(): void;
}

/**
 * How the engine talks to one cluster. A transport owns its connections: `dispose()` closes
 * every socket it opened. Implementations reject with ApiError (the server said no),
 * TransportError (the network failed) or AbortedError (the signal fired).
 */
export interface KubeTransport {
  /** A label for logs: the server URL, never a credential. */
  readonly server: string;
  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal): Promise<T>;
  list(path: string, query: Record<string, string>, signal: AbortSignal): Promise<ListResponse>;
  /** Resolves when the server ends the stream cleanly. */
  watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks): Promise<void>;
  dispose(): void;
}

export type { KubeObject };
