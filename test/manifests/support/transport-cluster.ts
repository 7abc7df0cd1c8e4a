import { Emitter, systemClock, type Clock, type Disposable } from '../../../src/base';
import { Informer, type KubeTransport, type ResourceType } from '../../../src/informer';
import type { ObjectOrigin } from '../../../src/manager';
import type { KindResolution, ManifestCluster, ManifestTarget } from '../../../src/manifests/manifest-cluster';

/**
 * A manifests cluster on one transport, for tests without a WatchManager: the types given, a real
 * informer per object (a `metadata.name=` watch, as the manager's ad-hoc watches), writes on the
 * transport. `informers` counts those running.
 */
export function transportCluster(transport: KubeTransport, types: readonly ResourceType[], namespace: string, clock: Clock = systemClock): ManifestCluster & { running: Set<Informer> } {
  const running = new Set<Informer>();
  const changes = new Emitter<void>();
  const session = { spec: '', contextName: 'real' } as ObjectOrigin['session'];
  return {
    running,
    target: (): ManifestTarget => ({ spec: '', context: 'real', namespace }),
    resolve: async (_spec, apiVersion, kind): Promise<KindResolution> => {
      const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
      const type = types.find((t) => t.kind === kind && t.group === group);
      return type ? { type } : { unknown: `${kind} (${apiVersion})` };
    },
    watch(_spec, type, ns, name) {
      const informer = new Informer({ transport, type, namespace: ns || undefined, fieldSelector: `metadata.name=${name}`, clock, name: `manifest ${name}` });
      running.add(informer);
      informer.start();
      return {
        state: () => informer.state,
        object: () => informer.get(ns || undefined, name),
        onDidChange(listener): Disposable {
          const a = informer.addHandler({ name: 'test', onAdd: () => listener(), onUpdate: () => listener(), onDelete: () => listener() });
          const b = informer.onStateChange(() => listener());
          return { dispose: () => (a.dispose(), b.dispose()) };
        },
        dispose: () => {
          running.delete(informer);
          void informer.stop();
        },
      };
    },
    watchAll(_spec, type, ns) {
      const informer = new Informer({ transport, type, namespace: ns || undefined, clock, name: `manifests ${type.kind}` });
      running.add(informer);
      informer.start();
      return {
        state: () => informer.state,
        get: (name) => informer.get(ns || undefined, name),
        onDidChange(listener): Disposable {
          const a = informer.addHandler({ name: 'test', onAdd: (o) => listener(o.metadata.name), onUpdate: (_, o) => listener(o.metadata.name), onDelete: (o) => listener(o.metadata.name) });
          const b = informer.onStateChange(() => listener(undefined));
          return { dispose: () => (a.dispose(), b.dispose()) };
        },
        dispose: () => {
          running.delete(informer);
          void informer.stop();
        },
      };
    },
    origin: (_spec, object) => ({ context: 'real', server: transport.server, fingerprint: { cluster: 'c', user: 'u' }, uid: object?.metadata.uid ?? '', session }),
    write: <T>(_origin: ObjectOrigin, request: Parameters<NonNullable<KubeTransport['write']>>[0], signal: AbortSignal) => transport.write!<T>(request, signal),
    read: <T>(_origin: ObjectOrigin, path: string, signal: AbortSignal) => transport.getJson<T>(path, {}, signal),
    onDidChange: (listener) => changes.on(listener),
  };
}
