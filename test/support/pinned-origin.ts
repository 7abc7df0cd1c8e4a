import type { EditTarget } from '../../src/edit';
import type { KubeTransport, WriteRequest } from '../../src/informer';
import type { ObjectOrigin, OriginResolution } from '../../src/manager';

/**
 * An edit pinned to one transport, for tests without a WatchManager: the origin is a context
 * `context` on `transport`'s server, and it resolves to `transport` until `refuse(words)` is
 * called (as a context switch would make it). Every write request is recorded in `sent`.
 */
export function pinnedTo(transport: KubeTransport, context = 'test'): Pick<EditTarget, 'origin' | 'connect'> & { sent: WriteRequest[]; refuse(words: string): void } {
  const sent: WriteRequest[] = [];
  let refused: string | undefined;
  const recording = overriding(transport, { write: <T>(request: WriteRequest, signal: AbortSignal) => (sent.push(request), transport.write!<T>(request, signal)) });
  // A ContextSession stand-in: only resolveOrigin looks inside it, and it is not used here.
  const session = { spec: '', contextName: context } as ObjectOrigin['session'];
  const origin: ObjectOrigin = { context, server: transport.server, fingerprint: { cluster: 'cluster', user: 'user' }, uid: '', session };
  return {
    origin,
    sent,
    connect: (): OriginResolution => (refused ? { refused } : { transport: recording, context }),
    refuse: (words) => {
      refused = words;
    },
  };
}

/** `inner` with some methods replaced; every other member read from `inner` itself (its methods bound to it). */
export function overriding(inner: KubeTransport, overrides: Partial<Pick<KubeTransport, 'write' | 'getJson'>>): KubeTransport {
  return new Proxy(inner, {
    get(target, prop) {
      if (prop in overrides) return overrides[prop as keyof typeof overrides];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
