import { strict as assert } from 'node:assert';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import type { KubeObjectJson } from '../support/apiserver';

const SLICES = 'endpointslices.discovery.k8s.io';

async function until(what: () => string, cond: () => boolean, boundMs = 20_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Endpoint = { addresses: string[]; conditions: { ready: boolean }; targetRef: { kind: string; name: string } };
const endpointsOf = (slice: KubeObjectJson | undefined) => ((slice?.endpoints ?? []) as Endpoint[]).map((e) => `${e.targetRef.name}:${e.conditions.ready ? 'ready' : 'not-ready'}`);

describe('sandbox: the EndpointSlice controller of the simulated cluster', function () {
  this.timeout(60_000);
  let cluster: SimulatedCluster;

  before(async () => {
    cluster = await SimulatedCluster.start({ podLogEveryMs: 0 });
  });

  after(async () => {
    await cluster?.stop();
  });

  const sliceOf = (namespace: string, service: string) => cluster.server.list(SLICES, namespace).find((s) => s.metadata.labels?.['kubernetes.io/service-name'] === service);

  it('keeps one EndpointSlice per Service with a selector, labelled, owned by it, current with its Pods', async () => {
    const web = sliceOf('shop', 'web');
    assert.ok(web, 'shop/web has its slice');
    assert.match(web.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.equal(web.metadata.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
    assert.deepEqual((web.metadata.ownerReferences as { kind: string; name: string }[]).map((o) => `${o.kind}/${o.name}`), ['Service/web']);
    assert.equal(web.addressType, 'IPv4');
    assert.deepEqual(web.ports, [{ name: '', port: 80, protocol: 'TCP' }]);
    assert.deepEqual(endpointsOf(web), ['web-7d9f8b6c4-2xkqp:ready', 'web-7d9f8b6c4-q8m5z:ready']);
    assert.deepEqual(endpointsOf(sliceOf('payments', 'ledger')), ['ledger-6d5f7c8b9-b7n2k:ready', 'ledger-6d5f7c8b9-z9w4c:not-ready'], 'the crash-looping Pod is not ready');
    assert.equal(sliceOf('default', 'kubernetes'), undefined, 'a Service without a selector has no controller-managed slice');

    cluster.createPod('shop', 'web-7d9f8b6c4-n3w9p', { labels: { app: 'web', 'pod-template-hash': '7d9f8b6c4' } });
    await until(() => JSON.stringify(endpointsOf(sliceOf('shop', 'web'))), () => endpointsOf(sliceOf('shop', 'web')).length === 3);
    assert.equal(sliceOf('shop', 'web')?.metadata.name, web.metadata.name, 'the same slice, updated');
    cluster.updatePod('shop', 'web-7d9f8b6c4-n3w9p', { phase: 'Running', ready: false });
    await until(() => JSON.stringify(endpointsOf(sliceOf('shop', 'web'))), () => endpointsOf(sliceOf('shop', 'web')).includes('web-7d9f8b6c4-n3w9p:not-ready'));
    cluster.deletePod('shop', 'web-7d9f8b6c4-n3w9p');
    await until(() => JSON.stringify(endpointsOf(sliceOf('shop', 'web'))), () => endpointsOf(sliceOf('shop', 'web')).length === 2);

    cluster.server.delete('services', 'shop', 'web');
    await until(() => 'the slice of the deleted Service to go', () => sliceOf('shop', 'web') === undefined);
  });
});
