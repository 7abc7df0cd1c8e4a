import type { KubeTransport, ListResponse, ParseHints, ReadOptions, UpgradedStream, UpgradeRequest, WatchCallbacks } from '../../informer/transport';

/**
 * A KubeTransport that forwards each request to the transport the manager holds for an entry's
 * context at the time of the request, so a log follower keeps working across a credential
 * rotation or a context switch (the old transport is disposed then). With no usable transport a
 * request fails with a one-line reason, and the follower retries with its backoff.
 */
export class EntryTransport implements KubeTransport {
  constructor(
    private readonly current: () => KubeTransport | undefined,
    private readonly what: string,
  ) {}

  private inner(): KubeTransport {
    const t = this.current();
    if (!t) throw new Error(`no connection to the cluster of ${this.what}`);
    return t;
  }

  get server(): string {
    return this.current()?.server ?? '';
  }

  get protocol(): 'h2' | 'http/1.1' | undefined {
    return this.current()?.protocol;
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

  async stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    return this.inner().stream(path, query, signal, onChunk, onOpen);
  }

  /** The manager owns the transports: nothing to release here. */
  dispose(): void {}
}
