/**
 * B7's client process: 250 informers (ours or @kubernetes/client-node's) on the cluster of the
 * kubeconfig the parent passes in KUBE_WATCH_B7_KUBECONFIG. It reports its heap growth (after gc)
 * once every informer has synced, keeps its watches open until the parent has counted the
 * server's connections, then stops everything it started and exits. One client per process, so
 * the heap figure holds the client alone (the server lives in the parent).
 */
import { AppsV1Api, CoreV1Api, KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { Informer } from '../../src/informer/informer';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { B7_NAMESPACES, B7_TYPES, type B7ClientReport } from './b7-shape';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function main(): Promise<void> {
  const which = process.argv[2] === 'reference' ? 'reference' : 'ours';
  const kc = new KubeConfig();
  kc.loadFromString(process.env.KUBE_WATCH_B7_KUBECONFIG ?? '');
  const before = heap();
  const started = performance.now();
  let stop: () => Promise<unknown>;
  if (which === 'ours') {
    const transport = new KubeConfigTransport(kc);
    const informers: Informer[] = [];
    for (let n = 0; n < B7_NAMESPACES; n++) for (const type of B7_TYPES) informers.push(new Informer({ transport, type, namespace: `ns-${n}` }));
    for (const i of informers) i.start();
    await Promise.all(informers.map((i) => i.waitForSync(300_000)));
    stop = async () => {
      await Promise.all(informers.map((i) => i.stop()));
      transport.dispose();
    };
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
    for (let n = 0; n < B7_NAMESPACES; n++)
      for (const t of B7_TYPES) {
        const path = `${t.group ? `/apis/${t.group}/${t.version}` : '/api/v1'}/namespaces/ns-${n}/${t.resource}`;
        informers.push(makeInformer(kc, path, lists[t.resource](`ns-${n}`)));
      }
    await Promise.all(informers.map((i) => i.start()));
    stop = () => Promise.all(informers.map((i) => i.stop()));
  }
  const syncedMs = performance.now() - started;
  // The parent waits for every watch to be open on the server before it counts; the heap is
  // measured when it asks, so the open watches are in it.
  process.on('message', (m: unknown) => {
    if (m === 'measure') {
      const report: B7ClientReport = { informers: B7_NAMESPACES * B7_TYPES.length, syncedMs, heapGrowth: heap() - before };
      process.send?.(report);
    } else if (m === 'stop') {
      void stop().then(() => process.exit(0));
    }
  });
  process.send?.('synced');
}

main().catch((err: unknown) => {
  process.stderr.write(`B7 client failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
