import assert from 'node:assert/strict';
import { PROTOCOLS, RealRig, until, useControlPlane, REAL_BOUND_MS } from './support';

/**
 * Rows a real 1.34 server produces by itself (watch cache on, WatchList on): our informer on our
 * transport, over HTTP/2 and HTTP/1.1.
 */
describe('[real] watches (kube-apiserver 1.34, watch cache on)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  let rig: RealRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const { protocol, label } of PROTOCOLS) {
    it(`F04 [real] ${label}: the server ends each watch at its timeoutSeconds; re-watched at once from the last resourceVersion, no relist, no duplicate event`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, initialObjects: 2, informer: { timeoutSeconds: 2 } });
      const r = rig;
      await r.synced();
      await r.objects.update('cm-0', 'between-watches');
      // Three clean ends by the server: the streaming list's request, then two plain watches.
      await until(() => r.events('watch-closed').filter((e) => e.cause === 'ended').length >= 3, 'three watches ended by the server', REAL_BOUND_MS);
      await r.objects.create('late');
      await r.converged();
      const closed = r.events('watch-closed');
      assert.ok(closed.every((e) => e.cause === 'ended'), `every watch ended cleanly: ${closed.map((e) => `${e.cause} ${e.reason}`).join('; ')}`);
      assert.ok(closed.every((e) => e.durationMs >= 1500), `none ended before its timeout: ${closed.map((e) => e.durationMs).join(', ')} ms`);
      assert.equal(r.events('list-started').length, 1, 'no relist');
      assert.equal(r.events('backoff').length, 0, 'no backoff');
      // Each watch resumes exactly where the previous one ended.
      const opened = r.events('watch-opened');
      for (const c of closed.slice(0, -1)) {
        const next = opened.find((o) => o.at >= c.at);
        assert.ok(next, 'a watch opened after each end');
        assert.equal(next.resourceVersion, c.resourceVersion, 'the next watch starts from the last resourceVersion');
      }
      const kinds = r.w.recorder.events.map((e) => `${e.type} ${e.key}`);
      assert.deepEqual(kinds, [`add ${r.w.namespace}/cm-0`, `add ${r.w.namespace}/cm-1`, `update ${r.w.namespace}/cm-0`, `add ${r.w.namespace}/late`], 'each change once');
    });
  }
});
