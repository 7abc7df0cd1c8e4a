import assert from 'node:assert/strict';
import { noValueText, podReading, nodeReading, freshnessText, METRICS_STALE_AFTER_MS } from '../../src/metrics';
import { MetricsRig, PROTOCOLS } from './metrics-rig';

/**
 * ClusterMetrics over our real transport against the local API server's metrics.k8s.io: what is
 * asked (one LIST per shown namespace per interval, nothing for hidden namespaces or while
 * paused) and what each way of having no value reads.
 */
describe('metrics: fetched only for what is shown (local API server)', function () {
  this.timeout(60_000);
  let rig: MetricsRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const { http2, label } of PROTOCOLS) {
    it(`${label}: one request per shown namespace per interval, none for hidden ones, none while paused`, async () => {
      rig = await MetricsRig.start(http2);
      for (const ns of ['shop', 'payments', 'hidden']) for (const n of ['a', 'b', 'c']) rig.pod(ns, `${ns}-${n}`);
      const showing = rig.metrics.show({ namespaces: ['shop', 'payments'] });
      await rig.advanceAndSettle(0);
      const paths = () => rig!.metricsRequests().map((r) => r.path).sort();
      assert.deepEqual(paths(), ['/apis/metrics.k8s.io/v1beta1/namespaces/payments/pods', '/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods']);
      assert.ok(rig.metricsRequests().every((r) => r.protocol === (http2 ? 'h2' : 'http/1.1')));
      rig.clock.advance(14_000);
      assert.equal(rig.metricsRequests().length, 2, 'nothing before the interval is over');
      await rig.advanceAndSettle(1000);
      assert.equal(rig.metricsRequests().length, 4, 'one more per namespace after 15 s');

      rig.metrics.setPaused(true);
      rig.clock.advance(120_000);
      await new Promise((r) => setImmediate(r));
      assert.equal(rig.metricsRequests().length, 4, 'nothing while paused');
      rig.metrics.setPaused(false);
      await rig.advanceAndSettle(0);
      assert.equal(rig.metricsRequests().length, 6, 'what is due at once on resume');

      showing.dispose();
      rig.clock.advance(60_000);
      await new Promise((r) => setImmediate(r));
      assert.equal(rig.metricsRequests().length, 6, 'nothing once nothing is shown');
      assert.ok(!rig.metricsRequests().some((r) => r.path.includes('/hidden/') || /\/pods\/[^/]+$/.test(r.path.replace('/namespaces/', '/ns/'))), 'never the hidden namespace, never per pod');
    });

    it(`${label}: values carry their sample's timestamp and window, change with new samples, and go stale without one for 2 min`, async () => {
      rig = await MetricsRig.start(http2);
      const pod = rig.pod('shop', 'web-1');
      rig.metrics.show({ namespaces: ['shop'] });
      await rig.advanceAndSettle(0);
      const first = podReading(rig.metrics, pod, rig.clock.now());
      assert.equal(first.kind, 'value');
      if (first.kind !== 'value') return;
      assert.ok(first.figures.cpu > 0 && first.figures.mem > 0);
      assert.equal(first.sample.windowMs, 15_012);
      assert.match(freshnessText(first.sample, rig.clock.now()), /^sampled \d+s ago over 15s \(\d{4}-\d\d-\d\dT/);
      // Each new sample (every 15 s of the shared clock) moves the values.
      const seen = new Set<string>([`${first.figures.cpu}/${first.figures.mem}`]);
      for (let i = 0; i < 4; i++) {
        await rig.advanceAndSettle(15_000);
        const r = podReading(rig.metrics, pod, rig.clock.now());
        if (r.kind === 'value') seen.add(`${r.figures.cpu}/${r.figures.mem}`);
      }
      assert.equal(rig.metrics.pod('shop', 'web-1')?.history.length, 5, 'one history point per new sample');
      assert.ok(seen.size >= 2, 'the values changed with a new sample');
      rig.metrics.setPaused(true);
      rig.clock.advance(METRICS_STALE_AFTER_MS + 30_000);
      const stale = podReading(rig.metrics, pod, rig.clock.now());
      assert.equal(stale.kind, 'stale');
      assert.match(noValueText(stale)!, /^stale: no sample for 2m\d+s$/);
    });

    it(`${label}: a 503 keeps the last value until it is 2 min old, then says stale`, async () => {
      rig = await MetricsRig.start(http2);
      const pod = rig.pod('shop', 'web-1');
      rig.metrics.show({ namespaces: ['shop'] });
      await rig.advanceAndSettle(0);
      rig.server.injectFault({ type: 'status', code: 503, reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' }, { resource: 'pods.metrics.k8s.io', verb: 'list', times: Infinity });
      await rig.advanceAndSettle(15_000);
      assert.equal(rig.metrics.availability('shop').kind, 'unavailable');
      assert.equal(podReading(rig.metrics, pod, rig.clock.now()).kind, 'value', 'the last value holds for now');
      for (let i = 0; i < 9; i++) await rig.advanceAndSettle(15_000);
      assert.equal(podReading(rig.metrics, pod, rig.clock.now()).kind, 'stale');
    });

    it(`${label}: no metrics API, forbidden, not running and no sample yet are told apart`, async () => {
      rig = await MetricsRig.start(http2, 'absent');
      const running = rig.pod('shop', 'web-1');
      const pending = rig.pod('shop', 'web-2', { phase: 'Pending' });
      rig.metrics.show({ namespaces: ['shop'], nodes: true });
      const node = rig.node('node-1');
      await rig.advanceAndSettle(0);
      assert.equal(noValueText(podReading(rig.metrics, running, rig.clock.now())), 'no metrics API on this cluster (metrics-server not installed)');
      assert.equal(noValueText(nodeReading(rig.metrics, node, rig.clock.now())), 'no metrics API on this cluster (metrics-server not installed)');
      assert.equal(noValueText(podReading(rig.metrics, pending, rig.clock.now())), 'not running (Pending)');

      rig.server.metrics.mode = 'forbidden';
      await rig.advanceAndSettle(15_000);
      assert.equal(noValueText(podReading(rig.metrics, running, rig.clock.now())), 'forbidden: you may not read metrics.k8s.io here');
      assert.match((rig.metrics.availability('shop') as { message: string }).message, /cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "shop"/);

      rig.server.metrics.mode = 'served';
      await rig.advanceAndSettle(15_000);
      assert.equal(podReading(rig.metrics, running, rig.clock.now()).kind, 'value');
      const late = rig.pod('shop', 'web-3');
      assert.equal(noValueText(podReading(rig.metrics, late, rig.clock.now())), 'no sample yet (metrics-server samples every 15 s)');
      const n = nodeReading(rig.metrics, node, rig.clock.now());
      assert.equal(n.kind, 'value');
      if (n.kind === 'value') assert.equal(n.figures.cpuPercent, Math.floor((n.figures.cpu / 4000) * 100 + 1e-9));
    });

    it(`${label}: every namespace at once is one cluster-wide request, not one per namespace`, async () => {
      rig = await MetricsRig.start(http2);
      for (const ns of ['a', 'b', 'c']) rig.pod(ns, 'p');
      const one = rig.metrics.show({ namespaces: ['a'] });
      rig.metrics.show({ namespaces: 'all' });
      await rig.advanceAndSettle(0);
      assert.deepEqual(rig.metricsRequests().map((r) => r.path), ['/apis/metrics.k8s.io/v1beta1/pods']);
      one.dispose();
      assert.equal(podReading(rig.metrics, rig.server.get('pods', 'c', 'p') as never, rig.clock.now()).kind, 'value');
    });
  }
});
