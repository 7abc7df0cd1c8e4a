import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import type { InformerPhase } from '../../../src/informer/informer-state';
import type { TimedLifecycleEvent } from '../../../src/informer/lifecycle-event';
import type { ResourceType } from '../../../src/informer/resource-type';
import type { ResourceDefinition } from '../../support/apiserver';
import { SCALE, clockSleep, until, type Rig } from '../rig';
import { LIST_SERVERS, type FaultContext, type Scenario } from '../scenario';
import { requestsOf } from '../requests';

/**
 * F12 (429/503 with Retry-After), F14 (401/403) and F22 (resource type not found): the server
 * refuses a list or a watch. Retry-After is measured on the server's request log, in informer-clock
 * milliseconds (real milliseconds × SCALE); refusals must be retried slowly, never in a hot loop.
 */

type Verb = 'list' | 'watch';
type BackoffEvent = Extract<TimedLifecycleEvent, { type: 'backoff' }>;

/** The default backoff cap (BackoffOptions.maxMs); a slow retry waits at least half of it. */
const BACKOFF_MAX_MS = 30_000;
/** Tolerance for the server's millisecond timestamps and timer granularity, in real ms. */
const CLOCK_SLACK_REAL_MS = 2;

/** Starts a client set up with `noStart`, whichever client it is. */
async function start(ctx: FaultContext): Promise<void> {
  if (ctx.ours) ctx.ours.informer.start();
  else await ctx.client.restart();
}


function backoffs(rig: Rig): BackoffEvent[] {
  return rig.lifecycle.filter((e): e is BackoffEvent => e.type === 'backoff');
}

/** The bearer token the server expects, as the kubeconfig the client loaded carries it. */
function serverToken(ctx: FaultContext): string {
  const kc = new KubeConfig();
  kc.loadFromString(ctx.server.kubeconfig());
  return kc.getCurrentUser()?.token ?? '';
}

/** Milliseconds of informer clock between two server-log timestamps (real ms). */
function clockMsBetween(a: { at: number }, b: { at: number }): number {
  return (b.at - a.at) * SCALE;
}

// ---------------------------------------------------------------- F12

const throttles = [
  { code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.' },
  { code: 503, reason: 'ServiceUnavailable', message: 'The server is currently unable to handle the request' },
] as const;

function retryAfterScenario(t: (typeof throttles)[number], verb: Verb): Scenario {
  const retryAfterSeconds = 20;
  return {
    title: `F12 ${t.code} with Retry-After on the ${verb} waits at least Retry-After, then retries and converges`,
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'status', ...t, retryAfterSeconds }, { verb, resource: 'configmaps', times: 1 });
      await start(ctx);
      const rig = ctx.ours;
      if (verb === 'list') ctx.createObject('during-refusal');
      await ctx.synced();
      if (verb === 'watch') ctx.createObject('after-list');
      await until(() => requestsOf(ctx, verb).length >= 2, `a retried ${verb}`);
      const [refused, retried] = requestsOf(ctx, verb);
      assert.equal(refused.status, t.code, `the first ${verb} is refused with ${t.code}`);
      const waited = clockMsBetween(refused, retried);
      assert.ok(
        waited >= retryAfterSeconds * 1000 - CLOCK_SLACK_REAL_MS * SCALE,
        `the ${verb} is retried no sooner than Retry-After (${retryAfterSeconds} s); it was retried after ${(waited / 1000).toFixed(1)} s`,
      );
      if (verb === 'watch') {
        assert.equal(retried.query.resourceVersion, refused.query.resourceVersion, 'the watch is retried from the same resourceVersion');
      }
      if (rig) {
        const b = backoffs(rig);
        assert.ok(b.length >= 1, 'the refusal is logged as a backoff');
        assert.ok(b[0].delayMs >= retryAfterSeconds * 1000, `the backoff honours Retry-After (delay ${b[0].delayMs} ms)`);
        assert.ok(b[0].cause.includes(String(t.code)), `the backoff names the status (${b[0].cause})`);
        if (verb === 'watch') assert.equal(rig.informer.stats.relists, 0, 'a throttled watch is retried, not relisted');
      }
      await ctx.converged();
      if (rig) await rig.phase('watching');
    },
  };
}

