import assert from 'node:assert/strict';
import { Informer } from '../../../src/informer/informer';
import type { TimedLifecycleEvent } from '../../../src/informer/lifecycle-event';
import { identity, identityLines } from '../../support/event-recorder';
import { SCALE, WAIT_BOUND_MS, configmaps, until, type Rig } from '../rig';
import { isServedStreamingList, requestsOf, watchesOf } from '../requests';
import { LIST_SERVERS, STREAMING_SERVERS, type FaultContext, type Scenario } from '../scenario';

/**
 * F32 to F37: the streaming list (WatchList, `sendInitialEvents=true`) where the server has it,
 * the fallback to the paginated LIST where it has not, and the pager's fallback to one full list.
 * These check our informer's own behaviour (requests, lifecycle); the reference has no
 * streaming list, so for it they only check convergence.
 */

type FallbackEvent = Extract<TimedLifecycleEvent, { type: 'streaming-list-fallback' }>;

function fallbacks(rig: Rig): FallbackEvent[] {
  return rig.lifecycle.filter((e): e is FallbackEvent => e.type === 'streaming-list-fallback');
}

function streamingListRequests(ctx: FaultContext) {
  return ctx.server.requests.filter((r) => r.resource === 'configmaps' && r.verb === 'watchlist');
}

function serverLines(ctx: FaultContext): string[] {
  return identityLines(ctx.server.list('configmaps', ctx.namespace).map((o) => identity(o as Parameters<typeof identity>[0])));
}

/** Index of the first lifecycle event of `type` (-1 when none). */
function indexOf(rig: Rig, type: TimedLifecycleEvent['type']): number {
  return rig.lifecycle.findIndex((e) => e.type === type);
}

async function startOurs(ctx: FaultContext): Promise<void> {
  if (ctx.ours) ctx.ours.informer.start();
  else await ctx.client.restart();
}

