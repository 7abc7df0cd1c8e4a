import assert from 'node:assert/strict';
import { systemClock } from '../../../src/base/clock';
import { until } from '../rig';
import type { FaultContext, Scenario } from '../scenario';

/** Deletes and re-creates cm-0 while the client cannot reach the server; returns the old uid. */
async function recreateWhileAway(ctx: FaultContext, compact: boolean): Promise<string> {
  await ctx.synced();
  const oldUid = ctx.server.get('configmaps', ctx.namespace, 'cm-0')?.metadata.uid ?? '';
  await ctx.server.goDown();
  ctx.deleteObject('cm-0');
  ctx.createObject('cm-0');
  if (compact) ctx.server.restartWatchCache();
  await ctx.server.comeUp();
  await ctx.converged();
  return oldUid;
}

function assertDeleteThenAdd(ctx: FaultContext, oldUid: string): void {
  const newUid = ctx.server.get('configmaps', ctx.namespace, 'cm-0')?.metadata.uid ?? '';
  assert.notEqual(oldUid, newUid);
  const forKey = ctx.client.recorder.events.filter((e) => e.key === `${ctx.namespace}/cm-0`);
  const tail = forKey.slice(-2).map((e) => `${e.type} ${e.uid}`);
  assert.deepEqual(tail, [`delete ${oldUid}`, `add ${newUid}`]);
  assert.ok(!forKey.some((e) => e.type === 'update' && e.oldUid !== e.uid), 'never one update across two uids');
}

