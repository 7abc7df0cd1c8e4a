import assert from 'node:assert/strict';
import { CatchUpTracker, HealthRecorder, type StateSpan } from '../../src/health';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import type { WatchManager } from '../../src/manager';
import { statusBarModel } from '../../src/ui/status';
import { WatchTreeModel } from '../../src/ui/tree/watch-tree-model';
import { ManualClock, UiRig, realSleep, until } from '../ui/lifecycle-rig';

/**
 * Time that never lies: after a resume (the machine slept, the process was stopped), the health
 * recording draws the time away as "suspended" on every band, and the tree and the status bar say
 * the view is catching up until every watch has shown it is current (a bookmark, an event or a
 * list after the resume). A real WatchManager against the local API server; the resume is the
 * cluster registry's own signal (`wake`), as its wake detector gives it.
 */
describe('time that never lies: suspended spans and catching up after a resume', () => {
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  async function started(resources: string[], bookmarkIntervalMs = 3_600_000) {
    const clock = new ManualClock();
    const server = await rig.server({ token: 'token-a', bookmarkIntervalMs, version: '1.34' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
    const registry = new ClusterRegistry(false);
    const m = rig.manager({ resources, namespaces: [''] }, clock, { clusterRegistry: registry });
    const recorder = new HealthRecorder(m, { clock });
    const catchUp = new CatchUpTracker(m);
    const tree = new WatchTreeModel(m, { clock, catchUp, throttleMs: 0 });
    await m.start();
    await until(() => m.entries().length === resources.length && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
    return { clock, server, m, registry, recorder, catchUp, tree };
  }

  /** As `started`, with the server speaking HTTP/2 or HTTP/1.1 whatever FAKE_APISERVER_HTTP2 says. */
  async function startedOver(http2: boolean, resources: string[]) {
    const clock = new ManualClock();
    const server = await rig.server({ token: 'token-a', bookmarkIntervalMs: 3_600_000, version: '1.34', http2 });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
    const registry = new ClusterRegistry(false);
    // Watches that the server does not end by themselves while the test waits.
    const m = rig.manager({ resources, namespaces: [''] }, clock, { clusterRegistry: registry, informerOptions: { requestTimeoutMs: 600_000, minWatchTimeoutSeconds: 3600 } });
    const catchUp = new CatchUpTracker(m);
    await m.start();
    await until(() => m.entries().length === resources.length && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
    return { clock, server, m, registry, catchUp };
  }

  /**
   * Waits for `done` while moving the manager's clock: the wake also has the transport verify its
   * connections (HTTP/1.1: they are replaced, and the watches go through a short backoff on the
   * manager's clock), so time must pass for them to watch again.
   */
  async function pumpUntil(clock: ManualClock, done: () => boolean, what: () => string): Promise<void> {
    for (let i = 0; i < 1500 && !done(); i++) {
      clock.advance(100);
      await realSleep(10);
    }
    assert.ok(done(), what());
  }

  const descriptions = (tree: WatchTreeModel) => tree.getChildren().map((n) => `${tree.present(n).label}: ${tree.present(n).description}`);
  const status = (m: WatchManager, catchUp: CatchUpTracker, now: number) => statusBarModel({ entries: m.entries(), now, trouble: () => undefined, catchUp: catchUp.current() });

  it('V16 every band is drawn "process suspended 59 s" for the time away, never "watching", and goes on "catching up" after it until the watch is current', async () => {
    const { clock, m, registry, recorder } = await started(['configmaps', 'pods']);
    clock.advance(5_000);
    const stoppedAt = clock.now();
    clock.advance(60_000); // the process is stopped: nothing runs
    registry.wake(59_000);
    const resumedAt = clock.now();
    for (const entry of m.entries()) {
      const spans = recorder.track(entry.id)!.spans;
      const suspended = spans.filter((s) => s.state === 'suspended') as [StateSpan];
      assert.equal(suspended.length, 1, spans.map((s) => s.state).join(' '));
      assert.equal(suspended[0].reason, 'process suspended 59 s');
      assert.equal(suspended[0].to, resumedAt);
      assert.equal(suspended[0].from, resumedAt - 59_000);
      assert.ok(suspended[0].from >= stoppedAt);
      for (let i = 1; i < spans.length; i++) assert.equal(spans[i].from, spans[i - 1].to, 'contiguous');
      const watchingInside = spans.filter((s) => s.state === 'watching' && s.from < suspended[0].to! && (s.to ?? Infinity) > suspended[0].from);
      assert.deepEqual(watchingInside, [], 'no watching span overlaps the time away');
      assert.equal(spans[spans.length - 1].state, 'catching-up', 'the band goes on catching up after it');
      assert.equal(spans[spans.length - 1].to, undefined);
    }
    // Re-opened from their resourceVersions, the watches are current: the bands go on watching.
    await until(() => m.entries().every((e) => recorder.track(e.id)!.state === 'watching'), () => m.entries().map((e) => recorder.track(e.id)!.spans.map((s) => s.state).join(' ')).join('; '));
    for (const entry of m.entries()) {
      const states = recorder.track(entry.id)!.spans.map((s) => s.state);
      assert.deepEqual(states.slice(states.indexOf('suspended')), ['suspended', 'catching-up', 'watching'], states.join(' '));
    }
    // The manager announces the resume once per watch: still one suspended span each.
    assert.equal(recorder.track(m.entries()[0].id)!.spans.filter((s) => s.state === 'suspended').length, 1);
    recorder.dispose();
  });

  it('V17 the tree and the status bar say "catching up after 59 s away" until every watch confirmed it is current, then clear', async () => {
    const { clock, server, m, registry, catchUp, tree } = await started(['configmaps', 'pods']);
    assert.ok(descriptions(tree).every((d) => /: watching · \d+(?: \w+)? · rv/.test(d) || /: watching · \d+(?: \w+)?$/.test(d)), descriptions(tree).join('\n'));
    const changes: string[][] = [];
    catchUp.onDidChange((ids) => changes.push(ids));
    // The re-opened pods watch is refused once (500): pods confirms only after its backoff.
    server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'etcd is sick' }, { resource: 'pods', verb: 'watch', times: 1 });
    registry.wake(59_000);
    assert.deepEqual(catchUp.current() && { ...catchUp.current(), resumedAt: 0 }, { awayMs: 59_000, resumedAt: 0, pending: 2, total: 2 });
    assert.deepEqual(descriptions(tree).map((d) => d.replace(/ · \d+(?: \w+)?$/, '')), ['configmaps: catching up after 59 s away', 'pods: catching up after 59 s away']);
    assert.equal(status(m, catchUp, clock.now()).text, '$(history) catching up after 59 s away');
    assert.match(status(m, catchUp, clock.now()).ariaLabel, /0 of 2 watches current/);

    // configmaps re-opened from its resourceVersion: current; pods waits out its backoff.
    await until(() => !catchUp.isCatchingUp(m.entries().find((e) => e.resource === 'configmaps')!.id), () => 'configmaps confirmed');
    assert.equal(catchUp.current()?.pending, 1);
    assert.match(status(m, catchUp, clock.now()).ariaLabel, /1 of 2 watches current/);

    // pods re-opens after its backoff: it all clears.
    await pumpUntil(clock, () => catchUp.current() === undefined, () => JSON.stringify(catchUp.current()));
    await until(() => descriptions(tree).every((d) => d.includes(': watching')), () => descriptions(tree).join('\n'));
    assert.match(status(m, catchUp, clock.now()).text, /^\$\(eye\) 2\/2$/);
    assert.ok(changes.length >= 3, 'started, then each watch confirmed');
    catchUp.dispose();
    tree.dispose();
  });

  for (const http2 of [false, true]) {
    it(`F24 (${http2 ? 'HTTP/2' : 'HTTP/1.1'}) resume: quiet watches (no bookmark for an hour) confirm they are current within 2 s, re-opened from their resourceVersions without a relist`, async () => {
      const { clock, server, m, registry, catchUp } = await startedOver(http2, ['configmaps', 'pods', 'secrets']);
      assert.equal(server.requests.at(-1)?.protocol, http2 ? 'h2' : 'http/1.1');
      const resumedAt = clock.now();
      const lists = m.entries().map((e) => e.stats.lists);
      registry.wake(59_000);
      assert.equal(catchUp.current()?.pending, 3);
      // The clock stands still: nothing here needs a timer to fire (no backoff, no bookmark).
      await until(() => catchUp.current() === undefined, () => `still catching up: ${JSON.stringify(catchUp.current())} ${JSON.stringify(m.entries().map((e) => e.state))}`);
      assert.ok(clock.now() - resumedAt <= 2000, `confirmed ${clock.now() - resumedAt} ms after the resume`);
      assert.deepEqual(m.entries().map((e) => e.stats.lists), lists, 'no relist');
      assert.ok(m.entries().every((e) => e.stats.resourceVersionSource === 'list'), 'no bookmark or event was needed');
      catchUp.dispose();
    });
  }

  it('V17 a watch the server refuses is not waited for; a second resume starts over', async () => {
    const { clock, server, m, registry, catchUp } = await started(['configmaps', 'pods']);
    registry.wake(9_000);
    assert.equal(catchUp.current()?.pending, 2);
    server.injectFault({ type: 'status', code: 403, reason: 'Forbidden', message: 'pods is forbidden' }, { resource: 'pods', times: Infinity });
    // configmaps' re-opened watch is refused with 500s: it stays catching up.
    server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'etcd is sick' }, { resource: 'configmaps', times: Infinity });
    await pumpUntil(clock, () => m.entries().some((e) => e.state.phase === 'forbidden'), () => JSON.stringify(m.entries().map((e) => e.state.phase)));
    const podsId = m.entries().find((e) => e.resource === 'pods')!.id;
    assert.equal(catchUp.isCatchingUp(podsId), false, 'the refused watch is not waited for');
    assert.equal(catchUp.current()?.pending, 1, 'configmaps still catching up');
    clock.advance(1);
    registry.wake(29_000);
    assert.equal(catchUp.current()?.awayMs, 29_000);
    catchUp.dispose();
  });
});
