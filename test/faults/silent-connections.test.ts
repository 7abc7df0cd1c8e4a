import assert from 'node:assert/strict';
import { ClusterRig } from './cluster-rig';
import { until } from './rig';

/**
 * A connection that goes silent is found by what its own streams say (F49, F45): a stream the
 * server should have ended, a request that ran out of its deadline, a watch's own bookmarks.
 * Time limits are judged on the injected clock, which runs only a few times faster than real
 * time, so that they stay far above what a loaded machine adds to a loopback round trip.
 */
describe('silent connections (F45, F49)', function () {
  this.timeout(60_000);
  let rig: ClusterRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('F49 (HTTP/2) a connection goes silent while its watches have short timeouts (5 s): PINGed once a stream outlives its timeout, replaced, the watches heal within their timeout plus a few seconds', async () => {
    const scale = 2;
    rig = await ClusterRig.start({ scale, namespaces: 3, relay: true, http2: true, informer: { timeoutSeconds: 5 } });
    const r = rig;
    await r.synced();
    assert.equal(r.transport.protocol, 'h2');
    const frozenAt = r.clock.now();
    r.relay!.freezeAll();
    await until(() => r.firstAfter('watch-closed', frozenAt).every((e) => e?.type === 'watch-closed' && e.cause === 'failed'), 'every watch failed over', 30_000);
    const noticedMs = Math.max(...r.firstAfter('watch-closed', frozenAt).map((e) => e!.at)) - frozenAt;
    // At most 5 s to the stream's timeout, 3 s of grace, 3 s for the PING; 1.5 s (0.75 s real) for a loaded machine.
    // The idle check alone would take 25 s; the watch's own no-data deadline 35 s.
    assert.ok(noticedMs <= 12_500, `noticed ${(noticedMs / 1000).toFixed(1)} s (injected) after the freeze`);
    const closed = r.firstAfter('watch-closed', frozenAt)[0];
    assert.ok(closed?.type === 'watch-closed' && /PING/.test(closed.reason), `the connection did not answer its PING (${closed?.type === 'watch-closed' ? closed.reason : ''})`);
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'after-freeze' } });
    await until(() => r.seen('cm-0', 'after-freeze'), 'every informer caught up on a new connection', 30_000);
    for (const i of r.informers) assert.ok(!r.lifecycle.get(i)!.some((e) => e.type === 'list-started' && e.at > frozenAt), 'no relist: re-watched from the resourceVersion');
  });

  it('F49 (HTTP/2) a request on a silent connection runs out of its deadline: the connection is PINGed at once and replaced, long before the idle check would', async () => {
    const scale = 2;
    rig = await ClusterRig.start({ scale, namespaces: 2, relay: true, http2: true });
    const r = rig;
    await r.synced();
    r.relay!.freezeAll();
    // A new watch lists on the frozen connection: no answer within its 2 s deadline.
    r.server.create('configmaps', { metadata: { name: 'cm-0', namespace: 'late' }, data: { v: '0' } });
    const startedAt = r.clock.now();
    const late = r.addInformer('late', { requestTimeoutMs: 2000 });
    const others = r.informers.filter((i) => i !== late);
    await until(() => others.every((i) => r.lifecycle.get(i)!.some((e) => e.type === 'watch-closed' && e.at > startedAt && e.cause === 'failed')), 'the watches on the frozen connection failed over', 30_000);
    const failedAt = Math.max(...others.map((i) => r.lifecycle.get(i)!.find((e) => e.type === 'watch-closed' && e.at > startedAt)!.at));
    // 2 s deadline + 3 s PING; the idle check (15 s + 10 s) would come far later. 1.5 s for a loaded machine.
    assert.ok(failedAt - startedAt <= 6_500, `the connection was replaced ${((failedAt - startedAt) / 1000).toFixed(1)} s (injected) after the request started`);
    await until(() => late.state.synced && late.state.phase === 'watching', 'the late informer synced on a new connection', 30_000);
  });

  it('F45 (HTTP/1.1) a healthy watch that gets no bookmarks lives beside one that does: never found half-open by the other watch\'s cadence', async () => {
    const scale = 100;
    rig = await ClusterRig.start({ scale, namespaces: 1, informer: { minWatchTimeoutSeconds: 3600 } });
    const r = rig;
    await r.synced();
    // A 1.26 server sends a watch bookmarks once the resourceVersion moved past the watch's start.
    r.server.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
    const [talking] = r.informers;
    const learning = r.clock.now();
    await until(() => r.lifecycle.get(talking)!.filter((e) => e.type === 'bookmark' && e.at > learning).length >= 2, 'two bookmarks on the first watch', 30_000);
    // The second watch starts at the current resourceVersion, and nothing changes: no bookmark ever.
    r.server.create('configmaps', { metadata: { name: 'cm-0', namespace: 'quiet' }, data: { v: '0' } });
    const quiet = r.addInformer('quiet', { minWatchTimeoutSeconds: 3600 });
    await until(() => quiet.state.phase === 'watching', 'the quiet watch open');
    const openedAt = r.clock.now();
    // Well past twice the other watch's 60 s cadence plus 30 s.
    await until(() => r.clock.now() - openedAt >= 300_000, 'five quiet minutes (injected)', 30_000);
    const closed = r.lifecycle.get(quiet)!.filter((e) => e.type === 'watch-closed');
    assert.deepEqual(closed.map((e) => (e.type === 'watch-closed' ? e.reason : '')), [], 'the quiet watch was never closed');
    assert.equal(quiet.stats.watches, 1, 'one watch all along');
    assert.ok(r.lifecycle.get(talking)!.filter((e) => e.type === 'bookmark').length >= 4, 'the other watch kept its bookmarks');
  });
});
