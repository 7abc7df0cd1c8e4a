import assert from 'node:assert/strict';
import type { TimedLifecycleEvent } from '../../../src/informer/lifecycle-event';
import { clockSleep, until, type Rig } from '../rig';
import type { FaultContext, Scenario } from '../scenario';
import { requestsOf, watchesOf } from '../requests';

/**
 * F19: a restart (command, settings change) requested in every state. The old request is
 * aborted, nothing leaks, exactly one watch is open afterwards, no spurious error, and stop()
 * leaves no socket open.
 */

type WarningEvent = Extract<TimedLifecycleEvent, { type: 'warning' }>;

/** A backoff far longer than any test waits: 6 hours of informer clock (86 s real at SCALE 250). */
const LONG_MS = 6 * 3_600_000;

async function start(ctx: FaultContext): Promise<void> {
  if (ctx.ours) ctx.ours.informer.start();
  else await ctx.client.restart();
}


/** Waits until a watch newer than `watchesBefore` requests is the one and only open watch, and stays so. */
async function exactlyOneWatch(ctx: FaultContext, watchesBefore: number): Promise<void> {
  await until(
    () => watchesOf(ctx).length > watchesBefore && ctx.server.openWatches() === 1,
    `exactly one new watch open (open: ${ctx.server.openWatches()})`,
  );
  // It stays one: nothing left over from before the restart opens a second watch later. A watch
  // lasts 1.2 to 2.4 s of real time at SCALE, so on a starved machine it may end by its own
  // timeout here and be re-opened a moment later: never two, and one again afterwards.
  const deadline = Date.now() + 60;
  while (Date.now() < deadline) {
    assert.ok(ctx.server.openWatches() <= 1, `never a second watch (open: ${ctx.server.openWatches()})`);
    await clockSleep(1_000);
  }
  await until(() => ctx.server.openWatches() === 1, `one watch open again (open: ${ctx.server.openWatches()})`);
}

/** No spurious error from the restart: no unexpected failure, no warning at all. */
function assertNoSpuriousError(rig: Rig): void {
  const w = rig.lifecycle.filter((e): e is WarningEvent => e.type === 'warning');
  assert.deepEqual(
    w.filter((e) => /unexpected failure/.test(e.message)).map((e) => e.message),
    [],
    'an aborted request is not an unexpected failure',
  );
  assert.deepEqual(w.map((e) => e.message), [], 'a restart logs no warning');
}

/** Events after the restart request (the last 'restart' lifecycle event). */
function sinceRestart(rig: Rig): TimedLifecycleEvent[] {
  const i = rig.lifecycle.map((e) => e.type).lastIndexOf('restart');
  assert.ok(i >= 0, 'the restart is logged');
  return rig.lifecycle.slice(i + 1);
}

/** stop() closes every socket and leaves no timer behind: nothing happens afterwards. */
async function stopAndCheck(ctx: FaultContext): Promise<void> {
  await ctx.client.stop();
  await until(() => ctx.server.openSockets() === 0, `stop() to close every socket (open: ${ctx.server.openSockets()})`);
  const requests = ctx.server.requests.length;
  const lifecycle = ctx.ours?.lifecycle.length ?? 0;
  await clockSleep(60_000);
  assert.equal(ctx.server.requests.length, requests, 'no request after stop()');
  if (ctx.ours) {
    assert.equal(ctx.ours.lifecycle.length, lifecycle, 'no lifecycle event after stop(): no timer left running');
    assert.equal(ctx.ours.informer.state.phase, 'stopped');
  }
  assert.equal(ctx.server.openSockets(), 0, 'no socket opened after stop()');
}

