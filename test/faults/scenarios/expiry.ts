import assert from 'node:assert/strict';
import { until } from '../rig';
import { LIST_SERVERS, type FaultContext, type Scenario } from '../scenario';

const tooOld = (rv: string) => ({ code: 410, reason: 'Expired', message: `too old resource version: ${rv} (${Number(rv) + 5})` });

/** Ends the open watch so that the next one meets the injected fault. */
async function rewatch(ctx: FaultContext): Promise<void> {
  await until(() => ctx.server.openWatches() >= 1, 'a watch to be open');
  ctx.server.dropWatches('end');
}

/** Watches opened so far by our informer (0 for the reference). */
function watchesOpened(ctx: FaultContext): number {
  return ctx.ours?.informer.stats.watches ?? 0;
}

export const expiryScenarios: Scenario[] = [
  {
    title: 'F01 watch from a resourceVersion the server no longer has (ERROR 410 event) relists and converges',
    setup: { initialObjects: 5 },
    async run(ctx) {
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      ctx.server.injectFault({ type: 'errorEvent', ...tooOld(ctx.server.resourceVersion) }, { verb: 'watch' });
      ctx.updateObject('cm-0', 'changed');
      ctx.deleteObject('cm-1');
      ctx.createObject('cm-new');
      await rewatch(ctx);
      const rig = ctx.ours;
      if (rig) {
        await until(() => rig.events('expired').length > 0 && rig.events('relist').length > 0, 'expired and relist lifecycle events');
        const relist = rig.events('relist')[0];
        assert.equal(relist.type === 'relist' && relist.reason, 'expired');
        const lists = rig.events('list-started').filter((e) => e.type === 'list-started' && e.relist);
        assert.ok(lists.length >= 1, 'the relist must be a list');
      }
      await ctx.converged();
    },
  },
  {
    title: 'F01 a naturally expired resourceVersion (history window exceeded while away) relists with a paginated list',
    setup: { initialObjects: 7, server: { historyLimit: 3 }, informer: { pageSize: 3 } },
    async run(ctx) {
      await ctx.synced();
      await ctx.server.goDown();
      for (let i = 0; i < 6; i++) ctx.updateObject(`cm-${i}`, `v${i}`);
      await ctx.server.comeUp();
      await ctx.converged();
      const rig = ctx.ours;
      if (rig) {
        assert.ok(rig.events('expired').length >= 1, 'expired must be logged');
        const pages = rig.events('list-done').at(-1);
        // A paginated LIST, or on a streaming server one streaming list.
        assert.ok(pages?.type === 'list-done' && (pages.streaming === true || pages.pages >= 3), 'the relist must be paginated (or streamed)');
        const watchReqs = ctx.server.requests.filter((r) => r.verb === 'watch' && r.status === 200);
        assert.ok(watchReqs.every((r) => r.query.allowWatchBookmarks === 'true'), 'watches ask for bookmarks');
      }
    },
  },
  {
    title: 'F02 an HTTP 410 status on the watch is treated like an ERROR 410 event: relist, converge',
    setup: { initialObjects: 4 },
    async run(ctx) {
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      ctx.server.injectFault({ type: 'status', code: 410, reason: 'Expired', message: 'The resourceVersion for the provided watch is too old.' }, { verb: 'watch' });
      ctx.deleteObject('cm-2');
      ctx.updateObject('cm-3', 'x');
      await rewatch(ctx);
      const rig = ctx.ours;
      if (rig) await until(() => rig.informer.stats.relists >= 1, 'a relist');
      await ctx.converged();
      if (rig) assert.ok(rig.events('expired').length >= 1);
    },
  },
  {
    title: 'F03 ERROR 410 mid-stream after some events: relist delivers the rest as updates and deletes, converges',
    setup: { initialObjects: 6 },
    async run(ctx) {
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      ctx.server.injectFault({ type: 'errorEvent', ...tooOld(ctx.server.resourceVersion), afterEvents: 2 }, { verb: 'watch' });
      const before = watchesOpened(ctx);
      await rewatch(ctx);
      const rig = ctx.ours;
      if (rig) await until(() => rig.informer.stats.watches > before, 'the faulty watch to open');
      else await until(() => ctx.server.openWatches() === 1, 'the faulty watch to open');
      ctx.updateObject('cm-0', 'a'); // delivered by the watch
      ctx.updateObject('cm-1', 'b'); // delivered by the watch, then ERROR 410
      ctx.updateObject('cm-2', 'c'); // only the relist sees these
      ctx.deleteObject('cm-3');
      ctx.createObject('cm-9');
      await ctx.converged();
      if (rig) {
        assert.ok(rig.informer.stats.expiries >= 1);
        const ev = rig.recorder.events;
        assert.ok(ev.some((e) => e.type === 'delete' && e.key === 'default/cm-3' && e.finalStateUnknown), 'cm-3 deleted by the relist');
        assert.ok(ev.some((e) => e.type === 'update' && e.key === 'default/cm-2'), 'cm-2 updated by the relist');
      }
    },
  },
  {
    title: 'F08 server goes away mid-watch and comes back past its history window: expiry, relist, converge',
    setup: { initialObjects: 5 },
    async run(ctx) {
      await ctx.synced();
      await ctx.server.goDown();
      const rig = ctx.ours;
      if (rig) await until(() => rig.events('backoff').length >= 3, 'several failed reconnects during the outage');
      ctx.updateObject('cm-0', 'while-away');
      ctx.deleteObject('cm-4');
      ctx.createObject('cm-new');
      ctx.server.restartWatchCache();
      await ctx.server.comeUp();
      await ctx.converged();
      if (rig) {
        assert.ok(rig.events('expired').length >= 1, 'the re-watch must meet expiry');
        // The backoff of the outage does not carry over: the expiry relists at once.
        const after = rig.lifecycle.slice(rig.lifecycle.findIndex((e) => e.type === 'expired'));
        const next = after.find((e) => e.type === 'relist' || e.type === 'backoff');
        assert.equal(next?.type, 'relist', 'relist right after the expiry, with no backoff in between');
        await rig.phase('watching');
      }
    },
  },
  {
    title: 'F11 a continue token that expires mid-list falls back to one full list; no partial list is published',
    // Only where the informer lists page by page; a streaming list has no continue token.
    servers: LIST_SERVERS,
    setup: { initialObjects: 12, informer: { pageSize: 5 }, noStart: true },
    async run(ctx) {
      const rig = ctx.ours;
      if (!rig) {
        // The reference does not paginate: just check it lists and converges.
        await ctx.synced();
        return ctx.converged();
      }
      let done = false;
      rig.informer.onLifecycle((e) => {
        if (e.type === 'list-page' && e.page === 1 && !done) {
          // Between page 1 and page 2: change the world and compact, so page 2's token is stale.
          done = true;
          ctx.updateObject('cm-0', 'between-pages');
          ctx.deleteObject('cm-11');
          ctx.server.restartWatchCache();
        }
      });
      rig.informer.start();
      await ctx.synced();
      assert.equal(rig.events('list-restarted').length, 1, 'the list must restart once');
      // Nothing reached the handlers before the complete list: the first events follow the restart.
      const firstAdds = rig.recorder.events.filter((e) => e.type === 'add');
      assert.equal(firstAdds.length, 11, 'exactly the 11 objects of the consistent list');
      assert.equal(rig.informer.stats.lists, 1);
      const sync = rig.events('synced');
      assert.equal(sync.length, 1);
      await ctx.converged();
    },
  },
  {
    title: 'F13 504 ResourceVersionTooLarge on the watch: retried after the advised delay from the same resourceVersion, relist if it persists',
    setup: { initialObjects: 3 },
    async run(ctx) {
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      const tooLarge = {
        type: 'status' as const,
        code: 504,
        reason: 'Timeout',
        message: 'Timeout: Too large resource version: 999999, current: 10',
        retryAfterSeconds: 1,
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      };
      const rig = ctx.ours;
      ctx.server.injectFault(tooLarge, { verb: 'watch', times: 1 });
      await rewatch(ctx);
      if (rig) {
        const tooLargeBackoffs = () => rig.events('backoff').filter((e) => e.type === 'backoff' && /Too large resource version/.test(e.cause));
        await until(() => tooLargeBackoffs().length >= 1 && ctx.server.openWatches() === 1, 'one retry after the advised delay');
        const b = tooLargeBackoffs()[0];
        assert.ok(b.type === 'backoff' && b.delayMs >= 1000, `waits at least the advised 1 s (waited ${b.type === 'backoff' ? b.delayMs : '?'})`);
        assert.equal(rig.informer.stats.relists, 0, 'a single 504 does not relist');
        ctx.server.injectFault(tooLarge, { verb: 'watch', times: 2 });
        await rewatch(ctx);
        await until(() => rig.informer.stats.relists >= 1, 'a relist once the 504 persists');
      }
      ctx.updateObject('cm-1', 'after');
      await ctx.converged();
    },
  },
];
