/**
 * B7: 250 informers on one cluster (50 namespaces x 5 types) against the local API server
 * speaking HTTP/2 with 100 streams per connection. Prints the TCP connections the server holds
 * and the heap growth (after gc) once every informer has synced, for ours or for
 * @kubernetes/client-node's informer (one client per process, so heaps do not mix):
 *   node --expose-gc --import tsx bench/connection/b7-connections.ts ours
 *   node --expose-gc --import tsx bench/connection/b7-connections.ts reference
 * Target: ceil(250/100) = 3 connections; heap at most the reference's.
 */
import { AppsV1Api, CoreV1Api, KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { Informer } from '../../src/informer/informer';
import { KubeConfigTransport } from '../../src/informer/kubeconfig-transport';
import type { ResourceType } from '../../src/informer/resource-type';
import { FakeApiServer } from '../../test/support/apiserver';

const NAMESPACES = 50;
const PER_TYPE_AND_NAMESPACE = 4;
const which = process.argv[2] === 'reference' ? 'reference' : 'ours';

const types: ResourceType[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
];

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function main(): Promise<void> {
  const server = await FakeApiServer.start({ http2: true });
  for (let n = 0; n < NAMESPACES; n++)
    for (const t of types)
      for (let i = 0; i < PER_TYPE_AND_NAMESPACE; i++) server.create(t.group ? `${t.resource}.${t.group}` : t.resource, { metadata: { name: `${t.resource}-${i}`, namespace: `ns-${n}` } });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig());
  const before = heap();
  const started = performance.now();
  const stops: (() => Promise<unknown> | void)[] = [];
  if (which === 'ours') {
    const transport = new KubeConfigTransport(kc);
    const informers: Informer[] = [];
    for (let n = 0; n < NAMESPACES; n++) for (const type of types) informers.push(new Informer({ transport, type, namespace: `ns-${n}` }));
    for (const i of informers) i.start();
    await Promise.all(informers.map((i) => i.waitForSync(120_000)));
    await until(() => server.openWatches() === informers.length);
    stops.push(async () => {
      await Promise.all(informers.map((i) => i.stop()));
      transport.dispose();
    });
  } else {
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    const lists: Record<string, (namespace: string) => () => Promise<{ items: KubernetesObject[] }>> = {
      configmaps: (namespace) => () => core.listNamespacedConfigMap({ namespace }),
      pods: (namespace) => () => core.listNamespacedPod({ namespace }),
      secrets: (namespace) => () => core.listNamespacedSecret({ namespace }),
      services: (namespace) => () => core.listNamespacedService({ namespace }),
      deployments: (namespace) => () => apps.listNamespacedDeployment({ namespace }),
    };
    const informers: ReturnType<typeof makeInformer>[] = [];
    for (let n = 0; n < NAMESPACES; n++)
      for (const t of types) {
        const path = `${t.group ? `/apis/${t.group}/${t.version}` : '/api/v1'}/namespaces/ns-${n}/${t.resource}`;
        informers.push(makeInformer(kc, path, lists[t.resource](`ns-${n}`)));
      }
    await Promise.all(informers.map((i) => i.start()));
    await until(() => server.openWatches() === informers.length);
    stops.push(() => Promise.all(informers.map((i) => i.stop())));
  }
  const syncedMs = performance.now() - started;
  const grown = heap() - before;
  console.log(
    `B7 ${which}: ${NAMESPACES * types.length} informers synced and watching in ${Math.round(syncedMs)} ms; ` +
      `TCP connections to the server: ${server.openSockets()}; HTTP/2 streams open: ${server.streamStats.open}; heap growth after gc: ${(grown / 2 ** 20).toFixed(1)} MiB`,
  );
  for (const s of stops) await s();
  await server.close();
  process.exit(0);
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
}

void main();