const f12: Scenario[] = [
  ...throttles.flatMap((t) => (['list', 'watch'] as const).map((verb) => retryAfterScenario(t, verb))),
  {
    title: 'F12 a Retry-After beyond maxRetryAfterMs is bounded: the list is retried after the bound, then syncs',
    // 300 s asked, 10 s allowed (our informer only; the reference gets the server's 300 s, 1.2 s real).
    setup: { initialObjects: 2, noStart: true, informer: { maxRetryAfterMs: 10_000 } },
    async run(ctx) {
      ctx.server.injectFault(
        { type: 'status', code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.', retryAfterSeconds: 300 },
        { verb: 'list', resource: 'configmaps', times: 1 },
      );
      await start(ctx);
      await ctx.synced();
      const rig = ctx.ours;
      if (rig) {
        const [b] = backoffs(rig);
        assert.ok(b, 'the refusal is logged as a backoff');
        assert.ok(b.delayMs >= 10_000, `waits at least the bound (delay ${b.delayMs} ms)`);
        assert.ok(b.delayMs <= Math.max(10_000, BACKOFF_MAX_MS), `never longer than the bound or the backoff cap (delay ${b.delayMs} ms)`);
        const [refused, retried] = requestsOf(ctx, 'list');
        assert.ok(clockMsBetween(refused, retried) >= 10_000 - CLOCK_SLACK_REAL_MS * SCALE, 'the list is retried no sooner than the bound');
      }
      await ctx.converged();
    },
  },
];

// ---------------------------------------------------------------- F14

function refusal(code: 401 | 403, verb: Verb) {
  return code === 401
    ? { code, reason: 'Unauthorized', message: 'Unauthorized' }
    : {
        code,
        reason: 'Forbidden',
        message: `configmaps is forbidden: User "system:serviceaccount:default:viewer" cannot ${verb} resource "configmaps" in API group "" in the namespace "default"`,
      };
}

/**
 * Checks a refused informer's slow retry over several backoff-cap periods: the phase and its
 * reason, the backoff delays, and a small number of refused requests.
 */
async function assertSlowRetry(ctx: FaultContext, phase: InformerPhase, message: string, verb: Verb, resource = 'configmaps'): Promise<void> {
  const rig = ctx.ours;
  if (rig) {
    await rig.phase(phase);
    assert.equal(rig.informer.state.reason, message, 'the state carries the server message');
    assert.ok(rig.informer.state.nextRetryAt !== undefined, 'the state shows the next retry time');
  } else {
    await until(() => requestsOf(ctx, verb, resource).length >= 1, `a refused ${verb}`);
  }
  const before = requestsOf(ctx, verb, resource).length;
  const periods = 4;
  const t0 = Date.now();
  await clockSleep(periods * BACKOFF_MAX_MS);
  // A loaded machine runs late timers: wait (bounded) for the retries to show, then count them
  // against the time that really passed, so that only a hot loop can fail the bound.
  await until(
    () => requestsOf(ctx, verb, resource).length - before >= 1 && (!rig || backoffs(rig).length >= 2),
    `a slow retry of the refused ${verb}`,
  );
  const elapsedClockMs = (Date.now() - t0) * SCALE;
  const refused = requestsOf(ctx, verb, resource).length - before;
  // At a slow retry (at least half the cap between attempts), `periods` caps allow 2·periods attempts.
  const allowed = Math.ceil(elapsedClockMs / (BACKOFF_MAX_MS / 2)) + 1;
  assert.ok(refused <= allowed, `no hot loop: ${refused} ${verb} requests in ${(elapsedClockMs / 1000).toFixed(0)} s (at most ${allowed})`);
  if (rig) {
    assert.ok(refused >= 1, 'the refused informer keeps retrying slowly');
    assert.equal(rig.informer.state.phase === phase || rig.informer.state.phase === 'listing' || rig.informer.state.phase === 'connecting', true, `still refused (${rig.informer.state.phase})`);
    assert.ok(rig.informer.isRunning, 'a refusal never stops the informer');
    const b = backoffs(rig);
    assert.ok(b.length >= 2, 'each refusal is followed by a backoff');
    for (const e of b) {
      assert.ok(e.delayMs >= BACKOFF_MAX_MS / 2, `slow retry near the backoff cap, not ${e.delayMs} ms (${e.cause})`);
      assert.ok(e.delayMs <= BACKOFF_MAX_MS, `no delay beyond the cap (${e.delayMs} ms)`);
    }
  }
}

/** The credential never appears in any lifecycle event or state. */
function assertNoCredential(ctx: FaultContext): void {
  const rig = ctx.ours;
  if (!rig) return;
  const token = serverToken(ctx);
  assert.ok(token.length >= 8, 'the server has a bearer token to look for');
  const logged = JSON.stringify(rig.lifecycle) + JSON.stringify(rig.informer.state) + JSON.stringify(rig.informer.stats);
  assert.ok(!logged.includes(token), 'the bearer token must never appear in lifecycle events or states');
}

function authScenario(code: 401 | 403, verb: Verb): Scenario {
  const status = refusal(code, verb);
  const phase: InformerPhase = code === 401 ? 'unauthorized' : 'forbidden';
  return {
    title: `F14 ${code} on the ${verb}: state ${phase} with the server's message, slow retry without a hot loop, recovers, never logs the token`,
    // On a streaming server the list is the first watch: the 'list' variant covers it there.
    servers: verb === 'watch' ? LIST_SERVERS : undefined,
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.injectFault({ type: 'status', ...status }, { verb, resource: 'configmaps', times: Infinity });
      await start(ctx);
      if (verb === 'watch') await ctx.synced();
      await assertSlowRetry(ctx, phase, status.message, verb);
      assert.ok(requestsOf(ctx, verb).every((r) => r.status === code), `every ${verb} so far was refused`);
      // Credentials fixed (the fault removed): the next slow retry recovers.
      ctx.server.clearFaults();
      ctx.createObject('after-refusal');
      ctx.updateObject('cm-0', 'after-refusal');
      await ctx.converged();
      const rig = ctx.ours;
      if (rig) {
        await rig.phase('watching');
        assert.equal(rig.informer.state.reason, undefined, 'a healthy watch carries no refusal reason');
      }
      assertNoCredential(ctx);
    },
  };
}

