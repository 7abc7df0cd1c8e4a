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

    it(`F09 [real] ${label}: delete and re-create while cut off, the watch resumed from the watch cache's history: delete (old uid) then add (new uid), no relist`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, initialObjects: 3 });
      const r = rig;
      await r.synced();
      const oldUid = (await r.objects.get('cm-0')).metadata.uid;
      r.relay!.cut();
      await until(() => r.informer.state.phase !== 'watching', 'the informer to notice the cut', REAL_BOUND_MS);
      await r.objects.delete('cm-0');
      await r.objects.create('cm-0');
      r.relay!.restore();
      await r.converged();
      const newUid = (await r.objects.get('cm-0')).metadata.uid;
      const forKey = r.w.recorder.events.filter((e) => e.key === `${r.w.namespace}/cm-0`);
      assert.deepEqual(forKey.slice(-2).map((e) => `${e.type} ${e.uid}`), [`delete ${oldUid}`, `add ${newUid}`]);
      assert.equal(forKey.at(-2)?.finalStateUnknown, false, 'the watch saw the deletion itself');
      assert.ok(!forKey.some((e) => e.type === 'update' && e.oldUid !== e.uid), 'never one update across two uids');
      assert.equal(r.events('list-started').length, 1, 'no relist: the watch resumed from its resourceVersion');
    });

    it(`F17 [real] ${label}: BOOKMARKs advance the resourceVersion past changes elsewhere, fire no handler, and the next watch resumes from one`, async () => {
      // 1.34 sends two bookmarks in the last ~2 s of a watch, even on a quiet one.
      rig = await RealRig.start({ plane: plane(), protocol, initialObjects: 2, informer: { timeoutSeconds: 4 } });
      const r = rig;
      await r.synced();
      const handlerEvents = r.w.recorder.events.length;
      const elsewhere = await plane().setup.namespace();
      const target = Number((await plane().setup.configMaps(elsewhere).create('elsewhere')).metadata.resourceVersion);
      await until(
        () => r.informer.stats.resourceVersionSource === 'bookmark' && Number(r.informer.resourceVersion) >= target,
        () => `a bookmark at ${target} or later (now ${r.informer.resourceVersion} from ${r.informer.stats.resourceVersionSource})`,
        REAL_BOUND_MS,
      );
      const bookmarks = r.events('bookmark').map((b) => b.resourceVersion);
      await until(() => r.events('watch-opened').some((o) => bookmarks.includes(o.resourceVersion)), 'a watch resumed from a bookmark', REAL_BOUND_MS);
      assert.equal(r.w.recorder.events.length, handlerEvents, 'bookmarks fire no handler');
      assert.equal(r.informer.store.size, 2);
      assert.equal(r.events('backoff').length, 0, 'a stream of bookmarks is healthy');
      assert.equal(r.events('list-started').length, 1, 'no relist');
      await r.converged();
    });
  }
});
