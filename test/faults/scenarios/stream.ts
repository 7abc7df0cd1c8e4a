import assert from 'node:assert/strict';
import { acceleratedClock, seededRandom, steppingClock } from '../../../src/base/clock';
import type { TimedLifecycleEvent } from '../../../src/informer/lifecycle-event';
import { SCALE, clockSleep, until, type Rig } from '../rig';
import { LIST_SERVERS, type FaultContext, type Scenario } from '../scenario';
import { isServedStreamingList, requestsOf } from '../requests';

/**
 * F15 (bad lines in the stream), F16 (ERROR events with a non-410 Status) and F20 (a server
 * that closes every watch at once). Faults are injected before the client starts, so that the
 * very first watch meets them and nothing else (no dropped watch) disturbs the count of lists.
 */

type BackoffEvent = Extract<TimedLifecycleEvent, { type: 'backoff' }>;
type WarningEvent = Extract<TimedLifecycleEvent, { type: 'warning' }>;

/** The default backoff (BackoffOptions): 800 ms doubling to 30 s. */
const BACKOFF_INITIAL_MS = 800;
const BACKOFF_MAX_MS = 30_000;
/** Tolerance for the server's millisecond timestamps and timer granularity, in real ms. */
const CLOCK_SLACK_REAL_MS = 2;

async function start(ctx: FaultContext): Promise<void> {
  if (ctx.ours) ctx.ours.informer.start();
  else await ctx.client.restart();
}


function backoffs(rig: Rig): BackoffEvent[] {
  return rig.lifecycle.filter((e): e is BackoffEvent => e.type === 'backoff');
}

function warnings(rig: Rig): WarningEvent[] {
  return rig.lifecycle.filter((e): e is WarningEvent => e.type === 'warning');
}

function resourceVersionOf(ctx: FaultContext, name: string): string {
  const rv = ctx.server.get('configmaps', ctx.namespace, name)?.metadata.resourceVersion;
  assert.ok(typeof rv === 'string' && rv !== '', `${name} has a resourceVersion`);
  return rv;
}

/** Our informer did not fail in a way it did not expect. */
function assertNoUnexpectedFailure(rig: Rig): void {
  const bad = warnings(rig).filter((w) => /unexpected failure/.test(w.message));
  assert.deepEqual(bad.map((w) => w.message), [], 'no unexpected failure');
}

// ---------------------------------------------------------------- F15

const badLines = [
  { what: 'a malformed line', line: '{"type":"MODIFIED","object":{"kind":"ConfigMap","metadata":{"name":', eventType: undefined, message: /malformed/ },
  {
    what: 'an ADDED event whose object has no metadata',
    line: '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","data":{"k":"v"}}}',
    eventType: 'ADDED',
    message: /metadata/,
  },
] as const;

const f15BadLines: Scenario[] = badLines.map((bad) => ({
  title: `F15 ${bad.what} in the stream: warning${bad.eventType ? ' with the event type' : ''}, never thrown, re-watch from the last good resourceVersion without a relist`,
  setup: { initialObjects: 3, noStart: true },
  async run(ctx: FaultContext) {
    // One good event, then the bad line, on the first watch only.
    ctx.server.injectFault({ type: 'malformed', line: bad.line, afterEvents: 1 }, { verb: 'watch', resource: 'configmaps', times: 1 });
    await start(ctx);
    await ctx.synced();
    await until(() => ctx.server.openWatches() === 1 && requestsOf(ctx, 'watch').length === 1, 'the first watch');
    ctx.createObject('last-good');
    const lastGood = resourceVersionOf(ctx, 'last-good');
    await until(() => requestsOf(ctx, 'watch').length >= 2, 'a re-watch after the bad line');
    const rewatch = requestsOf(ctx, 'watch')[1];
    assert.equal(rewatch.query.resourceVersion, lastGood, 'the re-watch resumes from the last good resourceVersion');
    ctx.createObject('after-bad-line');
    ctx.updateObject('cm-1', 'after-bad-line');
    ctx.deleteObject('cm-2');
    await ctx.converged();
    assert.equal(requestsOf(ctx, 'list').length, 1, 'a bad line does not relist');
    const rig = ctx.ours;
    if (rig) {
      const w = warnings(rig);
      assert.equal(w.length, 1, `one warning (${w.map((e) => e.message).join('; ')})`);
      assert.match(w[0].message, bad.message);
      assert.equal(w[0].eventType, bad.eventType, 'the warning carries the event type');
      assertNoUnexpectedFailure(rig);
      assert.equal(rig.informer.stats.lists, 1, 'no relist');
      assert.equal(rig.informer.stats.relists, 0, 'no relist');
      assert.ok(rig.informer.isRunning);
      await rig.phase('watching');
    }
  },
}));

