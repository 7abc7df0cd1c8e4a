import assert from 'node:assert/strict';
import { until } from '../rig';
import type { Scenario } from '../scenario';

export const reconnectScenarios: Scenario[] = [
  {
    title: 'F04 server ends the watch cleanly at its timeout: re-watch at once from the last resourceVersion, no relist, no duplicates',
    // A 20 s watch timeout (80 ms real): several clean ends in one test.
    setup: { initialObjects: 3, informer: { timeoutSeconds: 20 } },
    async run(ctx) {
      await ctx.synced();
      const rig = ctx.ours;
      for (let round = 0; round < 3; round++) {
        const watches = rig?.informer.stats.watches ?? 0;
        ctx.updateObject('cm-0', `round-${round}`);
        ctx.createObject(`extra-${round}`);
        if (rig) await until(() => rig.informer.stats.watches > watches + 1, 'the server to end the watch and the informer to re-watch');
        else ctx.server.dropWatches('end');
      }
      await ctx.converged();
      if (rig) {
        assert.equal(rig.informer.stats.lists, 1, 'no relist');
        assert.equal(rig.events('backoff').length, 0, 'a clean end is not a failure');
        const watchReqs = ctx.server.requests.filter((r) => r.verb === 'watch');
        // Each re-watch resumes from the resourceVersion last seen, never from "" or 0.
        for (const r of watchReqs) assert.ok(Number(r.query.resourceVersion) > 0, 'watch from a real resourceVersion');
        const closes = rig.events('watch-closed');
        assert.ok(closes.every((c) => c.type === 'watch-closed' && c.cause === 'ended'));
      }
    },
  },
  {
    title: 'F05 connection reset mid-stream: jittered backoff, re-watch from the last resourceVersion, converges, never stops',
    setup: { initialObjects: 4 },
    async run(ctx) {
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      const rig = ctx.ours;
      ctx.server.injectFault({ type: 'reset', afterEvents: 1 }, { verb: 'watch', times: 4 });
      ctx.server.dropWatches('reset');
      for (let i = 0; i < 6; i++) {
        ctx.updateObject(`cm-${i % 4}`, `r${i}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      ctx.deleteObject('cm-3');
      await ctx.converged();
      if (rig) {
        await until(() => rig.events('backoff').length >= 2, 'a backoff after each of the first two resets');
        assert.equal(rig.informer.stats.relists, 0, 'a reset resumes the watch without a relist');
        assert.ok(rig.informer.isRunning);
        await rig.phase('watching');
      }
    },
  },
  {
    title: 'F06 a half-open watch (server goes silent without closing) is aborted past its deadline and re-opened',
    setup: { initialObjects: 3, informer: { timeoutSeconds: 60, noDataGraceMs: 5_000 } },
    async run(ctx) {
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      ctx.server.injectFault({ type: 'silent' }, { verb: 'watch' });
      ctx.server.dropWatches('end');
      const rig = ctx.ours;
      if (rig) {
        await until(() => rig.events('watch-closed').some((e) => e.type === 'watch-closed' && /half-open/.test(e.reason)), 'the deadline to cut the silent watch');
        const query = ctx.server.requests.filter((r) => r.verb === 'watch').at(-1)?.query;
        assert.equal(query?.timeoutSeconds, '60', 'the watch asks the server for its own timeout');
      }
      ctx.updateObject('cm-1', 'after-silence');
      await ctx.converged();
      if (rig) assert.equal(rig.informer.stats.relists, 0);
    },
  },
  {
    title: 'F06 a quiet but healthy watch is never torn down before its own timeout (randomised in [5, 10) minutes)',
    // The informer's default [300, 600) s, which the rig shortens on streaming servers. The scenario
    // turns the watch cache off itself, so one LIST server and one streaming server cover it.
    servers: ['1.26', 'no watch cache'],
    setup: { initialObjects: 2, server: { watchCache: false }, informer: { minWatchTimeoutSeconds: 300 } },
    async run(ctx) {
      await ctx.synced();
      const rig = ctx.ours;
      if (!rig) return ctx.converged();
      // Without the watch cache the server sends no bookmarks: the stream is silent until its timeout.
      await until(() => rig.informer.stats.watches >= 3, 'two full quiet watches');
      const closes = rig.events('watch-closed');
      assert.ok(closes.length >= 2);
      for (const c of closes) {
        assert.ok(c.type === 'watch-closed' && c.cause === 'ended', `closed by the server at its timeout, not by our deadline (${c.type === 'watch-closed' ? c.reason : ''})`);
      }
      const timeouts = ctx.server.requests.filter((r) => r.verb === 'watch').map((r) => Number(r.query.timeoutSeconds));
      assert.ok(timeouts.every((t) => t >= 300 && t < 600), `timeoutSeconds in [300, 600): ${timeouts.join(', ')}`);
      assert.ok(new Set(timeouts).size > 1, 'randomised per watch');
      await ctx.converged();
    },
  },
  {
    title: 'F07 API server unreachable at start: state unreachable with the error and next retry, waitForSync(timeout) is false without stopping, syncs when it comes up',
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      await ctx.server.goDown();
      const rig = ctx.ours;
      if (!rig) {
        await ctx.client.restart(); // starts the reference against the unreachable server
        await ctx.server.comeUp();
        return ctx.converged();
      }
      rig.informer.start();
      await rig.phase('unreachable');
      const state = rig.informer.state;
      assert.match(state.reason ?? '', /ECONNREFUSED/);
      assert.ok(state.nextRetryAt !== undefined && state.nextRetryAt > state.since, 'the next retry time is shown');
      assert.equal(await rig.informer.waitForSync(2_000), false);
      assert.ok(rig.informer.isRunning, 'waitForSync must not stop the informer');
      // Retries are capped and jittered: no delay beyond the 30 s cap.
      await until(() => rig.events('backoff').length >= 4, 'several retries');
      for (const b of rig.events('backoff')) assert.ok(b.type === 'backoff' && b.delayMs <= 30_000 && b.delayMs >= 400);
      await ctx.server.comeUp();
      await ctx.synced();
      await ctx.converged();
      await rig.phase('watching');
    },
  },
];