export const restartScenarios: Scenario[] = [
  {
    title: 'F19 restart while listing (the list hangs): the list is aborted, one watch afterwards, no spurious error, converges, stop() closes every socket',
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'silent' }, { verb: 'list', resource: 'configmaps', times: 1 });
      await start(ctx);
      const rig = ctx.ours;
      await until(() => requestsOf(ctx, 'list').length === 1, 'the hanging list');
      if (rig) await rig.phase('listing');
      await clockSleep(2_000);
      await ctx.client.restart();
      ctx.createObject('after-restart');
      await ctx.synced();
      await exactlyOneWatch(ctx, 0);
      await ctx.converged();
      if (rig) {
        assertNoSpuriousError(rig);
        assert.equal(rig.events('backoff').length, 0, 'an aborted list is not a failure');
        assert.equal(rig.informer.stats.errors, 0, 'an aborted list is not counted as an error');
        assert.equal(rig.informer.stats.lists, 1, 'only the list after the restart completed');
        // The hanging list was aborted: its socket is gone, only the watch's is left.
        await until(() => ctx.server.openSockets() === 1, `the hanging list's socket to close (open: ${ctx.server.openSockets()})`);
      }
      await stopAndCheck(ctx);
    },
  },
  {
    title: 'F19 restart while watching: the watch is aborted, exactly one watch afterwards, no spurious error, converges, stop() closes every socket',
    setup: { initialObjects: 4 },
    async run(ctx) {
      await ctx.synced();
      await exactlyOneWatch(ctx, 0);
      const rig = ctx.ours;
      if (rig) await rig.phase('watching');
      const watchesBefore = watchesOf(ctx).length;
      ctx.updateObject('cm-0', 'before-restart');
      await ctx.client.restart();
      ctx.createObject('after-restart');
      ctx.deleteObject('cm-3');
      await exactlyOneWatch(ctx, watchesBefore);
      await ctx.converged();
      if (rig) {
        assertNoSpuriousError(rig);
        assert.equal(rig.events('backoff').length, 0, 'an aborted watch is not a failure');
        assert.equal(rig.informer.stats.errors, 0, 'an aborted watch is not counted as an error');
        const after = sinceRestart(rig);
        assert.equal(after.filter((e) => e.type === 'watch-opened').length, 1, 'one new watch after the restart');
        assert.ok(after.some((e) => e.type === 'list-started' && e.relist), 'the restart starts over with a list');
        await rig.phase('watching');
      }
      await stopAndCheck(ctx);
    },
  },
  {
    title: 'F19 restart during a long backoff: the wait is abandoned, the informer lists and watches at once, exactly one watch, converges',
    // A backoff of 3 to 6 hours of informer clock (40 to 80 s real): only a restart that abandons it can pass.
    setup: { initialObjects: 3, noStart: true, informer: { backoff: { initialMs: LONG_MS, maxMs: LONG_MS } } },
    async run(ctx) {
      ctx.server.injectFault(
        { type: 'status', code: 500, reason: 'InternalError', message: 'Internal error occurred: the watch could not be served' },
        { verb: 'watch', resource: 'configmaps', times: 1 },
      );
      await start(ctx);
      await ctx.synced();
      const rig = ctx.ours;
      await until(() => requestsOf(ctx, 'watch').length === 1 && requestsOf(ctx, 'watch')[0].status === 500, 'the refused watch');
      if (rig) {
        await rig.phase('backing-off');
        const b = rig.events('backoff');
        assert.equal(b.length, 1);
        assert.ok(b[0].type === 'backoff' && b[0].delayMs >= LONG_MS / 2, 'a long backoff is under way');
      }
      ctx.createObject('during-backoff');
      await ctx.client.restart();
      await exactlyOneWatch(ctx, 1);
      await ctx.converged();
      if (rig) {
        assert.ok(sinceRestart(rig).some((e) => e.type === 'watch-opened'), 'the restart did not wait for the backoff');
        assert.equal(sinceRestart(rig).filter((e) => e.type === 'backoff').length, 0, 'no backoff after the restart');
        assertNoSpuriousError(rig);
        await rig.phase('watching');
      }
      await stopAndCheck(ctx);
    },
  },
  {
    title: 'F19 restart while the server is unreachable: retries go on, one watch once it is back, no spurious error, converges',
    setup: { initialObjects: 3 },
    async run(ctx) {
      await ctx.synced();
      await exactlyOneWatch(ctx, 0);
      const rig = ctx.ours;
      await ctx.server.goDown();
      if (rig) await rig.phase('unreachable');
      else await clockSleep(5_000);
      ctx.updateObject('cm-0', 'while-down');
      ctx.createObject('while-down');
      await ctx.client.restart();
      if (rig) {
        // The restarted run meets the same unreachable server and keeps retrying.
        await until(() => sinceRestart(rig).some((e) => e.type === 'backoff'), 'a retry after the restart');
        await rig.phase('unreachable');
        assert.ok(rig.informer.isRunning);
      }
      const watchesBefore = requestsOf(ctx, 'watch').length;
      await ctx.server.comeUp();
      await exactlyOneWatch(ctx, watchesBefore);
      await ctx.converged();
      if (rig) {
        assertNoSpuriousError(rig);
        await rig.phase('watching');
      }
      await stopAndCheck(ctx);
    },
  },
  {
    title: 'F19 restart while refused (slow retry after 403): the slow wait is abandoned, the fixed credentials are used at once, one watch, converges',
    // Slow retries of 3 to 6 hours of informer clock: only a restart that abandons the wait can pass.
    setup: { initialObjects: 2, noStart: true, informer: { backoff: { maxMs: LONG_MS } } },
    async run(ctx) {
      ctx.server.injectFault(
        { type: 'status', code: 403, reason: 'Forbidden', message: 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"' },
        { verb: 'list', resource: 'configmaps', times: Infinity },
      );
      await start(ctx);
      const rig = ctx.ours;
      if (rig) await rig.phase('forbidden');
      else await until(() => requestsOf(ctx, 'list').length >= 1, 'the refused list');
      ctx.server.clearFaults();
      await ctx.client.restart();
      await ctx.synced();
      await exactlyOneWatch(ctx, 0);
      await ctx.converged();
      if (rig) {
        assertNoSpuriousError(rig);
        await rig.phase('watching');
      }
      await stopAndCheck(ctx);
    },
  },
];