/** docs/fault-matrix.md F15: an event type this client does not know is logged and skipped; the watch is kept. */
const f15UnknownType: Scenario = {
  title: 'F15 an unknown event type in the stream: warning with the event type, skipped, the same watch goes on without a re-watch or relist',
  // Where the first request is a streaming list, the plain watch this fault targets starts only
  // after that request ends at its timeout, so "never closed" cannot hold there.
  servers: LIST_SERVERS,
  setup: { initialObjects: 3, noStart: true },
  async run(ctx: FaultContext) {
    ctx.server.injectFault(
      { type: 'malformed', line: '{"type":"SURPRISE","object":{"kind":"ConfigMap","apiVersion":"v1"}}', afterEvents: 1 },
      { verb: 'watch', resource: 'configmaps', times: 1 },
    );
    await start(ctx);
    await ctx.synced();
    await until(() => ctx.server.openWatches() === 1 && requestsOf(ctx, 'watch').length === 1, 'the first watch');
    ctx.createObject('before-surprise');
    // Changes after the unknown line arrive on the same watch.
    ctx.createObject('after-surprise');
    ctx.updateObject('cm-1', 'after-surprise');
    ctx.deleteObject('cm-2');
    await ctx.converged();
    const rig = ctx.ours;
    if (rig) {
      await until(() => warnings(rig).length >= 1, 'the warning');
      const w = warnings(rig);
      assert.equal(w.length, 1, `one warning (${w.map((e) => e.message).join('; ')})`);
      assert.match(w[0].message, /SURPRISE/);
      assert.equal(w[0].eventType, 'SURPRISE', 'the warning carries the event type');
      assertNoUnexpectedFailure(rig);
      assert.equal(requestsOf(ctx, 'watch').length, 1, 'the watch is kept: no re-watch');
      assert.equal(requestsOf(ctx, 'list').length, 1, 'no relist');
      assert.equal(rig.events('watch-closed').length, 0, 'the watch was not closed');
      assert.equal(backoffs(rig).length, 0, 'no backoff');
      await rig.phase('watching');
    }
  },
};

const f15: Scenario[] = [...f15BadLines, f15UnknownType];

// ---------------------------------------------------------------- F16

const etcdPrevKvNil = {
  code: 500,
  reason: 'InternalError',
  message:
    'Internal error occurred: etcd event received with PrevKv=nil (key="/registry/configmaps/default/cm-2", modRevision=391, type=PUT)',
};
const tooManyRequests = { code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.', retryAfterSeconds: 20 };
const timeout = {
  code: 504,
  reason: 'Timeout',
  message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
  retryAfterSeconds: 2,
};

function singleErrorEvent(name: string, status: { code: number; reason: string; message: string; retryAfterSeconds?: number }): Scenario {
  return {
    title: `F16 a single ERROR event ${status.code} ${status.reason} (${name}): logged, re-watch after backoff${status.retryAfterSeconds ? ' honouring Retry-After' : ''} without a relist, converges`,
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'errorEvent', ...status, afterEvents: 1 }, { verb: 'watch', resource: 'configmaps', times: 1 });
      await start(ctx);
      await ctx.synced();
      await until(() => ctx.server.openWatches() === 1 && requestsOf(ctx, 'watch').length === 1, 'the first watch');
      ctx.createObject('before-error');
      const lastGood = resourceVersionOf(ctx, 'before-error');
      await until(() => requestsOf(ctx, 'watch').length >= 2, 'a re-watch after the ERROR event');
      const [first, second] = requestsOf(ctx, 'watch');
      assert.equal(second.query.resourceVersion, lastGood, 'the re-watch resumes from the last resourceVersion');
      if (status.retryAfterSeconds) {
        const waited = (second.at - first.at) * SCALE;
        assert.ok(waited >= status.retryAfterSeconds * 1000 - CLOCK_SLACK_REAL_MS * SCALE, `Retry-After honoured (re-watched after ${(waited / 1000).toFixed(1)} s)`);
      }
      ctx.updateObject('cm-0', 'after-error');
      ctx.createObject('after-error');
      await ctx.converged();
      assert.equal(requestsOf(ctx, 'list').length, 1, 'a single ERROR event does not relist');
      const rig = ctx.ours;
      if (rig) {
        const b = backoffs(rig);
        assert.equal(b.length, 1, 'the ERROR event is followed by one backoff');
        assert.ok(b[0].cause.includes(String(status.code)) && b[0].cause.includes(status.reason), `the backoff names the status (${b[0].cause})`);
        assert.ok(b[0].cause.includes(status.message), 'the backoff carries the server message');
        if (status.retryAfterSeconds) assert.ok(b[0].delayMs >= status.retryAfterSeconds * 1000, `Retry-After honoured (delay ${b[0].delayMs} ms)`);
        assert.equal(rig.informer.stats.relists, 0);
        assert.equal(rig.events('relist').length, 0);
        assertNoUnexpectedFailure(rig);
        await rig.phase('watching');
      }
    },
  };
}

