import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { KubeTransport, WatchCallbacks } from '../../src/informer/transport';
import { FakeApiServer } from './apiserver';

/**
 * A local API server of `version` with 5 ConfigMaps (a1, a2, a3 in `a`; b1, b2 in `b`) and a
 * HeldTransport to it; what must be closed is pushed onto `cleanups`.
 */
export async function heldConfigMapServer(version: '1.26' | '1.34', cleanups: (() => unknown)[]): Promise<{ server: FakeApiServer; held: HeldTransport }> {
  const server = await FakeApiServer.start({ version });
  cleanups.push(() => server.close());
  for (const [ns, name] of [['a', 'a1'], ['a', 'a2'], ['b', 'b1'], ['a', 'a3'], ['b', 'b2']]) server.create('configmaps', { metadata: { name, namespace: ns }, data: { k: name } });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig());
  const real = new KubeConfigTransport(kc);
  cleanups.push(() => real.dispose());
  return { server, held: new HeldTransport(real) };
}

/**
 * The real transport to the local API server, with list pages and streaming-list lines held back
 * where a test says: the list stays in progress, for as long as the test needs, at a known point.
 */
export class HeldTransport {
  readonly transport: KubeTransport;
  /** List requests made so far. */
  lists = 0;
  /** List requests from this one on wait for `release()`. */
  holdListFrom = Number.POSITIVE_INFINITY;
  /** Streaming-list lines after this many are held until `release()`. */
  holdLinesAfter = Number.POSITIVE_INFINITY;
  /** A list request (its number) or lines are held now. */
  held: number | 'lines' | undefined;
  private lines = 0;
  private waiting: (() => void)[] = [];
  private released = false;

  constructor(readonly real: KubeConfigTransport) {
    this.transport = new Proxy(real, {
      get: (target, prop) => {
        if (prop === 'list') return this.list.bind(this);
        if (prop === 'watch') return this.watch.bind(this);
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** Lets what is held go on; later requests and lines pass (until the next hold). */
  release(): void {
    this.held = undefined;
    this.released = true;
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w();
  }

  private async list(...args: Parameters<KubeTransport['list']>): ReturnType<KubeTransport['list']> {
    const n = ++this.lists;
    if (n >= this.holdListFrom) {
      this.holdListFrom = Number.POSITIVE_INFINITY;
      this.held = n;
      const signal = args[2];
      // Held until released, or until the informer gives the request up (stopped).
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return this.real.list(...args);
  }

  private watch(path: string, query: Record<string, string>, signal: AbortSignal, callbacks: WatchCallbacks, hints?: Parameters<KubeTransport['watch']>[4]): Promise<void> {
    const queue: (() => void)[] = [];
    const onLine: WatchCallbacks['onLine'] = (parsed, text) => {
      if (!this.released && ++this.lines > this.holdLinesAfter) {
        this.held = 'lines';
        if (queue.length === 0) this.waiting.push(() => queue.splice(0).forEach((f) => f()));
        queue.push(() => callbacks.onLine(parsed, text));
        return;
      }
      callbacks.onLine(parsed, text);
    };
    return this.real.watch(path, query, signal, { ...callbacks, onLine }, hints);
  }
}