export const streamingListScenarios: Scenario[] = [
  {
    title: 'F32 a modern server: one streaming request lists and watches; synced at the initial-events-end bookmark with the cache equal to the server',
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 6, noStart: true },
    async run(ctx) {
      const rig = ctx.ours;
      if (!rig) {
        await startOurs(ctx);
        await ctx.synced();
        return ctx.converged();
      }
      // At the bookmark (the 'synced' event fires inside it): the cache, the handlers' view and the server agree.
      let atSync: { cache: string[]; server: string[]; adds: number; rv: string } | undefined;
      rig.informer.onLifecycle((e) => {
        if (e.type === 'synced' && !atSync) {
          atSync = { cache: identityLines(ctx.client.cache()), server: serverLines(ctx), adds: rig.recorder.events.length, rv: ctx.server.resourceVersion };
        }
      });
      rig.informer.start();
      await ctx.synced();
      assert.ok(atSync, 'the synced event fired');
      assert.deepEqual(atSync.cache, atSync.server, 'the cache equals the server at the bookmark');
      assert.equal(atSync.adds, 6, 'every object reached the handlers once, at the bookmark');
      const requests = ctx.server.requests.filter((r) => r.resource === 'configmaps');
      assert.deepEqual(requests.map((r) => `${r.verb} ${r.status}`), ['watchlist 200'], 'one request synced: no LIST, no separate watch');
      const q = requests[0].query;
      assert.equal(q.sendInitialEvents, 'true');
      assert.equal(q.resourceVersionMatch, 'NotOlderThan');
      assert.equal(q.allowWatchBookmarks, 'true');
      assert.equal(q.resourceVersion, undefined, 'the first sync is a consistent read: resourceVersion unset');
      const done = rig.events('list-done')[0];
      assert.ok(done.type === 'list-done' && done.streaming === true && done.items === 6);
      assert.equal(done.type === 'list-done' && done.resourceVersion, atSync.rv, "the list's resourceVersion is the bookmark's: the server's at the time");
      // The same request goes on as the watch.
      await rig.phase('watching');
      ctx.updateObject('cm-1', 'live');
      ctx.deleteObject('cm-2');
      ctx.createObject('live-new');
      await ctx.converged();
      assert.equal(watchesOf(ctx).length, 1, 'the live changes came through the same request');
      assert.equal(rig.informer.stats.lists, 1);
      assert.equal(fallbacks(rig).length, 0, 'no fallback on a server with WatchList');
    },
  },
  {
    title: 'F32 a relist by streaming list reports the same deltas as a LIST would: deletes flagged final state unknown, delete then add on a new uid',
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 5 },
    async run(ctx) {
      await ctx.synced();
      const oldUid = ctx.server.get('configmaps', ctx.namespace, 'cm-0')?.metadata.uid ?? '';
      await ctx.server.goDown();
      ctx.deleteObject('cm-0');
      ctx.createObject('cm-0');
      ctx.deleteObject('cm-3');
      ctx.updateObject('cm-4', 'while-away');
      ctx.server.restartWatchCache();
      await ctx.server.comeUp();
      await ctx.converged();
      const rig = ctx.ours;
      if (!rig) return;
      assert.ok(rig.informer.stats.relists >= 1, 'a relist happened');
      assert.ok(rig.events('list-done').every((e) => e.type === 'list-done' && e.streaming === true), 'every list was a streaming list');
      const newUid = ctx.server.get('configmaps', ctx.namespace, 'cm-0')?.metadata.uid ?? '';
      const cm0 = rig.recorder.events.filter((e) => e.key === `${ctx.namespace}/cm-0`).slice(-2);
      assert.deepEqual(cm0.map((e) => `${e.type} ${e.uid}`), [`delete ${oldUid}`, `add ${newUid}`], 'delete then add, never one update across uids');
      assert.equal(cm0[0].finalStateUnknown, true);
      const cm3 = rig.recorder.events.find((e) => e.key === `${ctx.namespace}/cm-3` && e.type === 'delete');
      assert.equal(cm3?.finalStateUnknown, true, 'a delete missed while away is flagged final state unknown');
      assert.ok(rig.recorder.events.some((e) => e.key === `${ctx.namespace}/cm-4` && e.type === 'update'), 'a change missed while away is an update');
    },
  },
  {
    title: 'F33 the server refuses the streaming list (422): falls back to the paginated LIST at once, logged with the reason, remembered for the cluster',
    servers: LIST_SERVERS,
    setup: { initialObjects: 4 },
    async run(ctx) {
      await ctx.synced();
      await ctx.converged();
      const rig = ctx.ours;
      if (!rig) return;
      await until(() => ctx.server.openWatches() === 1, 'the watch after the LIST');
      const seq = ctx.server.requests.filter((r) => r.resource === 'configmaps').map((r) => `${r.verb} ${r.status}`);
      assert.deepEqual(seq.slice(0, 3), ['watchlist 422', 'list 200', 'watch 200'], 'the 422 is followed by the LIST at once');
      const f = fallbacks(rig);
      assert.equal(f.length, 1, 'one fallback');
      assert.match(f[0].reason, /422/);
      assert.match(f[0].reason, /sendInitialEvents|resourceVersionMatch/);
      assert.equal(rig.events('backoff').length, 0, 'no backoff before the fallback');
      assert.equal(rig.informer.state.reason, undefined, 'the fallback is not a failure state');
      // Remembered: a relist uses the LIST at once.
      await rig.informer.restart('test');
      await ctx.synced();
      await until(() => rig.informer.stats.lists >= 2, 'the relist');
      assert.equal(streamingListRequests(ctx).length, 1, 'the relist does not try the streaming list again');
      // Remembered for the cluster: another informer of the same cluster sharing the memory goes straight to LIST.
      const second = new Informer({ transport: rig.transport, type: configmaps, namespace: ctx.namespace, clock: rig.clock, streamingListMemory: rig.streamingListMemory });
      try {
        second.start();
        assert.equal(await second.waitForSync(WAIT_BOUND_MS * SCALE), true);
        assert.equal(streamingListRequests(ctx).length, 1, 'the second informer of the cluster lists at once');
      } finally {
        await second.stop();
      }
    },
  },
  {
    title: 'F33 an ERROR event before the initial-events-end bookmark (1.34 on etcd 3.4: RequestWatchProgress is disabled) falls back to the paginated LIST at once, remembered',
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      // Transcript modern/90: HTTP 200, then this ERROR event as the only line, then the end.
      const requestWatchProgress = {
        type: 'errorEvent' as const,
        code: 500,
        reason: 'InternalError',
        message: 'a watch stream was requested by the client but the required storage feature RequestWatchProgress is disabled',
      };
      ctx.server.injectFault(requestWatchProgress, { verb: 'watchlist', resource: 'configmaps', times: Infinity });
      await startOurs(ctx);
      await ctx.synced();
      ctx.createObject('after-fallback');
      await ctx.converged();
      const rig = ctx.ours;
      if (!rig) return;
      const f = fallbacks(rig);
      assert.equal(f.length, 1, 'one fallback');
      assert.match(f[0].reason, /ERROR 500 InternalError: .*RequestWatchProgress is disabled before the initial-events-end bookmark/);
      assert.equal(rig.events('backoff').length, 0, 'the LIST at once, no backoff');
      assert.deepEqual(
        ctx.server.requests.filter((r) => r.resource === 'configmaps').slice(0, 3).map((r) => `${r.verb} ${r.status}`),
        ['watchlist 200', 'list 200', 'watch 200'],
      );
      // Remembered: a restart lists at once.
      await rig.informer.restart('test');
      await until(() => rig.informer.stats.lists >= 2, 'the relist');
      assert.equal(streamingListRequests(ctx).length, 1, 'the streaming list is not tried again');
    },
  },
  {
    title: 'F33 the refusal is forgotten once the cluster answers again after an outage (it may have been upgraded): the next list tries the streaming list again',
    servers: LIST_SERVERS,
    setup: { initialObjects: 3 },
    async run(ctx) {
      await ctx.synced();
      const rig = ctx.ours;
      if (!rig) return ctx.converged();
      assert.equal(fallbacks(rig).length, 1);
      await ctx.server.goDown();
      await rig.phase('unreachable');
      ctx.updateObject('cm-0', 'while-away');
      ctx.server.restartWatchCache();
      await ctx.server.comeUp();
      await ctx.converged();
      await until(() => fallbacks(rig).length === 2, 'a second fallback');
      assert.equal(streamingListRequests(ctx).length, 2, 'the relist after the outage tried the streaming list once more');
      assert.ok(streamingListRequests(ctx).every((r) => r.status === 422));
    },
  },
  {
    title: "F33 with streamingList 'always' there is no fallback: the state says the server does not support streaming lists, retries back off",
    servers: LIST_SERVERS,
    setup: { initialObjects: 2, informer: { streamingList: 'always' } },
    async run(ctx) {
      const rig = ctx.ours;
      if (!rig) {
        await ctx.synced();
        return ctx.converged();
      }
      await until(() => rig.events('backoff').length >= 2, 'two refused streaming lists');
      assert.equal(rig.informer.state.phase, 'backing-off');
      assert.match(rig.informer.state.reason ?? '', /does not support streaming lists \(WatchList\): 422/);
      assert.equal(rig.informer.state.synced, false);
      assert.equal(fallbacks(rig).length, 0, 'no fallback');
      assert.equal(ctx.server.requests.filter((r) => r.verb === 'list').length, 0, 'never a LIST');
      assert.ok(streamingListRequests(ctx).every((r) => r.status === 422));
    },
  },
  {
    title: "F32 with streamingList 'never' a modern server is listed page by page, then watched",
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 3, informer: { streamingList: 'never' } },
    async run(ctx) {
      await ctx.synced();
      ctx.createObject('after-sync');
      await ctx.converged();
      if (!ctx.ours) return;
      assert.equal(streamingListRequests(ctx).length, 0, 'no streaming list');
      assert.equal(ctx.server.requests.filter((r) => r.verb === 'list').length, 1);
    },
  },
  {
    title: 'F34 the server ignores sendInitialEvents (no initial-events-end bookmark): falls back after the deadline; never synced on an empty stream',
    setup: { initialObjects: 0, noStart: true, server: { ignoreSendInitialEvents: true }, informer: { watchListProgressMs: 10_000 } },
    async run(ctx) {
      const rig = ctx.ours;
      await startOurs(ctx);
      await ctx.synced();
      ctx.createObject('after-fallback');
      await ctx.converged();
      if (!rig) return;
      const f = fallbacks(rig);
      assert.equal(f.length, 1, 'one fallback');
      assert.match(f[0].reason, /no initial-events-end bookmark after 10 s/);
      assert.ok(indexOf(rig, 'streaming-list-fallback') < indexOf(rig, 'synced'), 'synced only after the fallback, by the LIST');
      const done = rig.events('list-done')[0];
      assert.ok(done.type === 'list-done' && !done.streaming, 'the list that synced is the paginated LIST');
      assert.ok(requestsOf(ctx, 'list').some((r) => r.verb === 'list'), 'a LIST was made');
      assert.equal(ctx.server.openWatches(), 1, 'the abandoned stream was closed: one watch open');
    },
  },
  {
    title: 'F34 objects streamed without the bookmark are never published: the deadline restarts with every event, then the LIST syncs',
    setup: { initialObjects: 3, noStart: true, server: { ignoreSendInitialEvents: true }, informer: { watchListProgressMs: 10_000 } },
    async run(ctx) {
      const rig = ctx.ours;
      await startOurs(ctx);
      await ctx.synced();
      await ctx.converged();
      if (!rig) return;
      assert.equal(fallbacks(rig).length, 1);
      // The three ADDED events of the ignored stream reached no handler: the first handler events are the LIST's.
      const firstSync = rig.lifecycle.findIndex((e) => e.type === 'synced');
      const done = rig.lifecycle.slice(0, firstSync).filter((e) => e.type === 'list-done');
      assert.ok(done.length === 1 && done[0].type === 'list-done' && !done[0].streaming, 'synced by the LIST only');
      assert.equal(rig.recorder.events.filter((e) => e.type === 'add').length, 3, 'each object added exactly once');
    },
  },
  {
    title: 'F35 the streaming list is cut before its bookmark: nothing published as synced, retried with backoff, converges',
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 5, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'reset', afterEvents: 2 }, { verb: 'watchlist', resource: 'configmaps', times: 2 });
      const rig = ctx.ours;
      await startOurs(ctx);
      await ctx.synced();
      ctx.updateObject('cm-1', 'after-sync');
      await ctx.converged();
      if (!rig) return;
      const listRequests = streamingListRequests(ctx);
      assert.equal(listRequests.length, 3, 'two cut streams, then the one that synced');
      const firstSync = indexOf(rig, 'synced');
      const backoffsBefore = rig.lifecycle.slice(0, firstSync).filter((e) => e.type === 'backoff');
      assert.equal(backoffsBefore.length, 2, 'each cut stream is followed by a backoff');
      assert.equal(rig.recorder.events.filter((e) => e.type === 'add').length, 5, 'no object reached a handler twice or early');
      assert.equal(rig.events('synced').length, 1, 'synced once, at the bookmark of the complete stream');
      assert.equal(rig.informer.stats.lists, 1);
      assert.equal(fallbacks(rig).length, 0, 'a cut stream is not a reason to give up the streaming list');
    },
  },
  {
    title: 'F36 410 Expired during a streaming resync: the resync starts from scratch (resourceVersion unset) and converges',
    servers: STREAMING_SERVERS,
    setup: { initialObjects: 4 },
    async run(ctx) {
      await ctx.synced();
      const rig = ctx.ours;
      if (!rig) return ctx.converged();
      await rig.phase('watching');
      const expired = { type: 'errorEvent' as const, code: 410, reason: 'Expired', message: `too old resource version: 1 (${ctx.server.resourceVersion})`, afterEvents: 1 };
      ctx.server.injectFault(expired, { verb: 'watchlist', resource: 'configmaps', times: 1 });
      const before = streamingListRequests(ctx).length;
      // A restart resyncs from the last resourceVersion; the 410 inside that stream sends it back to scratch.
      await rig.informer.restart('test');
      ctx.deleteObject('cm-0');
      ctx.createObject('cm-0');
      ctx.updateObject('cm-2', 'during-resync');
      await until(() => streamingListRequests(ctx).length >= before + 2, 'a second streaming resync');
      await ctx.converged();
      const [resync, fromScratch] = streamingListRequests(ctx).slice(before);
      assert.ok(resync.query.resourceVersion !== undefined && resync.query.resourceVersion !== '', 'the resync asked for its last resourceVersion');
      assert.equal(fromScratch.query.resourceVersion, undefined, 'after the 410 the resync starts from scratch');
      assert.ok(rig.events('expired').length >= 1, 'the expiry is logged');
      assert.equal(fallbacks(rig).length, 0, 'an expiry is not a reason to give up the streaming list');
    },
  },
  {
    title: 'F37 a continue token that expires on every attempt: one full unpaginated list (the pager fallback), no loop, converges',
    servers: LIST_SERVERS,
    setup: { initialObjects: 7, noStart: true, informer: { pageSize: 2 } },
    async run(ctx) {
      const rig = ctx.ours;
      if (!rig) {
        await startOurs(ctx);
        await ctx.synced();
        return ctx.converged();
      }
      // After the first page of every paginated list, the world changes and the server loses the
      // history its continue token points into.
      let changes = 0;
      rig.informer.onLifecycle((e) => {
        const lastList = ctx.server.requests.filter((r) => r.resource === 'configmaps' && r.verb === 'list').at(-1);
        if (e.type === 'list-page' && e.page === 1 && lastList?.query.limit !== undefined) {
          ctx.updateObject('cm-0', `between-pages-${changes++}`);
          ctx.server.restartWatchCache();
        }
      });
      rig.informer.start();
      await ctx.synced();
      await ctx.converged();
      const lists = ctx.server.requests.filter((r) => r.resource === 'configmaps' && r.verb === 'list');
      assert.deepEqual(
        lists.map((r) => `${r.status} limit=${r.query.limit ?? '-'} continue=${r.query.continue ? 'yes' : 'no'}`),
        ['200 limit=2 continue=no', '410 limit=2 continue=yes', '200 limit=- continue=no'],
        'page 1, the expired page 2, then one unpaginated list',
      );
      assert.ok(lists.every((r) => r.query.resourceVersion === undefined), 'every list is a consistent read (resourceVersion unset, never 0)');
      assert.equal(rig.events('list-restarted').length, 1);
      assert.equal(rig.events('synced').length, 1);
      assert.equal(rig.informer.stats.lists, 1);
      assert.ok(!ctx.server.requests.some((r) => isServedStreamingList(r)), 'no streaming list on this server');
    },
  },
];
