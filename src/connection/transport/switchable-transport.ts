import type { Disposable } from '../../base';
import type { KubeTransport, ListResponse, ParseHints, ReadOptions, UpgradedStream, UpgradeRequest, WatchCallbacks, WriteRequest } from '../../informer';
import { TransportError } from '../../base';

/**
 * A transport that forwards to an inner transport which can be replaced, so that informers
 * built on it survive a credential rotation (F21): swap the inner transport, restart the
 * informers (which aborts what the old one had in flight and relists through the new one,
 * keeping their caches), then dispose the old one.
 * Invariant: every request goes to the inner transport current when the request starts.
 */
export class SwitchableTransport implements KubeTransport {
  private inner: KubeTransport;

  constructor(inner: KubeTransport) {
    this.inner = inner;
  }

  get server(): string {
    return this.inner.server;
  }

  get protocol(): 'h2' | 'http/1.1' | undefined {
    return this.inner.protocol;
  }

  getJson<T = unknown>(path: string, query: Record<string, string>, signal: AbortSignal, options?: ReadOptions): Promise<T> {
    return this.inner.getJson<T>(path, query, signal, options);
  }

  list(path: string, query: Record<string, string>, signal: AbortSignal, hints?: ParseHints): Promise<ListResponse> {
    return this.inner.list(path, query, signal, hints);
  }

  /** The inner transport's item-by-item list, or its plain list when it has none. */
  async listStream(path: string, query: Record<string, string>, signal: AbortSignal, onItem: (item: unknown) => void, hints?: ParseHints): Promise<ListResponse> {
    const inner = this.inner;
    if (inner.listStream) return inner.listStream(path, query, signal, onItem, hints);
    const list = await inner.list(path, query, signal, hints);
    for (const item of list.items ?? []) onItem(item);
    return { ...list, items: [] };
  }

  stream(path: string, query: Record<string, string>, signal: AbortSignal, onChunk: (chunk: Buffer) => void, onOpen?: () => void): Promise<void> {
    return this.inner.stream(path, query, signal, onChunk, onOpen);
  }

  watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: ParseHints): Promise<void> {
    return this.inner.watch(path, query, signal, callbacks, hints);
  }

  /** A WebSocket upgrade on the inner transport current now; rejects when it has none. */
  upgrade(request: UpgradeRequest, signal: AbortSignal): Promise<UpgradedStream> {
    return this.inner.upgrade ? this.inner.upgrade(request, signal) : Promise.reject(new Error('this connection cannot open streams (port-forward, exec)'));
  }

  /** The inner transport's write; one without writes refuses with a TransportError (ENOTSUP). */
  async write<T = unknown>(request: WriteRequest, signal: AbortSignal): Promise<T> {
    const inner = this.inner;
    if (!inner.write) throw new TransportError(`the connection to ${inner.server} cannot write`, 'ENOTSUP');
    return inner.write<T>(request, signal);
  }

  /** Forwards to the inner transport current at subscription (a sleep subscribes anew each time). */
  onReachable(listener: () => void): Disposable {
    return this.inner.onReachable?.(listener) ?? { dispose: () => undefined };
  }

  /** Makes `next` the inner transport and returns the previous one, which the caller disposes. */
  swap(next: KubeTransport): KubeTransport {
    const previous = this.inner;
    this.inner = next;
    return previous;
  }

  dispose(): void {
    this.inner.dispose();
  }
}
