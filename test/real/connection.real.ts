import assert from 'node:assert/strict';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import { PROTOCOLS, RealRig, REAL_BOUND_MS, until, useControlPlane, type RigWatch } from './support';

type WatchClosed = Extract<TimedLifecycleEvent, { type: 'watch-closed' }>;

/**
 * Half-open connections on a real 1.34 server: a relay in front of it freezes live connections
 * (nothing forwarded either way, nothing closed), as a dead NAT entry or a suspended peer does.
 * Connections opened after the freeze go through.
 */
describe('[real] half-open connections (kube-apiserver 1.34, behind a relay)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  let rig: RealRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** The first watch-closed of `w` at or after `since`, if any. */
  const closedAfter = (w: RigWatch, since: number) => w.lifecycle.find((e): e is WatchClosed => e.type === 'watch-closed' && e.at >= since);

  /** Updates cm-0 in every namespace and waits until every informer has it. */
  async function changeEverywhere(r: RealRig, value: string): Promise<void> {
    for (const w of r.watches) await w.objects.update('cm-0', value);
    await until(
      () => r.watches.every((w) => (w.informer.get(w.namespace, 'cm-0') as { data?: { v?: string } } | undefined)?.data?.v === value),
      () => `every informer to see cm-0 = ${value} (${r.phases()})`,
      REAL_BOUND_MS,
    );
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`F06 [real] ${label}: a watch whose connection goes silent is cut at its timeoutSeconds plus the grace, never before, and re-watched from its resourceVersion`, async () => {
      // The no-data deadline (3 s + 2 s) comes well before the HTTP/2 health check (8 s idle + 2 s).
      rig = await RealRig.start({
        plane: plane(),
        protocol,
        relay: true,
        initialObjects: 2,
        informer: { timeoutSeconds: 3, noDataGraceMs: 2000 },
        transport: { healthCheck: { readIdleMs: 8000, pingTimeoutMs: 2000 } },
      });
      const r = rig;
      await r.synced();
      // Freeze in the middle of a watch: right after one opened.
      const opened = r.informer.stats.watches;
      await until(() => r.informer.stats.watches > opened, 'a fresh watch', REAL_BOUND_MS);
      const frozenAt = Date.now();
      r.relay!.freezeAll();
      await until(() => closedAfter(r.w, frozenAt) !== undefined, 'the frozen watch to be cut', REAL_BOUND_MS);
      const closed = closedAfter(r.w, frozenAt)!;
      assert.ok(closed.cause === 'failed' && /no data for 5 s: the connection looks half-open/.test(closed.reason), `cut as half-open: ${JSON.stringify(closed)}`);
      assert.ok(closed.durationMs >= 3000, `not before the watch's own timeout (it lasted ${closed.durationMs} ms)`);
      const backoff = r.events('backoff', { since: frozenAt })[0];
      assert.ok(backoff && /half-open/.test(backoff.cause), 'the state says why it reconnects');
      await changeEverywhere(r, 'after-freeze');
      await r.converged();
      assert.equal(r.events('list-started').length, 1, 'no relist: re-watched from the resourceVersion');
    });
  }

  it('F23 [real] HTTP/2: a quiet connection that answers PINGs is kept; once it goes silent the PING health check replaces it and every watch re-opens from its resourceVersion', async () => {
    const timing = { readIdleMs: 2000, pingTimeoutMs: 1000 };
    rig = await RealRig.start({ plane: plane(), protocol: 'h2', relay: true, watches: 3, initialObjects: 1, transport: { healthCheck: timing } });
    const r = rig;
    await r.synced();
    assert.equal(r.transport.protocol, 'h2');
    assert.equal(r.relay!.count, 1, 'one connection carries every watch');
    // Quiet: default watch timeouts (5 to 10 min), no change, no bookmark yet (the first comes after a minute).
    const quietFrom = Date.now();
    const accepted = r.relay!.accepted;
    const sent = r.relay!.bytesFromClients;
    await new Promise((resolve) => setTimeout(resolve, 3 * (timing.readIdleMs + timing.pingTimeoutMs)));
    for (const w of r.watches) assert.equal(closedAfter(w, quietFrom), undefined, 'no watch torn down while the connection answers');
    assert.equal(r.relay!.accepted, accepted, 'no new connection');
    assert.ok(r.relay!.bytesFromClients > sent, 'PINGs went out on the quiet connection');
    // Silent.
    const frozenAt = Date.now();
    r.relay!.freezeAll();
    await until(() => r.watches.every((w) => closedAfter(w, frozenAt) !== undefined), () => `every watch failed over (${r.phases()})`, REAL_BOUND_MS);
    for (const w of r.watches) assert.equal(closedAfter(w, frozenAt)!.cause, 'failed', `${w.namespace}: failed over`);
    await changeEverywhere(r, 'after-freeze');
    assert.ok(r.relay!.accepted > accepted, 'on a fresh connection');
    for (const w of r.watches) assert.equal(w.lifecycle.filter((e) => e.type === 'list-started').length, 1, `${w.namespace}: no relist, re-watched from the resourceVersion`);
    await r.converged();
  });

  it('F23 [real] HTTP/1.1: once a watch is found half-open, no pooled socket of the cluster is reused; the watches re-open from their resourceVersions', async () => {
    rig = await RealRig.start({ plane: plane(), protocol: 'http/1.1', relay: true, watches: 3, initialObjects: 1, informer: { timeoutSeconds: 3, noDataGraceMs: 2000 } });
    const r = rig;
    await r.synced();
    // Idle keep-alive sockets in the pool, as discovery and lists leave them.
    const ctl = new AbortController();
    await Promise.all([0, 1, 2].map(() => r.transport.getJson('/api', {}, ctl.signal)));
    const frozenAt = Date.now();
    r.relay!.freezeAll();
    r.relay!.clientBytesWhileFrozen = 0;
    await until(
      () => r.watches.every((w) => w.lifecycle.some((e) => e.type === 'watch-closed' && e.at >= frozenAt && /half-open/.test(e.reason))),
      () => `every watch found half-open (${r.phases()})`,
      REAL_BOUND_MS,
    );
    await changeEverywhere(r, 'after-freeze');
    assert.equal(r.relay!.clientBytesWhileFrozen, 0, 'a request was written on a frozen pooled socket');
    for (const w of r.watches) assert.equal(w.lifecycle.filter((e) => e.type === 'list-started').length, 1, `${w.namespace}: no relist, re-watched from the resourceVersion`);
    await r.converged();
  });

  for (const { protocol, label } of PROTOCOLS) {
    it(`F24 [real] ${label}: the process resumes after its connection died while the cluster changed: every watch caught up from its resourceVersion, no relist`, async () => {
      rig = await RealRig.start({ plane: plane(), protocol, relay: true, watches: 2, initialObjects: 1 });
      const r = rig;
      await r.synced();
      r.relay!.freezeAll(); // the connection died while the machine slept: nothing closes it
      for (const w of r.watches) await w.objects.update('cm-0', 'while-asleep');
      const resumedAt = Date.now();
      r.clusters.wake(120_000);
      await until(
        () => r.watches.every((w) => (w.informer.get(w.namespace, 'cm-0') as { data?: { v?: string } } | undefined)?.data?.v === 'while-asleep'),
        () => `every informer caught up after the wake (${r.phases()})`,
        REAL_BOUND_MS,
      );
      for (const w of r.watches) {
        assert.ok(w.lifecycle.some((e) => e.type === 'watch-opened' && e.at >= resumedAt), `${w.namespace}: the watch re-opened`);
        assert.ok(!w.lifecycle.some((e) => e.type === 'list-started' && e.at >= resumedAt), `${w.namespace}: from its resourceVersion, without a relist`);
      }
      await r.converged();
    });
  }
});
