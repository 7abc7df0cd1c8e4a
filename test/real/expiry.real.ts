import assert from 'node:assert/strict';
import { PROTOCOLS, RealRig, REAL_BOUND_MS, until, useControlPlane } from './support';

/**
 * Expiry on a real 1.34 server without its watch cache (`--watch-cache=false`), where etcd's
 * compaction is what a client sees: the informer is cut off by the relay, the cluster changes,
 * etcd compacts, and the informer comes back with a resourceVersion the server no longer has.
 */
describe('[real] expiry (kube-apiserver 1.34, watch cache off)', function () {
  this.timeout(120_000);
  const plane = useControlPlane({ watchCache: false });
  let rig: RealRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** Cuts the informer off, runs `changes`, compacts etcd at the newest revision, and lets it back. */
  async function whileAway(r: RealRig, changes: () => Promise<void>, opts: { restartServer?: boolean } = {}): Promise<number> {
    const before = r.informer.stats.watches;
    r.relay!.cut();
    await until(() => r.informer.state.phase !== 'watching', 'the informer to notice the cut', REAL_BOUND_MS);
    await changes();
    const compactedAt = await r.plane.compact();
    if (opts.restartServer) {
      await r.plane.stopApiServer();
      await r.plane.startApiServer();
    }
    r.relay!.restore();
    assert.equal(r.informer.stats.watches, before, 'no watch opened while away');
    return compactedAt;
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`F01 [real] ${label}: the watch resumes from a compacted resourceVersion: ERROR 410 "too old", expired, relist, converges`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, initialObjects: 4 });
      const r = rig;
      await r.synced();
      const rvBefore = r.informer.resourceVersion;
      await whileAway(r, async () => {
        await r.objects.update('cm-0', 'while-away');
        await r.objects.delete('cm-1');
        await r.objects.create('cm-new');
      });
      await until(() => r.events('relist').length > 0, 'a relist', REAL_BOUND_MS);
      await r.converged();
      const expired = r.events('expired');
      assert.equal(expired.length, 1, 'one expiry');
      assert.equal(expired[0].resourceVersion, rvBefore, 'the resourceVersion held before the cut');
      assert.equal(expired[0].message, 'The resourceVersion for the provided watch is too old.');
      assert.equal(r.events('relist')[0].reason, 'expired');
      const relists = r.events('list-started').filter((e) => e.relist);
      assert.equal(relists.length, 1, 'one relist');
    });

    it(`F08 [real] ${label}: the server goes away mid-watch and comes back past its history window: expiry, relist, converges`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, initialObjects: 3 });
      const r = rig;
      await r.synced();
      await whileAway(
        r,
        async () => {
          await r.objects.update('cm-0', 'while-away');
          await r.objects.delete('cm-2');
          await r.objects.create('cm-new');
        },
        { restartServer: true },
      );
      await r.converged();
      assert.ok(r.events('expired').length >= 1, 'the re-watch met expiry');
      const failures = r.events('backoff');
      assert.ok(failures.length >= 1, 'the outage was retried with backoff');
      assert.ok(r.events('relist').every((e) => e.reason === 'expired'), 'relisted because of the expiry');
      const last = r.w.recorder.events.slice(-3).map((e) => `${e.type} ${e.key.split('/')[1]}`);
      assert.deepEqual(last.sort(), ['add cm-new', 'delete cm-2', 'update cm-0'], 'the relist reports what changed while away');
    });

    it(`F09 [real] ${label}: delete and re-create while away, relisted after expiry: delete (old uid, final state unknown) then add (new uid)`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, initialObjects: 3 });
      const r = rig;
      await r.synced();
      const oldUid = (await r.objects.get('cm-0')).metadata.uid;
      await whileAway(r, async () => {
        await r.objects.delete('cm-0');
        await r.objects.create('cm-0');
      });
      await r.converged();
      const newUid = (await r.objects.get('cm-0')).metadata.uid;
      assert.notEqual(oldUid, newUid);
      const forKey = r.w.recorder.events.filter((e) => e.key === `${r.w.namespace}/cm-0`);
      assert.deepEqual(forKey.slice(-2).map((e) => `${e.type} ${e.uid}`), [`delete ${oldUid}`, `add ${newUid}`]);
      assert.equal(forKey.at(-2)?.finalStateUnknown, true, 'the relist cannot know the final state');
      assert.ok(!forKey.some((e) => e.type === 'update' && e.oldUid !== e.uid), 'never one update across two uids');
      assert.ok(r.events('expired').length >= 1, 'relisted after expiry');
    });

    it(`F10 [real] ${label}: objects deleted while away are deleted by the relist, final state unknown, with the last known object`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, initialObjects: 5 });
      const r = rig;
      await r.synced();
      const lastKnown = (await r.objects.get('cm-1')).metadata.resourceVersion;
      await whileAway(r, async () => {
        await r.objects.update('cm-1', 'unseen');
        await r.objects.delete('cm-1');
        await r.objects.delete('cm-2');
      });
      await r.converged();
      const ns = r.w.namespace;
      const deletes = r.w.recorder.events.filter((e) => e.type === 'delete');
      assert.deepEqual(deletes.map((e) => e.key).sort(), [`${ns}/cm-1`, `${ns}/cm-2`]);
      assert.ok(deletes.every((e) => e.finalStateUnknown === true), 'flagged final state unknown');
      assert.equal(deletes.find((e) => e.key === `${ns}/cm-1`)?.resourceVersion, lastKnown, 'the last known object, not the unseen update');
    });

    it(`F16 [real] ${label}: a watch from just below the compacted revision gets ERROR 500 "PrevKv=nil": re-watched after backoff, relisted when it repeats, converges`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, initialObjects: 2 });
      const r = rig;
      await r.synced();
      // The watch's resourceVersion must be exactly one below a change of a watched object at the
      // compacted revision; another write to etcd in between (a lease renewal) spoils it: try again.
      let since = 0;
      for (let attempt = 1; ; attempt++) {
        const updated = await r.objects.update('cm-0', `seen-${attempt}`);
        const rv = updated.metadata.resourceVersion!;
        await until(() => r.informer.resourceVersion === rv, `the informer at ${rv}`, REAL_BOUND_MS);
        let next = 0;
        since = Date.now();
        await whileAway(r, async () => {
          next = Number((await r.objects.update('cm-0', `unseen-${attempt}`)).metadata.resourceVersion);
        });
        if (next === Number(rv) + 1) break;
        assert.ok(attempt < 5, 'another write to etcd came between the two updates five times in a row');
        await r.converged(); // it came back with a plain expiry: once more
      }
      await r.converged();
      const errors = r.events('backoff', { since }).filter((e) => /PrevKv=nil/.test(e.cause));
      assert.ok(errors.length >= 1, `the ERROR 500 was retried with backoff: ${r.events('backoff', { since }).map((e) => e.cause).join('; ')}`);
      const relist = r.events('relist', { since }).find((e) => /the same error repeated/.test(e.reason));
      assert.ok(relist && /PrevKv=nil/.test(relist.reason), `relisted when the error repeated: ${r.events('relist', { since }).map((e) => e.reason).join('; ')}`);
      assert.equal(r.events('expired', { since }).length, 0, 'not an expiry');
    });
  }
});
