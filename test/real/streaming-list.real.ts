import assert from 'node:assert/strict';
import { PROTOCOLS, RealRig, useControlPlane } from './support';

/**
 * WatchList on a real 1.34 server (its default: the gate on, the watch cache on): the initial
 * sync is one streaming request ended by the `k8s.io/initial-events-end` bookmark.
 */
describe('[real] streaming list (kube-apiserver 1.34, WatchList on)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  let rig: RealRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const { protocol, label } of PROTOCOLS) {
    it(`F32 [real] ${label}: the initial sync is one streaming request, synced at its initial-events-end bookmark; the cache equals the server`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, initialObjects: 5 });
      await rig.synced();
      if (protocol === 'h2') assert.equal(rig.transport.protocol, 'h2', 'HTTP/2 negotiated');
      const lists = rig.events('list-started');
      assert.equal(lists.length, 1, 'one list');
      assert.equal(lists[0].streaming, true, 'a streaming list');
      const done = rig.events('list-done');
      assert.equal(done.length, 1);
      assert.equal(done[0].streaming, true);
      assert.equal(done[0].items, 5);
      assert.equal(rig.events('streaming-list-fallback').length, 0, 'no fallback to LIST');
      // The sync happened at the bookmark, on the request that goes on as the watch.
      assert.equal(rig.informer.stats.watches, 1, 'one request: the streaming list is the watch');
      await rig.objects.create('after-sync');
      await rig.converged();
    });

    it(`F35 [real] ${label}: a streaming list cut in the middle (the relay drops the connection before its bookmark) publishes nothing, is retried with backoff and converges`, async () => {
      // About 2 MB of initial events, so that the cut after 256 kB lands well before the bookmark.
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, noStart: true });
      const r = rig;
      await r.objects.createMany(100, { v: '0', filler: 'x'.repeat(20_000) });
      const cut = r.relay!.cutAfterServerBytes(256 * 1024);
      r.start();
      await cut;
      await r.synced();
      const lists = r.events('list-started');
      assert.ok(lists.length >= 2 && lists.every((l) => l.streaming), `the streaming list was retried: ${lists.length} streaming lists`);
      const firstDone = r.events('list-done')[0];
      const cutWatch = r.events('watch-closed')[0];
      assert.ok(cutWatch.cause === 'failed' && cutWatch.at <= firstDone.at, `the first stream failed before anything was published: ${JSON.stringify(cutWatch)}`);
      assert.ok(r.events('backoff').some((b) => b.at >= cutWatch.at && b.at <= firstDone.at), `retried after a backoff: ${JSON.stringify(r.w.lifecycle.filter((e) => e.type !== 'state'))}`);
      const synced = r.w.lifecycle.findIndex((e) => e.type === 'synced');
      const secondList = r.w.lifecycle.indexOf(lists[1]);
      assert.ok(synced > secondList, 'synced only by a later, complete stream');
      assert.equal(r.events('list-done').length, 1, 'one list published');
      assert.equal(r.w.recorder.events.filter((e) => e.type === 'add').length, 100, 'each object added once');
      await r.converged();
    });
  }
});
