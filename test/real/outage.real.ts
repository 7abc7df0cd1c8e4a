import assert from 'node:assert/strict';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import { PROTOCOLS, RealRig, REAL_BOUND_MS, until, useControlPlane } from './support';

type Backoff = Extract<TimedLifecycleEvent, { type: 'backoff' }>;

/**
 * Outages of a real 1.34 server: kube-apiserver itself stops (connections refused) and starts
 * again on the same port while etcd keeps the objects (F07), or a relay in front of it stops
 * listening and listens again (F25).
 */
describe('[real] outages (kube-apiserver stopped, or unreachable behind a relay)', function () {
  this.timeout(180_000);
  const plane = useControlPlane();
  let rig: RealRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
    await plane().startApiServer(); // whatever a failed test left
  });

  for (const { protocol, label } of PROTOCOLS) {
    it(`F07 [real] ${label}: the API server is down when the informer starts: state unreachable with the error and the next retry; waitForSync gives false without stopping it; syncs once the server is up`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.setup.configMaps(ns).createMany(2);
      await p.stopApiServer();
      rig = await RealRig.start({ plane: p, protocol, namespaces: [ns] });
      const r = rig;
      await r.phase('unreachable');
      assert.match(r.informer.state.reason ?? '', /ECONNREFUSED/);
      assert.ok((r.informer.state.nextRetryAt ?? 0) > r.informer.state.since, 'the next retry is shown');
      assert.equal(await r.informer.waitForSync(300), false, 'waitForSync times out with false');
      assert.ok(r.informer.isRunning, 'the informer keeps trying');
      await until(() => r.events('backoff').length >= 3, 'several retries', REAL_BOUND_MS);
      await p.startApiServer();
      await r.synced();
      await r.converged();
    });

    it(`F25 [real] ${label}: the cluster is unreachable for a while, then back: every informer of the cluster resumes at the first success, not at its own retry timer`, async () => {
      const p = plane();
      // A longer backoff than the tier's default, so that the waits outgrow the outage. The outage
      // is the relay refusing connections (the apiserver keeps running), so that the cluster comes
      // back at once, whole, rather than through an apiserver's start-up.
      rig = await RealRig.start({ plane: p, protocol, relay: true, watches: 6, initialObjects: 1, informer: { backoff: { initialMs: 500, maxMs: 30_000, spreadMs: 1000 } } });
      const r = rig;
      await r.synced();
      const downAt = Date.now();
      await r.relay!.goDown();
      await until(
        () => r.watches.every((w) => w.lifecycle.some((e) => e.type === 'backoff' && e.at > downAt && e.delayMs >= 4000)),
        () => `every informer backing off for 4 s or more (${r.phases()})`,
        60_000,
      );
      assert.ok(r.watches.every((w) => w.informer.state.phase === 'unreachable'), `every informer unreachable (${r.phases()})`);
      const upAt = Date.now();
      await r.relay!.comeUp();
      for (const w of r.watches) await w.objects.update('cm-0', 'after-outage');
      await until(
        () => r.watches.every((w) => (w.informer.get(w.namespace, 'cm-0') as { data?: { v?: string } } | undefined)?.data?.v === 'after-outage' && w.informer.state.phase === 'watching'),
        () => `every informer caught up and watching (${r.phases()})`,
        REAL_BOUND_MS,
      );
      // When each informer asked again, and when its own timer would have made it ask.
      const resumed = r.watches.map((w) => {
        const back = w.lifecycle.find((e) => e.type === 'watch-opened' && e.at >= upAt)!.at;
        const pending = w.lifecycle.filter((e): e is Backoff => e.type === 'backoff' && e.at < back).at(-1)!;
        return { ns: w.namespace, back, retryAt: pending.retryAt };
      });
      const first = Math.min(...resumed.map((x) => x.back));
      const woken = resumed.filter((x) => x.retryAt > first + 1500);
      assert.ok(woken.length >= 1, `some informer would have waited longer: ${JSON.stringify(resumed.map((x) => ({ ...x, back: x.back - first, retryAt: x.retryAt - first })))}`);
      for (const x of woken) assert.ok(x.back < x.retryAt, `${x.ns} resumed ${x.back - first} ms after the first, before its own retry at +${x.retryAt - first} ms`);
      for (const w of r.watches) assert.equal(w.lifecycle.filter((e) => e.type === 'list-started').length, 1, `${w.namespace}: re-watched from its resourceVersion, no relist`);
      await r.converged();
    });
  }
});