function repeatedErrorEvent(name: string, status: { code: number; reason: string; message: string; retryAfterSeconds?: number }): Scenario {
  return {
    title: `F16 the same ERROR event ${status.code} ${status.reason} (${name}) repeating leads to a relist, then converges`,
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'errorEvent', ...status }, { verb: 'watch', resource: 'configmaps', times: 2 });
      await start(ctx);
      await ctx.synced();
      ctx.updateObject('cm-1', 'during-errors');
      ctx.deleteObject('cm-2');
      await until(() => requestsOf(ctx, 'watch').length >= 3, 'a watch after the repeated error');
      // Between the second ERROR and the next watch: a relist.
      const seq = ctx.server.requests
        .filter((r) => r.resource === 'configmaps' && (r.verb === 'list' || r.verb === 'watch' || isServedStreamingList(r)))
        .map((r) => ({ ...r, verb: r.verb === 'watchlist' ? 'list' : r.verb }));
      const watchIdx = seq.flatMap((r, i) => (r.verb === 'watch' ? [i] : []));
      assert.deepEqual(
        seq.slice(0, watchIdx[2] + 1).map((r) => r.verb),
        ['list', 'watch', 'watch', 'list', 'watch'],
        'the first ERROR re-watches, the repeated one relists before the next watch',
      );
      ctx.createObject('after-errors');
      await ctx.converged();
      const rig = ctx.ours;
      if (rig) {
        assert.ok(rig.informer.stats.relists >= 1, 'the repeat relists');
        const relists = rig.events('relist');
        assert.ok(relists.length >= 1, 'the relist is logged');
        assert.ok(relists[0].type === 'relist' && relists[0].reason.includes(status.reason), `the relist names the repeated error (${relists[0].type === 'relist' ? relists[0].reason : ''})`);
        const b = backoffs(rig);
        assert.ok(b.length >= 2, 'each ERROR event is followed by a backoff');
        assert.ok(b.slice(0, 2).every((e) => e.cause.includes(status.reason)), 'both backoffs name the error');
        assertNoUnexpectedFailure(rig);
        await rig.phase('watching');
      }
    },
  };
}

const f16: Scenario[] = [
  singleErrorEvent('etcd PrevKv=nil', etcdPrevKvNil),
  singleErrorEvent('throttled', tooManyRequests),
  singleErrorEvent('server timeout', timeout),
  repeatedErrorEvent('etcd PrevKv=nil', etcdPrevKvNil),
  repeatedErrorEvent('server timeout', timeout),
];

// ---------------------------------------------------------------- F20

/** Most watch requests in any window of `windowClockMs` on the informer clock, from the server log. */
function maxInWindow(ats: number[], windowClockMs: number): number {
  let best = 0;
  for (let i = 0; i < ats.length; i++) {
    let n = 0;
    for (let j = i; j < ats.length && (ats[j] - ats[i]) * SCALE < windowClockMs; j++) n++;
    best = Math.max(best, n);
  }
  return best;
}

