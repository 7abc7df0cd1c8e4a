import assert from 'node:assert/strict';
import { groupVersion } from '../../../src/informer/resource-type';
import type { TimedLifecycleEvent } from '../../../src/informer/lifecycle-event';
import { configmaps, until, type Rig } from '../rig';
import { requestsOf } from '../requests';
import { LIST_SERVERS, STREAMING_SERVERS, type FaultContext, type Scenario } from '../scenario';

/**
 * F47 and F48: lists that never complete the way the informer expects. A streaming list cut
 * before its bookmark again and again gives way to the paginated LIST; a list with `items: null`
 * or without a resourceVersion is accepted as client-go accepts it. For the reference client
 * these only check convergence.
 */

type FallbackEvent = Extract<TimedLifecycleEvent, { type: 'streaming-list-fallback' }>;

function fallbacks(rig: Rig): FallbackEvent[] {
  return rig.lifecycle.filter((e): e is FallbackEvent => e.type === 'streaming-list-fallback');
}

function streamingLists(ctx: FaultContext) {
  return ctx.server.requests.filter((r) => r.resource === 'configmaps' && r.verb === 'watchlist');
}

async function start(ctx: FaultContext): Promise<void> {
  if (ctx.ours) ctx.ours.informer.start();
  else await ctx.client.restart();
}

/** Three streaming lists ended before their bookmark (by `how`), then the paginated LIST, remembered. */
function f47(how: 'cut' | 'ended', fault: Parameters<FaultContext['server']['injectFault']>[0]): Scenario {
  return {
    title: `F47 a streaming list ${how === 'cut' ? 'cut (reset)' : 'ended by the server'} before its bookmark three times in a row: the paginated LIST, remembered as after a 422, with a log line saying why`,
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 4, noStart: true },
    async run(ctx) {
      ctx.server.injectFault(fault, { verb: 'watchlist', resource: 'configmaps', times: 3 });
      await start(ctx);
      await ctx.synced();
      ctx.updateObject('cm-1', 'after-sync');
      await ctx.converged();
      const rig = ctx.ours;
      if (!rig) return;
      assert.equal(streamingLists(ctx).length, 3, 'three streaming lists, then no more');
      assert.ok(requestsOf(ctx, 'list').some((r) => r.verb === 'list'), 'the paginated LIST listed');
      const f = fallbacks(rig);
      assert.equal(f.length, 1, 'one fallback');
      assert.match(f[0].reason, /3 streaming lists in a row ended before their initial-events-end bookmark/);
      assert.ok(rig.streamingListMemory.refusal(groupVersion(configmaps)) !== undefined, 'remembered for the cluster');
      // Remembered: a relist goes to the LIST at once.
      await rig.informer.restart('test');
      await until(() => rig.informer.stats.lists >= 2, 'the relist');
      assert.equal(streamingLists(ctx).length, 3, 'the relist does not try the streaming list again');
    },
  };
}

export const incompleteListScenarios: Scenario[] = [
  f47('cut', { type: 'reset', afterEvents: 1 }),
  f47('ended', { type: 'closeImmediately' }),
  {
    title: 'F48 a list whose items are null (an aggregated API server with nothing to list) is an empty list: synced at once, then watched',
    servers: LIST_SERVERS,
    setup: { initialObjects: 0, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'listShape', itemsNull: true }, { verb: 'list', resource: 'configmaps', times: Infinity });
      await start(ctx);
      await ctx.synced();
      ctx.createObject('after-sync');
      await ctx.converged();
      const rig = ctx.ours;
      if (!rig) return;
      assert.equal(rig.events('warning').length, 0, `no protocol error: ${rig.events('warning').map((e) => (e.type === 'warning' ? e.message : '')).join('; ')}`);
      assert.equal(rig.events('backoff').length, 0, 'no retry');
    },
  },
  {
    title: 'F48 a list without a resourceVersion (a proxy that drops it): the watch starts from the current state, with no resourceVersion, and converges',
    servers: LIST_SERVERS,
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'listShape', noResourceVersion: true }, { verb: 'list', resource: 'configmaps', times: Infinity });
      await start(ctx);
      await ctx.synced();
      ctx.updateObject('cm-1', 'after-sync');
      ctx.createObject('after-sync');
      await ctx.converged();
      const rig = ctx.ours;
      if (!rig) return;
      const watches = ctx.server.requests.filter((r) => r.resource === 'configmaps' && r.verb === 'watch');
      assert.ok(watches.length >= 1 && watches[0].query.resourceVersion === undefined, `the first watch has no resourceVersion (${JSON.stringify(watches[0]?.query)})`);
      assert.equal(rig.events('warning').length, 0, 'no protocol error');
      assert.equal(rig.events('backoff').length, 0, 'no retry');
    },
  },
];
