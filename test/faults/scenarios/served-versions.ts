import assert from 'node:assert/strict';
import { until } from '../rig';
import type { FaultContext, Scenario } from '../scenario';

/**
 * F40 at the informer: a 404 alone never empties the cache. Whether the type moved to another
 * version (F39) or is gone in every version (F30) only discovery can tell, and the watch manager
 * asks it (test/manager/served-version.test.ts); the informer keeps its objects, says
 * `not-found`, retries slowly, and converges with real changes only once served again.
 */

const NOT_FOUND_STATUS = { type: 'status', code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' } as const;

/** Starts a client set up with `noStart`, whichever client it is. */
async function start(ctx: FaultContext): Promise<void> {
  if (ctx.ours) ctx.ours.informer.start();
  else await ctx.client.restart();
}

/** The objects our informer cached, as keys, and that no handler saw a delete. */
function assertKept(ctx: FaultContext, cached: string[]): void {
  const rig = ctx.ours;
  if (!rig) return;
  assert.deepEqual(ctx.client.cache().map((o) => o.key).sort(), cached, 'the cache is kept through the 404');
  assert.deepEqual(rig.recorder.events.filter((e) => e.type === 'delete'), [], 'no handler saw a delete');
  assert.ok(rig.informer.isRunning, 'a 404 never stops the informer');
}

const f40: Scenario[] = [
  {
    title: 'F40 the watched version is not served for a while (plain-text 404 on list and watch): cache kept, no deletes, state not-found, converges once served again',
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      await start(ctx);
      await ctx.synced();
      await ctx.converged();
      const cached = ctx.client.cache().map((o) => o.key).sort();
      assert.equal(cached.length, 3);
      ctx.server.stopServing('configmaps');
      const rig = ctx.ours;
      if (rig) {
        await rig.phase('not-found');
        assert.equal(rig.informer.state.reason, '404 page not found', 'the state carries the server message');
        // A second refused attempt: still nothing removed.
        await until(() => ctx.server.requests.filter((r) => r.status === 404).length >= 2, 'a second 404');
        await rig.phase('not-found');
        assertKept(ctx, cached);
        assert.equal(rig.informer.state.synced, true, 'still synced once: the objects are stale, not gone');
      } else {
        await until(() => ctx.server.requests.some((r) => r.status === 404), 'a 404');
      }
      // Served again, with real changes meanwhile: only those reach the handlers.
      ctx.createObject('while-unserved');
      ctx.updateObject('cm-0', 'while-unserved');
      ctx.deleteObject('cm-1');
      ctx.server.resumeServing('configmaps');
      await ctx.converged();
      if (rig) {
        await rig.phase('watching');
        const deletes = rig.recorder.events.filter((e) => e.type === 'delete').map((e) => e.key);
        assert.deepEqual(deletes, [`${ctx.namespace}/cm-1`], 'the one object deleted meanwhile, and no other');
      }
    },
  },
  {
    title: 'F40 a transient 404 on the watch and the relist (a replica whose CRD informer has not synced): cache kept, no deletes, resumes',
    setup: { initialObjects: 3 },
    async run(ctx) {
      await ctx.synced();
      await ctx.converged();
      const cached = ctx.client.cache().map((o) => o.key).sort();
      const watch = ctx.server.injectFault(NOT_FOUND_STATUS, { verb: 'watch', resource: 'configmaps', times: 1 });
      const list = ctx.server.injectFault(NOT_FOUND_STATUS, { verb: 'list', resource: 'configmaps', times: 2 });
      ctx.server.dropWatches('end', 'configmaps');
      const rig = ctx.ours;
      if (rig) {
        await rig.phase('not-found');
        assertKept(ctx, cached);
      }
      await until(() => watch.hits + list.hits >= 2, 'the 404s to be served');
      ctx.createObject('after-404');
      await ctx.converged();
      if (rig) {
        await rig.phase('watching');
        assert.deepEqual(rig.recorder.events.filter((e) => e.type === 'delete'), [], 'no handler ever saw a delete');
      }
    },
  },
];

export const servedVersionScenarios: Scenario[] = [...f40];
