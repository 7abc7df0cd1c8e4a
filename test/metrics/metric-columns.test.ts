import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { formatMilliCores } from '../../src/metrics';
import { MetricColumnSource } from '../../src/ui/metrics';
import type { ExtraColumnChange } from '../../src/ui/table/extra-columns';
import { replicaSetObject } from '../../scripts/sandbox/simulated-cluster';
import { MetricsRig, PROTOCOLS } from './metrics-rig';

const POD = { group: '', kind: 'Pod' };
const NODE = { group: '', kind: 'Node' };
const DEPLOYMENT = { group: 'apps', kind: 'Deployment' };

/** The ExtraColumnSource the resource table borrows, over our real transport against the local API server. */
describe('metrics: the table columns (ExtraColumnSource)', function () {
  this.timeout(60_000);
  let rig: MetricsRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  function source(r: MetricsRig, objects: KubeObject[] = []): MetricColumnSource {
    return new MetricColumnSource({ hub: r.hub(), clock: r.clock, objectsOf: (_ctx, kind, ns) => objects.filter((o) => o.kind === kind && o.metadata.namespace === ns) });
  }

  const cells = (s: MetricColumnSource, kind: typeof POD, obj: KubeObject) => Object.fromEntries(s.columnsFor(kind).map((c) => [c.header, c.cell('ctx', obj)]));

  it("the columns per kind, with k9s's headers", async () => {
    rig = await MetricsRig.start(true);
    const s = source(rig);
    assert.deepEqual(s.columnsFor(POD).map((c) => c.header), ['CPU', 'MEM', '%CPU/R', '%MEM/L']);
    assert.deepEqual(s.columnsFor(POD).map((c) => c.id), ['cpu', 'mem', 'cpu%r', 'mem%l']);
    assert.deepEqual(s.columnsFor(NODE).map((c) => c.header), ['CPU', '%CPU', 'MEM', '%MEM']);
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']) assert.deepEqual(s.columnsFor({ group: 'apps', kind }).map((c) => c.header), ['CPU', 'MEM']);
    assert.deepEqual(s.columnsFor({ group: '', kind: 'ConfigMap' }), []);
    s.dispose();
  });

  for (const { http2, label } of PROTOCOLS) {
    it(`${label}: pod cells read the sample against requests and limits, say how fresh it is, and say why when there is no value`, async () => {
      rig = await MetricsRig.start(http2);
      const s = source(rig);
      const changes: ExtraColumnChange[] = [];
      s.onDidChange((c) => changes.push(c));
      const sized = rig.pod('shop', 'web-1', { resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '1Gi' } } });
      const bare = rig.pod('shop', 'web-2');
      const pending = rig.pod('shop', 'web-3', { phase: 'Pending' });
      const showing = s.show('ctx', POD, ['shop']);
      const before = cells(s, POD, sized);
      assert.equal(before.CPU.text, '…');
      assert.equal(before.CPU.title, 'waiting for the first sample');
      await rig.advanceAndSettle(0);
      assert.deepEqual(changes, [{ context: 'ctx', kind: POD }]);
      const c = cells(s, POD, sized);
      assert.match(c.CPU.text, /^\d+m$/);
      assert.match(c.MEM.text, /^\d+Mi$/);
      const cpu = c.CPU.sortValue!;
      assert.equal(c['%CPU/R'].text, `${Math.floor((cpu / 10) * 100 + 1e-9)}%`);
      assert.equal(c['%MEM/L'].sortValue, Math.floor((c.MEM.sortValue! / 2 ** 30) * 100 + 1e-9));
      assert.match(c.CPU.title!, /^CPU \d+m: sampled \d+s ago over 15s \(/);
      assert.equal(c.CPU.tone, 'normal');
      const b = cells(s, POD, bare);
      assert.equal(b['%CPU/R'].text, '—');
      assert.equal(b['%CPU/R'].title, 'no CPU request set on its containers');
      assert.equal(b['%CPU/R'].sortValue, undefined);
      const p = cells(s, POD, pending);
      assert.equal(p.CPU.text, '—');
      assert.equal(p.CPU.title, 'not running (Pending)');
      assert.equal(p.CPU.tone, 'muted');
      showing.dispose();
      const asked = rig.metricsRequests().length;
      await rig.clock.advance(60_000);
      assert.equal(rig.metricsRequests().length, asked, 'nothing once the table closed');
      assert.equal(formatMilliCores(cpu), c.CPU.text);
      s.dispose();
    });

    it(`${label}: a Deployment sums its pods through its ReplicaSets; a cluster without the metrics API and a forbidden user each say so`, async () => {
      rig = await MetricsRig.start(http2);
      const deployment = rig.server.create('deployments.apps', { metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'x' }] } } } }) as unknown as KubeObject;
      const rs = rig.server.create('replicasets.apps', replicaSetObject('shop', 'web-abc', { app: 'web' }, 2, 2, { kind: 'Deployment', name: 'web', uid: deployment.metadata.uid, apiVersion: 'apps/v1' })) as unknown as KubeObject;
      const pods = ['web-abc-1', 'web-abc-2'].map((n) => rig!.pod('shop', n, { owner: { kind: 'ReplicaSet', name: 'web-abc', uid: rs.metadata.uid, apiVersion: 'apps/v1' } }));
      const other = rig.pod('shop', 'lonely');
      const s = source(rig, [...pods, other, rs].map((o) => ({ ...o, kind: o.kind ?? (o === rs ? 'ReplicaSet' : 'Pod') })));
      s.show('ctx', DEPLOYMENT, ['shop']);
      await rig.advanceAndSettle(0);
      const sum = pods.map((p) => cells(s, POD, p).CPU.sortValue!).reduce((a, b) => a + b, 0);
      const w = cells(s, DEPLOYMENT, deployment);
      assert.equal(w.CPU.sortValue, sum);
      assert.equal(w.CPU.text, formatMilliCores(sum));
      assert.equal(w.MEM.sortValue, pods.map((p) => cells(s, POD, p).MEM.sortValue!).reduce((a, b) => a + b, 0));

      rig.server.metrics.mode = 'absent';
      await rig.advanceAndSettle(15_000);
      const none = cells(s, POD, pods[0]);
      assert.equal(none.CPU.text, 'no metrics');
      assert.equal(none.CPU.title, 'no metrics API on this cluster (metrics-server not installed)');
      assert.equal(cells(s, DEPLOYMENT, deployment).CPU.title, 'no metrics API on this cluster (metrics-server not installed)');
      rig.server.metrics.mode = 'forbidden';
      await rig.advanceAndSettle(15_000);
      assert.equal(cells(s, POD, pods[0]).CPU.text, 'forbidden');
      assert.equal(cells(s, POD, pods[0]).MEM.title, 'forbidden: you may not read metrics.k8s.io here');
      s.dispose();
    });
  }
});