const f14: Scenario[] = [authScenario(401, 'list'), authScenario(401, 'watch'), authScenario(403, 'list'), authScenario(403, 'watch')];

// ---------------------------------------------------------------- F22

const NOT_FOUND = 'the server could not find the requested resource';

/** ConfigMaps as the fake server predefines them, for re-installing the type. */
const configmapsDefinition: ResourceDefinition = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] };

const widgets: ResourceType = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };

const f22: Scenario[] = [
  {
    title: 'F22 a resource type the server does not serve: state not-found with the message, slow retry, syncs once the type is installed',
    setup: { initialObjects: 3, noStart: true },
    async run(ctx) {
      ctx.server.removeResource('', 'configmaps');
      await start(ctx);
      await assertSlowRetry(ctx, 'not-found', NOT_FOUND, 'list');
      assert.ok(requestsOf(ctx, 'list').every((r) => r.status === 404), 'every list so far was 404');
      const rig = ctx.ours;
      if (rig) assert.equal(rig.informer.state.synced, false, 'nothing was synced');
      // The type is installed (a CRD applied later): picked up by the next slow retry.
      ctx.server.defineResource(configmapsDefinition);
      ctx.createObject('after-install');
      await ctx.synced();
      await ctx.converged();
      if (rig) await rig.phase('watching');
    },
  },
  {
    title: 'F22 a custom resource whose group was never installed (plain-text 404): not-found, slow retry, a CRD installed later is picked up',
    setup: { noStart: true, informer: { type: widgets } },
    async run(ctx) {
      const rig = ctx.ours;
      if (!rig) {
        // The reference watches ConfigMaps whatever the setup: nothing of this row applies to it.
        await start(ctx);
        return ctx.converged();
      }
      await start(ctx);
      await assertSlowRetry(ctx, 'not-found', '404 page not found', 'list', 'widgets.example.com');
      ctx.server.defineResource({ ...widgets });
      ctx.server.create('widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w-1', namespace: ctx.namespace }, spec: { size: 1 } });
      await ctx.synced();
      const expected = ctx.server.list('widgets', ctx.namespace).map((o) => `${o.metadata.namespace}/${o.metadata.name} ${o.metadata.uid} ${o.metadata.resourceVersion}`);
      await until(
        () => rig.informer.list().map((o) => `${o.metadata.namespace}/${o.metadata.name} ${o.metadata.uid} ${o.metadata.resourceVersion}`).join() === expected.join(),
        'the widgets to be cached',
      );
      assert.equal(expected.length, 1);
      await rig.phase('watching');
    },
  },
];

export const refusalScenarios: Scenario[] = [...f12, ...f14, ...f22];
