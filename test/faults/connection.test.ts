import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/informer/resource-type';
import { ClusterRig } from './cluster-rig';
import { configmaps, until } from './rig';

describe('connection faults (one cluster, many informers)', function () {
  this.timeout(60_000);
  let rig: ClusterRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('F25 a cluster unreachable for a while, then back: every informer of the cluster watching again within 2 s of the first success', async () => {
    // 2 s is 500 ms of real time here: the 1 s spread plus room for a loaded machine's round trips.
    const scale = 4;
    rig = await ClusterRig.start({ scale, namespaces: 6 });
    const r = rig;
    await r.synced();
    const downAt = r.clock.now();
    await r.server.goDown();
    // Long enough that every informer's backoff has grown well past the 2 s limit.
    await until(
      () => r.informers.every((i) => r.lifecycle.get(i)!.some((e) => e.type === 'backoff' && e.at > downAt && e.delayMs >= 5000)),
      'every informer backing off for 5 s or more',
    );
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'during-outage' } });
    const upReal = Date.now();
    await r.server.comeUp();
    await until(() => r.seen('cm-0', 'during-outage') && r.informers.every((i) => i.state.phase === 'watching'), 'every informer caught up and watching');
    // The first request of each informer after the server came back, as the server saw it.
    const first = new Map<string, number>();
    for (const req of r.server.requests) if (req.at >= upReal && (req.verb === 'watch' || req.verb === 'list') && req.namespace && !first.has(req.namespace)) first.set(req.namespace, req.at);
    assert.equal(first.size, r.informers.length, 'every informer asked again');
    const arrivals = [...first.values()];
    const spreadMs = (Math.max(...arrivals) - Math.min(...arrivals)) * scale; // on the injected clock
    assert.ok(spreadMs <= 2000, `the last informer asked ${Math.round(spreadMs)} ms (injected) after the first`);
  });

  it('F24 (HTTP/1.1) the process resumes after its connection died while the cluster changed: the connections are replaced and the watches re-open at once, caught up within 1 s of resuming', async () => {
    // Real time: the limit is the network's round trips (a new TLS connection, the re-watch), which no clock can compress.
    const scale = 1;
    rig = await ClusterRig.start({ scale, namespaces: 4, relay: true });
    const r = rig;
    await r.synced();
    r.relay!.freezeAll(); // the connection died while the machine slept: nothing closes it
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'while-asleep' } });
    const resumedAt = r.clock.now();
    r.registry.wake(120_000);
    await until(() => r.seen('cm-0', 'while-asleep'), 'every informer caught up after the wake');
    const caughtUpMs = r.clock.now() - resumedAt;
    assert.ok(caughtUpMs <= 1000, `caught up ${Math.round(caughtUpMs)} ms after resuming`);
    for (const i of r.informers) {
      const events = r.lifecycle.get(i)!;
      const reopened = events.filter((e) => e.type === 'watch-opened' && e.at >= resumedAt);
      assert.ok(reopened.length >= 1, 'the watch re-opened');
      assert.ok(!events.some((e) => e.type === 'backoff' && e.at >= resumedAt), 'at once, without a backoff');
      assert.ok(!events.some((e) => e.type === 'list-started' && e.at >= resumedAt), 'from its resourceVersion, without a relist');
    }
  });

  it('F23 (HTTP/1.1) a watch found half-open: no pooled socket of the cluster is reused; the watches re-open from their resourceVersions', async () => {
    const scale = 50;
    rig = await ClusterRig.start({ scale, namespaces: 3, relay: true, informer: { timeoutSeconds: 20, noDataGraceMs: 10_000 } });
    const r = rig;
    await r.synced();
    // Idle keep-alive sockets in the pool, as discovery and lists leave them.
    const ctl = new AbortController();
    await Promise.all([0, 1, 2].map(() => r.transport.getJson('/api', {}, ctl.signal)));
    const frozenAt = r.clock.now();
    r.relay!.freezeAll();
    r.relay!.clientBytesWhileFrozen = 0;
    await until(() => r.informers.every((i) => r.lifecycle.get(i)!.some((e) => e.type === 'watch-closed' && e.at > frozenAt && /half-open/.test(e.reason))), 'every watch found half-open');
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'after-freeze' } });
    await until(() => r.seen('cm-0', 'after-freeze'), 'every informer caught up on new connections');
    assert.equal(r.relay!.clientBytesWhileFrozen, 0, 'a request was written on a frozen pooled socket');
    for (const i of r.informers) assert.ok(!r.lifecycle.get(i)!.some((e) => e.type === 'list-started' && e.at > frozenAt), 'no relist: re-watched from the resourceVersion');
  });

  it('F31 250 informers on one cluster (50 namespaces, 5 types), server allowing 100 streams per connection: 3 TCP connections, none with a waiting stream', async function () {
    this.timeout(120_000);
    const types: ResourceType[] = [
      configmaps,
      { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
      { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
      { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
      { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
    ];
    rig = await ClusterRig.start({ scale: 1, namespaces: 50, http2: true, types });
    const r = rig;
    await r.synced();
    assert.equal(r.server.openWatches(), 250, 'every watch has its stream open: none waits');
    assert.equal(r.transport.protocol, 'h2');
    assert.equal(r.server.openSockets(), 3, 'TCP connections to the server');
    assert.equal(r.transport.h2ConnectionCount, 3);
    assert.ok(r.server.streamStats.maxOpenPerConnection <= 100, `at most 100 streams on one connection (saw ${r.server.streamStats.maxOpenPerConnection})`);
  });

  it('F23 (HTTP/2) a connection goes silent with the default watch timeouts: noticed within 25 s by the PING health check (15 s idle, 10 s to answer), the watches re-open from their resourceVersions', async () => {
    const scale = 10;
    rig = await ClusterRig.start({ scale, namespaces: 3, relay: true, http2: true });
    const r = rig;
    await r.synced();
    assert.equal(r.transport.protocol, 'h2');
    const frozenAt = r.clock.now();
    r.relay!.freezeAll();
    await until(() => r.informers.every((i) => r.lifecycle.get(i)!.some((e) => e.type === 'watch-closed' && e.at > frozenAt && e.cause === 'failed')), 'every watch failed over', 30_000);
    const noticedMs = Math.max(...r.informers.map((i) => r.lifecycle.get(i)!.find((e) => e.type === 'watch-closed' && e.at > frozenAt)!.at)) - frozenAt;
    // 15 s read-idle + 10 s PING timeout; 2 s (200 ms real) allowed for timers late on a loaded machine.
    assert.ok(noticedMs <= 27_000, `noticed ${Math.round(noticedMs / 1000)} s (injected) after the freeze`);
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'after-freeze' } });
    await until(() => r.seen('cm-0', 'after-freeze'), 'every informer caught up on a new connection', 30_000);
    for (const i of r.informers) assert.ok(!r.lifecycle.get(i)!.some((e) => e.type === 'list-started' && e.at > frozenAt), 'no relist: re-watched from the resourceVersion');
  });

  it('F23 (HTTP/2) a quiet healthy connection is kept: PINGs answered, no new request, no watch torn down', async () => {
    const scale = 100;
    rig = await ClusterRig.start({ scale, namespaces: 3, http2: true, informer: { minWatchTimeoutSeconds: 3600 } });
    const r = rig;
    await r.synced();
    const requests = r.server.requests.length;
    const pings = r.server.streamStats.pings;
    const since = r.clock.now();
    await until(() => r.clock.now() - since >= 150_000, 'two and a half quiet minutes (injected)', 30_000);
    assert.equal(r.server.requests.length, requests, 'no new request while the connection answers PINGs');
    assert.ok(r.server.streamStats.pings - pings >= 5, `the quiet connection was verified by PINGs every 15 s (saw ${r.server.streamStats.pings - pings})`);
    for (const i of r.informers) assert.ok(!r.lifecycle.get(i)!.some((e) => e.type === 'watch-closed' && e.at > since), 'no watch closed');
    assert.equal(r.server.openSockets(), 1);
  });

  it('F24 (HTTP/2) the process resumes after its connection died while the cluster changed: a fresh connection races the PING of the old one and carries the watches, caught up within 1 s', async () => {
    // Real time: the limit is the network's round trips (a new TLS connection, the re-watch), which no clock can compress.
    const scale = 1;
    rig = await ClusterRig.start({ scale, namespaces: 4, relay: true, http2: true });
    const r = rig;
    await r.synced();
    assert.equal(r.transport.protocol, 'h2');
    r.relay!.freezeAll();
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'while-asleep' } });
    const resumedAt = r.clock.now();
    r.registry.wake(120_000);
    await until(() => r.seen('cm-0', 'while-asleep'), 'every informer caught up after the wake');
    const caughtUpMs = r.clock.now() - resumedAt;
    // Without the race the watches wait out the 3 s PING deadline on the dead connection.
    assert.ok(caughtUpMs <= 1000, `caught up ${Math.round(caughtUpMs)} ms after resuming`);
    for (const i of r.informers) {
      const events = r.lifecycle.get(i)!;
      const closed = events.find((e) => e.type === 'watch-closed' && e.at >= resumedAt);
      assert.ok(closed?.type === 'watch-closed' && /replaced/.test(closed.reason), `the watch left the old connection for the fresh one (${closed?.type === 'watch-closed' ? closed.reason : 'not closed'})`);
      assert.ok(!events.some((e) => e.type === 'backoff' && e.at >= resumedAt), 'at once, without a backoff');
      assert.ok(!events.some((e) => e.type === 'list-started' && e.at >= resumedAt), 'from its resourceVersion, without a relist');
    }
  });

  it('F24 (HTTP/2) after a wake the old connection answers its PING before a fresh one is ready: it keeps the watches, the fresh one closes unused', async () => {
    const scale = 1;
    rig = await ClusterRig.start({ scale, namespaces: 3, relay: true, http2: true });
    const r = rig;
    await r.synced();
    // The fresh connection cannot get through (a slow network path); the old one is alive.
    r.relay!.freezeNew();
    const accepted = r.relay!.accepted;
    const pings = r.server.streamStats.pings;
    const resumedAt = r.clock.now();
    r.registry.wake(120_000);
    await until(() => r.server.streamStats.pings > pings && r.relay!.accepted > accepted, 'a PING on the old connection and a fresh connection beside it');
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'after-wake' } });
    await until(() => r.seen('cm-0', 'after-wake'), 'every informer sees the change on the old connection');
    for (const i of r.informers) assert.ok(!r.lifecycle.get(i)!.some((e) => e.type === 'watch-closed' && e.at >= resumedAt), 'no watch left the old connection');
    assert.equal(r.transport.h2ConnectionCount, 1, 'one connection carries the watches');
  });

  it('F23 (HTTP/1.1) where the server sends bookmarks on quiet watches, a watch silent for well past their interval counts as half-open', async () => {
    const scale = 100;
    rig = await ClusterRig.start({ scale, namespaces: 2, relay: true, informer: { minWatchTimeoutSeconds: 3600 } });
    const r = rig;
    await r.synced();
    // The server sends bookmarks once the global resourceVersion moved past a watch's start.
    r.server.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
    const learning = r.clock.now();
    await until(() => r.informers.every((i) => r.lifecycle.get(i)!.filter((e) => e.type === 'bookmark' && e.at > learning).length >= 2), 'two bookmarks on every watch', 30_000);
    const frozenAt = r.clock.now();
    r.relay!.freezeAll();
    await until(() => r.informers.every((i) => r.lifecycle.get(i)!.some((e) => e.type === 'watch-closed' && e.at > frozenAt)), 'every watch found half-open', 30_000);
    for (const i of r.informers) {
      const closed = r.lifecycle.get(i)!.find((e) => e.type === 'watch-closed' && e.at > frozenAt)!;
      assert.ok(closed.type === 'watch-closed' && /no bookmark/.test(closed.reason), `closed for the missing bookmarks: ${closed.type === 'watch-closed' ? closed.reason : ''}`);
      // The interval the watch learnt is the longest quiet gap between two of its bookmarks: the
      // server's 60 s cadence as this client's clock saw it. On a loaded machine a late first
      // bookmark shortens one gap (at scale 100, 10 ms late reads 59 s), so the bound is the gaps
      // the watch's own log shows, and half the cadence below.
      const interval = Number(/every (\d+) s/.exec(closed.type === 'watch-closed' ? closed.reason : '')?.[1]) * 1000;
      const marks = r.lifecycle.get(i)!.filter((e) => e.type === 'bookmark' && e.at <= frozenAt).map((e) => e.at);
      const longestGap = Math.max(...marks.slice(1).map((at, k) => at - marks[k]!));
      assert.ok(interval >= 30_000, `the interval learnt from the server's bookmarks (${interval / 1000} s)`);
      assert.ok(interval <= longestGap + 2_000, `no longer than a gap the watch saw (${interval / 1000} s, longest ${Math.round(longestGap / 1000)} s)`);
      // Twice that interval plus 30 s after its last data, which came at most one interval before
      // the freeze; 10 s for late timers.
      assert.ok(closed.at - frozenAt <= 3 * interval + 40_000, `noticed ${Math.round((closed.at - frozenAt) / 1000)} s after the freeze (interval ${interval / 1000} s)`);
    }
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'after-freeze' } });
    await until(() => r.seen('cm-0', 'after-freeze'), 'every informer caught up on a new connection', 30_000);
    assert.equal(r.relay!.clientBytesWhileFrozen, 0, 'no request written on a frozen pooled socket');
  });
});
