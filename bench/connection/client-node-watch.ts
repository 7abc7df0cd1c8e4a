/**
 * `@kubernetes/client-node`'s informer on the ConfigMaps of one namespace, the way its README
 * shows it (makeInformer; restart 5 s after an 'error' event, as its informer example does),
 * printing one JSON line per event in the CLI's shape, so that bench/connection/heal-real.ts
 * can drive it like the CLI (stop it with SIGSTOP, read its lines).
 *   node --import tsx bench/connection/client-node-watch.ts KUBECONFIG NAMESPACE
 * Needs Node 22.19 or newer (client-node 2.0's undici): run it with node_modules/.bin/node.
 */
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';

const [kubeconfig, namespace] = process.argv.slice(2);
const kc = new KubeConfig();
kc.loadFromFile(kubeconfig);
const core = kc.makeApiClient(CoreV1Api);
const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => core.listNamespacedConfigMap({ namespace }));
const line = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...o, at: new Date().toISOString() })}\n`);
const meta = (o: V1ConfigMap) => ({ namespace: o.metadata?.namespace, name: o.metadata?.name, resourceVersion: o.metadata?.resourceVersion });
informer.on('add', (o) => line({ event: 'add', ...meta(o) }));
informer.on('update', (o) => line({ event: 'update', ...meta(o) }));
informer.on('delete', (o) => line({ event: 'delete', ...meta(o) }));
informer.on('connect', () => line({ lifecycle: 'watch-opened' }));
informer.on('error', (err: unknown) => {
  line({ lifecycle: 'error', reason: err instanceof Error ? err.message.split('\n')[0] : String(err) });
  setTimeout(() => void informer.start(), 5000);
});
void informer.start();
process.on('SIGTERM', () => {
  void informer.stop();
  process.exit(0);
});
