import assert from 'node:assert/strict';
import { acceleratedClock, seededRandom, steppingClock } from '../../src/base/clock';
import { Rig, SCALE, clockSleep, until } from './rig';

/**
 * F19 edges of stop() and restart(): nothing is applied once the informer was told to stop,
 * not even the rest of a chunk already read; and repeated restarts while the server keeps
 * failing do not burst lists at it.
 */
describe('stop and restart edges (F19)', function () {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const how of ['stop', 'restart'] as const) {
    it(`F19 a handler that calls ${how}() on the first event of a chunk: the rest of the chunk is not applied`, async () => {
      rig = await Rig.start({ initialObjects: 2 });
      const r = rig;
      await r.synced();
      await until(() => r.server.openWatches() === 1 && r.informer.state.phase === 'watching', 'the watch');
      // Adds and lifecycle events in the order they happened: a restart's relist may bring the
      // rest of the chunk in before this test looks, so the check is on what came before it.
      const order: string[] = [];
      r.informer.onLifecycle((e) => order.push(`lifecycle ${e.type}`));
      let called = false;
      let restarted: Promise<void> | undefined;
      r.informer.addHandler({
        onAdd: (obj) => {
          order.push(`add ${obj.metadata.name}`);
          if (called) return;
          called = true;
          if (how === 'stop') void r.informer.stop();
          else restarted = r.informer.restart('test: restart from a handler');
        },
      });
      r.server.inOneChunk(() => {
        for (let i = 0; i < 5; i++) r.createObject(`burst-${i}`);
      });
      await until(() => called, 'the first event of the chunk');
      if (how === 'stop') await until(() => r.informer.state.phase === 'stopped', 'stopped');
      else await restarted;
      const first = order.indexOf('add burst-0');
      const relist = order.indexOf('lifecycle list-started', first);
      const beforeRelist = order.slice(first, relist < 0 ? undefined : relist).filter((e) => e.startsWith('add '));
      assert.deepEqual(beforeRelist, ['add burst-0'], `only the first event of the chunk was applied before any relist (${order.slice(first).join(', ')})`);
      if (how === 'stop') assert.equal(r.informer.get(r.namespace, 'burst-1'), undefined, 'the rest of the chunk is not in the cache');
      if (how === 'restart') {
        // The restart's relist brings the rest in, as adds after the one already seen.
        await r.converged();
      } else {
        await clockSleep(5_000);
        assert.equal(r.informer.store.size, 3, 'nothing applied after stop()');
        assert.equal(r.informer.state.phase, 'stopped');
      }
    });
  }

  it('F19 repeated restarts while the server keeps failing: the first retries at once, later ones wait out the backoff instead of bursting lists', async () => {
    // A backoff of hours on the informer clock: any list the test sees was caused by a restart.
    const hours = 6 * 3_600_000;
    rig = await Rig.start({ initialObjects: 1, noStart: true, informer: { backoff: { initialMs: hours, maxMs: hours } } });
    const r = rig;
    const lists = () => r.server.requests.filter((q) => q.verb === 'list' && q.resource === 'configmaps');
    r.server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'Internal error occurred: etcd is down' }, { verb: 'list', resource: 'configmaps', times: Infinity });
    r.informer.start();
    await until(() => lists().length === 1 && r.informer.state.phase === 'backing-off', 'the first failed list and its backoff');
    await r.informer.restart('test: first restart');
    await until(() => lists().length === 2 && r.informer.state.phase === 'backing-off', 'the first restart to retry at once, and fail');
    for (let i = 0; i < 5; i++) await r.informer.restart(`test: restart ${i + 2}`);
    await clockSleep(10_000);
    assert.equal(lists().length, 2, 'later restarts wait out the backoff: no burst of lists');
    assert.equal(r.informer.state.phase, 'backing-off');
    assert.match(r.informer.state.reason ?? '', /waiting out the backoff/);
    assert.ok((r.informer.state.nextRetryAt ?? 0) > r.clock.now(), 'the state shows when it retries');
  });

  it('F19 a restart after a healthy run starts the backoff over', async () => {
    rig = await Rig.start({ initialObjects: 1 });
    const r = rig;
    await r.synced();
    r.server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'Internal error occurred: once' }, { verb: 'list', resource: 'configmaps', times: 1 });
    await r.informer.restart('test');
    await until(() => r.events('backoff').length === 1, 'the backoff after the failed list');
    const b = r.events('backoff')[0];
    assert.ok(b.type === 'backoff' && b.attempt === 1, 'the first failure after health is attempt 1');
    await r.converged();
  });
});

describe('a watch that fails right after it opens (F20)', function () {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('F20 a connection reset right after the watch opens, again: the repeat relists, like an early close', async () => {
    // A clock that moves only with its timers: "right after it opens" cannot be stretched by a busy machine.
    rig = await Rig.start({
      initialObjects: 2,
      noStart: true,
      informer: { clock: steppingClock(SCALE, seededRandom(1)) },
      transportClock: acceleratedClock(SCALE, seededRandom(2)),
    });
    const r = rig;
    r.server.injectFault({ type: 'reset', afterEvents: 0 }, { verb: 'watch', resource: 'configmaps', times: 2 });
    r.informer.start();
    await r.synced();
    const seq = () => r.server.requests.filter((q) => q.resource === 'configmaps' && (q.verb === 'list' || q.verb === 'watch')).map((q) => q.verb);
    await until(() => seq().length >= 5, 'a watch after the repeated resets');
    assert.deepEqual(seq().slice(0, 5), ['list', 'watch', 'watch', 'list', 'watch'], 'the first reset re-watches, the repeat relists');
    const relists = r.events('relist');
    assert.equal(relists.length, 1);
    assert.ok(relists[0].type === 'relist' && /repeated/.test(relists[0].reason), `the relist names the repeat (${relists[0].type === 'relist' ? relists[0].reason : ''})`);
    r.createObject('after-resets');
    await r.converged();
  });
});
