import assert from 'node:assert/strict';
import { PROTOCOLS, RealRig, useControlPlane } from './support';

/** A real 1.34 server with the WatchList gate off, as 1.33 ships: the streaming list is refused with 422. */
describe('[real] WatchList refused (kube-apiserver 1.34, --feature-gates=WatchList=false)', function () {
  this.timeout(120_000);
  const plane = useControlPlane({ featureGates: { WatchList: false } });
  let rig: RealRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const { protocol, label } of PROTOCOLS) {
    it(`F33 [real] ${label}: the server refuses the streaming list (422): the paginated LIST at once, remembered for the cluster's other informers`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, watches: 2, initialObjects: 3, noStart: true });
      const r = rig;
      const [first, second] = r.watches;
      first.informer.start();
      assert.equal(await first.informer.waitForSync(60_000), true, `the first informer synced: ${r.phases()}`);
      const fallback = r.events('streaming-list-fallback', { watch: first });
      assert.equal(fallback.length, 1, 'one fallback');
      assert.match(fallback[0].reason, /^422 .*sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled/);
      assert.equal(r.events('backoff', { watch: first }).length, 0, 'at once, without a backoff');
      const firstLists = r.events('list-started', { watch: first });
      assert.deepEqual(firstLists.map((l) => l.streaming === true), [true, false], 'the streaming list, then the paginated LIST');
      // The cluster's other informers go straight to the LIST.
      second.informer.start();
      await r.synced();
      assert.equal(r.events('streaming-list-fallback', { watch: second }).length, 0, 'no second refusal');
      assert.deepEqual(r.events('list-started', { watch: second }).map((l) => l.streaming === true), [false]);
      for (const w of r.watches) await w.objects.create('after-sync');
      await r.converged();
    });
  }
});