export const deltaScenarios: Scenario[] = [
  {
    title: 'F09 delete and re-create while disconnected yields delete then add (relist after expiry)',
    setup: { initialObjects: 3 },
    async run(ctx) {
      const oldUid = await recreateWhileAway(ctx, true);
      assertDeleteThenAdd(ctx, oldUid);
      if (ctx.ours) {
        const del = ctx.ours.recorder.events.find((e) => e.type === 'delete' && e.uid === oldUid);
        assert.equal(del?.finalStateUnknown, true, 'the relist cannot know the final state');
      }
    },
  },
  {
    title: 'F09 delete and re-create while disconnected yields delete then add (watch resumed from history)',
    setup: { initialObjects: 3 },
    async run(ctx) {
      const oldUid = await recreateWhileAway(ctx, false);
      assertDeleteThenAdd(ctx, oldUid);
    },
  },
  {
    title: 'F10 objects deleted while disconnected are deleted by the relist, flagged final state unknown with the last known object',
    setup: { initialObjects: 5 },
    async run(ctx) {
      await ctx.synced();
      await ctx.server.goDown();
      ctx.updateObject('cm-1', 'unseen-change');
      ctx.deleteObject('cm-1');
      ctx.deleteObject('cm-2');
      ctx.server.restartWatchCache();
      await ctx.server.comeUp();
      await ctx.converged();
      if (ctx.ours) {
        const deletes = ctx.ours.recorder.events.filter((e) => e.type === 'delete');
        assert.deepEqual(deletes.map((e) => e.key).sort(), ['default/cm-1', 'default/cm-2']);
        assert.ok(deletes.every((e) => e.finalStateUnknown === true));
        // The last known object is passed: its resourceVersion is the one the cache held, not the deletion's.
        const lastKnown = ctx.ours.recorder.events.filter((e) => e.key === 'default/cm-1' && e.type === 'add')[0];
        assert.equal(deletes.find((e) => e.key === 'default/cm-1')?.resourceVersion, lastKnown.resourceVersion);
      }
    },
  },
  {
    // Bookmarks come only from the watch cache.
    servers: ['1.26', '1.33', '1.34'],
    title: 'F17 BOOKMARK events advance the resourceVersion without touching the cache or firing handlers',
    setup: { initialObjects: 2, server: { bookmarkIntervalMs: 20 } },
    async run(ctx) {
      await ctx.synced();
      const rig = ctx.ours;
      if (!rig) return ctx.converged();
      await until(() => ctx.server.openWatches() === 1, 'the first watch');
      const handlerEvents = rig.recorder.events.length;
      // A change elsewhere moves the server's resourceVersion; bookmarks carry it to this watch.
      ctx.createObject('elsewhere', 'other-namespace');
      const target = ctx.server.resourceVersion;
      // (A 1.34 server's bookmarks may carry a revision newer still: other resources' writes.)
      await until(
        () => Number(rig.informer.stats.resourceVersion) >= Number(target) && rig.informer.stats.resourceVersionSource === 'bookmark',
        `a bookmark at ${target} or later`,
      );
      assert.equal(rig.recorder.events.length, handlerEvents, 'bookmarks fire no handler');
      assert.ok(rig.informer.stats.lastBookmarkAt !== undefined);
      assert.equal(rig.informer.store.size, 2);
      await ctx.converged();
    },
  },
  {
    // Bookmarks come only from the watch cache.
    servers: ['1.26', '1.33', '1.34'],
    title: 'F17 a stream of only bookmarks is healthy: no backoff, no relist, and the next watch resumes from the bookmark',
    // The transport's deadlines on the system clock: a bookmark every 10 ms of real time, which a
    // busy machine may delay past a scaled silence limit (HTTP/1.1) or PING timeout (HTTP/2),
    // would otherwise make a healthy stream look half-open.
    setup: { initialObjects: 1, server: { bookmarkIntervalMs: 10 }, informer: { timeoutSeconds: 30 }, transportClock: systemClock },
    async run(ctx) {
      await ctx.synced();
      const rig = ctx.ours;
      if (!rig) return ctx.converged();
      ctx.createObject('elsewhere', 'other-namespace');
      const target = ctx.server.resourceVersion;
      await until(() => rig.events('bookmark').length >= 2 && rig.informer.stats.watches >= 3, 'bookmark-only watches to cycle');
      const causes = rig.lifecycle.filter((e) => e.type === 'backoff' || e.type === 'watch-closed').map((e) => JSON.stringify(e));
      assert.equal(rig.events('backoff').length, 0, `no backoff: ${causes.join('\n')}`);
      assert.equal(rig.informer.stats.relists, 0);
      const lastWatch = ctx.server.requests.filter((r) => r.verb === 'watch').at(-1);
      const bookmarked = rig.events('bookmark').map((b) => (b.type === 'bookmark' ? b.resourceVersion : ''));
      assert.ok(lastWatch && bookmarked.includes(lastWatch.query.resourceVersion), `resumes from a bookmark (${lastWatch?.query.resourceVersion}; bookmarks ${bookmarked.join(', ')})`);
      assert.ok(Number(lastWatch.query.resourceVersion) >= Number(target), 'a bookmark at or past the change elsewhere');
      await ctx.converged();
    },
  },
  {
    title: 'F18 a throwing handler is isolated and logged; other handlers and the informer go on; the resourceVersion is still recorded',
    setup: { initialObjects: 2, noStart: true },
    async run(ctx) {
      const rig = ctx.ours;
      if (!rig) {
        return ctx.converged();
      }
      let calls = 0;
      rig.informer.addHandler({
        name: 'thrower',
        onAdd: () => {
          calls++;
          throw new Error('boom');
        },
        onUpdate: () => {
          throw new Error('boom');
        },
      });
      rig.informer.start();
      await ctx.synced();
      ctx.createObject('late');
      ctx.updateObject('cm-0', 'x');
      await ctx.converged();
      assert.equal(calls, 3);
      const errs = rig.events('handler-error');
      assert.ok(errs.length >= 4, 'every throw is logged');
      assert.ok(errs.every((e) => e.type === 'handler-error' && e.handler === 'thrower' && /boom/.test(e.message)));
      assert.equal(rig.informer.resourceVersion, ctx.server.get('configmaps', 'default', 'cm-0')?.metadata.resourceVersion);
      assert.ok(rig.informer.isRunning);
    },
  },
];