const f20: Scenario[] = [
  {
    title: 'F20 a server that closes every watch at once is a failure: backoff growing to the cap, relists, bounded requests per minute, converges once it heals',
    // On a streaming server the first watch is the streaming list, which this fault leaves alone
    // (it goes on until its timeout); F35 covers streams cut before their bookmark.
    servers: LIST_SERVERS,
    // Whether a watch ended "at once" is a duration the informer measures between two network
    // events; on a clock that moves only with its timers, a busy machine cannot stretch it.
    // The transport's health-check timers run on their own clock, so they cannot step this one.
    setup: {
      initialObjects: 3,
      noStart: true,
      informer: { clock: steppingClock(SCALE, seededRandom(1)) },
      transportClock: acceleratedClock(SCALE, seededRandom(2)),
    },
    async run(ctx) {
      ctx.server.injectFault({ type: 'closeImmediately' }, { verb: 'watch', resource: 'configmaps', times: Infinity });
      await start(ctx);
      await ctx.synced();
      // Two and a half clock minutes of the fault, with changes only a relist can bring in.
      const faultClockMs = 150_000;
      for (let i = 0; i < 3; i++) {
        await clockSleep(faultClockMs / 3);
        ctx.updateObject(`cm-${i}`, `during-${i}`);
        ctx.createObject(`during-${i}`);
      }
      // On a loaded machine fewer attempts fit in that time: wait (bounded) for enough of them to
      // see the backoff reach its cap, rather than for a number of real milliseconds.
      const rig0 = ctx.ours;
      await until(
        () =>
          requestsOf(ctx, 'list').length >= 2 &&
          (rig0 ? backoffs(rig0).length >= 6 && backoffs(rig0)[backoffs(rig0).length - 1].delayMs >= BACKOFF_MAX_MS / 2 : requestsOf(ctx, 'watch').length >= 3),
        'enough early closes to see the backoff reach its cap',
      );
      const watches = requestsOf(ctx, 'watch');
      assert.ok(watches.length >= 3, `the client keeps retrying (${watches.length} watches)`);
      const perMinute = maxInWindow(
        watches.map((r) => r.at),
        60_000,
      );
      // 800 ms doubling to 30 s, drawn from [ceiling/2, ceiling): at most 9 watches fit in a minute.
      assert.ok(perMinute <= 12, `requests per minute stay bounded: ${perMinute} watches in one clock minute`);
      const spanClockMs = (watches[watches.length - 1].at - watches[0].at) * SCALE;
      assert.ok(
        watches.length <= 12 + spanClockMs / (BACKOFF_MAX_MS / 2),
        `${watches.length} watches over ${(spanClockMs / 1000).toFixed(0)} s: more than the backoff allows`,
      );
      assert.ok(requestsOf(ctx, 'list').length >= 2, 'the early closes lead to relists');
      const rig = ctx.ours;
      if (rig) {
        assert.ok(rig.informer.stats.relists >= 1, 'relists happen');
        assert.ok(rig.events('relist').length >= 1, 'the relist is logged');
        // Every early close is followed by a backoff before the next watch opens.
        const seq = rig.lifecycle.filter((e) => e.type === 'watch-opened' || e.type === 'watch-closed' || e.type === 'backoff');
        for (let i = 0; i < seq.length; i++) {
          const e = seq[i];
          if (e.type !== 'watch-closed') continue;
          assert.equal(e.events, 0);
          const next = seq.slice(i + 1).find((x) => x.type !== 'watch-closed');
          if (next) assert.equal(next.type, 'backoff', `an early close (#${i}) must be followed by a backoff, not ${next.type}`);
        }
        const delays = backoffs(rig).map((b) => b.delayMs);
        assert.ok(delays.length >= 6, `enough failures to see the growth (${delays.join(', ')})`);
        assert.ok(delays[0] >= BACKOFF_INITIAL_MS / 2, `never a tight loop (first delay ${delays[0]} ms)`);
        // The first failure after an open watch is spread over [0.4, 2) s (B4), not part of the doubling.
        for (let i = 2; i < delays.length; i++) {
          assert.ok(
            delays[i] > delays[i - 1] || delays[i] >= BACKOFF_MAX_MS / 2,
            `delays grow towards the cap: ${delays.join(', ')}`,
          );
          assert.ok(delays[i] <= BACKOFF_MAX_MS, `no delay beyond the cap: ${delays.join(', ')}`);
        }
        assert.ok(delays[delays.length - 1] >= BACKOFF_MAX_MS / 2, `the delays reach the cap: ${delays.join(', ')}`);
        assertNoUnexpectedFailure(rig);
      }
      ctx.server.clearFaults();
      ctx.createObject('healed');
      await ctx.converged();
      if (rig) await rig.phase('watching');
    },
  },
];

export const streamScenarios: Scenario[] = [...f15, ...f16, ...f20];
