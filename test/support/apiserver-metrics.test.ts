import assert from 'node:assert/strict';
import * as https from 'node:https';
import { FakeApiServer, NODES } from './apiserver';
import { podObject } from '../../scripts/sandbox/simulated-cluster';

/** GET on the local API server with its token; the status and the parsed (or plain) body. */
function get(server: FakeApiServer, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.request(`${server.url}${path}`, { ca: server.caPem, headers: { Authorization: `Bearer ${server.acceptedToken}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // plain text (a 404 of an unknown group)
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local API server: metrics.k8s.io as metrics-server serves it', () => {
  let server: FakeApiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('served: in discovery (get, list), PodMetrics of running pods per namespace and NodeMetrics, with timestamp, window and usage; new samples change', async () => {
    server = await FakeApiServer.start();
    server.defineResource(NODES);
    server.metrics.mode = 'served';
    let now = Date.parse('2026-11-28T10:00:07Z');
    server.metrics.now = () => now;
    server.create('pods', podObject('shop', 'web-1'));
    server.create('pods', podObject('shop', 'web-2', { phase: 'Pending' }));
    server.create('pods', podObject('batch', 'job-1'));
    server.create('nodes', { metadata: { name: 'node-1' } });

    const groups = (await get(server, '/apis')).body as { groups: { name: string; preferredVersion: { groupVersion: string } }[] };
    assert.equal(groups.groups.find((g) => g.name === 'metrics.k8s.io')?.preferredVersion.groupVersion, 'metrics.k8s.io/v1beta1');
    const resources = (await get(server, '/apis/metrics.k8s.io/v1beta1')).body as { resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[] };
    assert.deepEqual(resources.resources.map((r) => [r.name, r.kind, r.namespaced, r.verbs.join(',')]), [['pods', 'PodMetrics', true, 'get,list'], ['nodes', 'NodeMetrics', false, 'get,list']]);

    const list = (await get(server, '/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods')).body as { kind: string; apiVersion: string; items: { metadata: { name: string; namespace: string }; timestamp: string; window: string; containers: { name: string; usage: { cpu: string; memory: string } }[] }[] };
    assert.equal(list.kind, 'PodMetricsList');
    assert.equal(list.apiVersion, 'metrics.k8s.io/v1beta1');
    assert.deepEqual(list.items.map((i) => i.metadata.name), ['web-1'], 'only running pods have samples');
    const item = list.items[0];
    assert.equal(item.timestamp, '2026-11-28T10:00:00Z', 'the start of the 15 s sample');
    assert.equal(item.window, '15.012s');
    assert.equal(item.containers[0].name, 'main');
    assert.match(item.containers[0].usage.cpu, /^\d+n$/);
    assert.match(item.containers[0].usage.memory, /^\d+Ki$/);
    const all = (await get(server, '/apis/metrics.k8s.io/v1beta1/pods')).body as { items: { metadata: { namespace: string } }[] };
    assert.deepEqual(all.items.map((i) => i.metadata.namespace).sort(), ['batch', 'shop']);
    const node = (await get(server, '/apis/metrics.k8s.io/v1beta1/nodes/node-1')).body as { kind?: string; usage: { cpu: string; memory: string }; window: string };
    assert.match(node.usage.cpu, /^\d+n$/);
    assert.equal(node.window, '20.05s');

    const samples = new Set<string>([item.containers[0].usage.cpu]);
    for (let i = 1; i <= 4; i++) {
      now += 15_000;
      const next = (await get(server, '/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods')).body as typeof list;
      samples.add(next.items[0].containers[0].usage.cpu);
    }
    assert.ok(samples.size >= 3, `new samples move: ${[...samples].join(', ')}`);
    assert.equal((await get(server, '/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods/nope')).status, 404);
  });

  it('absent: not in discovery, 404 as the aggregator answers; forbidden: RBAC\'s 403 for the user', async () => {
    server = await FakeApiServer.start();
    server.create('pods', podObject('shop', 'web-1'));
    const groups = (await get(server, '/apis')).body as { groups: { name: string }[] };
    assert.ok(!groups.groups.some((g) => g.name === 'metrics.k8s.io'), 'a bare server has no metrics API');
    assert.equal((await get(server, '/apis/metrics.k8s.io/v1beta1')).status, 404);
    assert.equal((await get(server, '/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods')).status, 404);

    server.metrics.mode = 'forbidden';
    server.access.user = 'jane';
    const refused = await get(server, '/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods');
    assert.equal(refused.status, 403);
    const status = refused.body as { kind: string; reason: string; message: string; code: number };
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'Forbidden');
    assert.equal(status.message, 'pods.metrics.k8s.io is forbidden: User "jane" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "shop"');
  });
});
