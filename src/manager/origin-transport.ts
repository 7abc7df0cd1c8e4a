import type { KubeTransport, ListResponse, ParseHints, ReadOptions, UpgradedStream, UpgradeRequest, WatchCallbacks, WriteRequest } from '../informer/transport';
import { isOriginRefusal, type ObjectOrigin, type OriginResolution } from './object-origin';

/**
 * A KubeTransport for a long-lived stream user (a port-forward, a shell, a log follower) pinned to
 * the origin it was started on: each request goes to that origin's connection at the time of the
 * request (`resolveOrigin`: the same cluster and user, across a credential rotation), never to
 * whatever the entry's context means now. After the current context switched to another cluster,
 * every request fails with the refusal's words (WRITES.md W01: a forward's or a shell's target is
 * a write; a log of another cluster's pod would lie), and the user retries it on the new context.
 */
export class OriginTransport implements KubeTransport {
  constructor(
    private readonly origin: ObjectOrigin | undefined,
    private readonly resolve: (origin: ObjectOrigin) => OriginResolution,
    private readonly what: string,
  ) {}

  private current(): KubeTransport | string {
    if (!this.origin) return `no connection to the cluster of ${this.what}`;
    const r = this.resolve(this.origin);
    return isOriginRefusal(r) ? r.refused : r.transport;
  }

  private inner(): KubeTransport {
    const t = this.current();
    if (typeof t === 'string') throw new Error(t);
    return t;
  }

  get server(): string {
    return this.origin?.server ?? '';
  }

  get protocol(): 'h2' | 'http/1.1' | undefined {
    const t = this.current();
    return typeof t === 'string' ? undefined : t.protocol;
  }

  async getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal, options?: ReadOptions): Promise<T> {
    return this.inner().getJson<T>(path, query, signal, options);
  }

  async list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    return this.inner().list(path, query, signal, hints);
  }

  async watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void> {
    return this.inner().watch(path, query, signal, callbacks, hints);
  }

  /** Port-forward and exec streams on the context's transport of the moment. */
  async upgrade(request: UpgradeRequest, signal: AbortSignal): Promise<UpgradedStream> {
    const inner = this.inner();
    if (!inner.upgrade) throw new Error(`the connection to the cluster of ${this.what} cannot open streams`);
    return inner.upgrade(request, signal);
  }

  /** A write that belongs to the stream (a debug container's patch) on the origin's connection of the moment. */
  async write<T = unknown>(request: WriteRequest, signal: AbortSignal): Promise<T> {
    const inner = this.inner();
    if (!inner.write) throw new Error(`the connection to the cluster of ${this.what} cannot write`);
    return inner.write<T>(request, signal);
  }

  async stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    return this.inner().stream(path, query, signal, onChunk, onOpen);
  }

  /** The manager owns the transports: nothing to release here. */
  dispose(): void {}
}
