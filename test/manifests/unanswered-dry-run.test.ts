import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock } from '../../src/base/clock';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { ResourceType } from '../../src/informer';
import { ManifestEngine } from '../../src/manifests/manifest-engine';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';
import { transportCluster } from './support/transport-cluster';

const CONFIGMAPS: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

/**
 * A dry run the server never judged (the connection failed, the server was too busy) is no
 * verdict on the document: its lens says the comparison got no answer and is tried again, never
 * "invalid", and the next answer decides.
 */
describe('manifests: a dry run without an answer (local API server)', function () {
  this.timeout(30_000);
  let server: FakeApiServer;
  let transport: KubeConfigTransport;
  beforeEach(async () => {
    server = await FakeApiServer.start({ http2: process.env.FAKE_APISERVER_HTTP2 === '1' });
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig());
    transport = new KubeConfigTransport(kc);
  });
  afterEach(async () => {
    transport.dispose();
    await server.close();
  });

  for (const failure of [
    { what: 'a reset connection', error: () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) },
  ]) {
    it(`${failure.what}: "no answer … trying again", never invalid; in sync once the server answers`, async () => {
      server.create('configmaps', { metadata: { name: 'app', namespace: 'default' }, data: { a: '1' } });
      const cluster = transportCluster(transport, [CONFIGMAPS], 'default');
      let writes = 0;
      const write = cluster.write.bind(cluster);
      cluster.write = (origin, request, signal) => (++writes <= 2 ? Promise.reject(failure.error()) : write(origin, request, signal));
      // 20x: the engine's retries (1 s, then 2 s) come after 50 and 100 ms.
      const engine = new ManifestEngine(cluster, { clock: acceleratedClock(20), debounceMs: 0 });
      const uri = 'file:///w/app.yaml';
      const seen: string[] = [];
      const sub = engine.onDidChange(() => {
        const s = engine.view(uri)?.documents[0]?.state;
        if (s) seen.push(s.kind === 'checking' ? `checking: ${s.why}` : s.kind);
      });
      try {
        engine.update(uri, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: default\ndata:\n  a: "1"\n');
        await until(() => engine.view(uri)?.documents[0]?.state.kind === 'in-sync', () => `in sync; seen ${JSON.stringify(seen)}`);
        assert.ok(seen.some((s) => /^checking: no answer to the comparison \(.*socket hang up.*\); trying again$/.test(s)), JSON.stringify(seen));
        assert.ok(!seen.includes('invalid'), `never invalid: ${JSON.stringify(seen)}`);
        assert.equal(writes, 3, 'asked again until answered');
      } finally {
        sub.dispose();
        engine.dispose();
      }
    });
  }
});
