import { seededRandom } from '../../src/base/clock';
import type { Fault } from '../support/apiserver';
import { Rig, until } from './rig';

/**
 * Randomised faults under continuous creates, updates and deletes, some seeds behind a relay
 * that freezes connections and some with exec-plugin credentials that get revoked. Each seed is a different
 * sequence; every one must end converged (docs/fault-matrix.md's definition). A failing seed is printed
 * and can be replayed alone with CHAOS_SEED=N.
 */
const SEEDS = process.env.CHAOS_SEED ? [Number(process.env.CHAOS_SEED)] : range(1, Number(process.env.CHAOS_SEEDS ?? 200));
const STEPS = 10;

type Step = (rig: Rig, rnd: () => number) => Promise<string>;

const faultSteps: Step[] = [
  async (rig) => (rig.server.dropWatches('end'), 'watch ended by the server'),
  async (rig) => (rig.server.dropWatches('reset'), 'watch connection reset'),
  async (rig) => inject(rig, { type: 'errorEvent', code: 410, reason: 'Expired', message: `too old resource version: 1 (${rig.server.resourceVersion})` }, 'watch'),
  async (rig, rnd) => inject(rig, { type: 'errorEvent', code: 410, reason: 'Expired', message: 'too old resource version', afterEvents: 1 + Math.floor(rnd() * 3) }, 'watch'),
  async (rig) => inject(rig, { type: 'status', code: 410, reason: 'Expired', message: 'The resourceVersion for the provided watch is too old.' }, 'watch'),
  async (rig, rnd) => inject(rig, { type: 'reset', afterEvents: Math.floor(rnd() * 3) }, 'watch'),
  async (rig) => inject(rig, { type: 'reset' }, 'list'),
  async (rig) => inject(rig, { type: 'status', code: 500, reason: 'InternalError', message: 'etcd event received with PrevKv=nil' }, 'watch'),
  async (rig) => inject(rig, { type: 'errorEvent', code: 500, reason: 'InternalError', message: 'Internal error occurred: etcd event received with PrevKv=nil' }, 'watch'),
  async (rig) => inject(rig, { type: 'status', code: 429, reason: 'TooManyRequests', message: 'too many requests', retryAfterSeconds: 1 }, 'list'),
  async (rig) => inject(rig, { type: 'status', code: 503, reason: 'ServiceUnavailable', message: 'unavailable', retryAfterSeconds: 2 }, 'watch'),
  async (rig) => inject(rig, { type: 'malformed', line: '{"type":"MODIFIED","object":' }, 'watch'),
  async (rig) => inject(rig, { type: 'closeImmediately' }, 'watch'),
  async (rig) => inject(rig, { type: 'silent' }, 'watch'),
  async (rig) => (rig.server.compact(), 'history compacted'),
  async (rig, rnd) => {
    await rig.server.goDown();
    await churn(rig, rnd, 1 + Math.floor(rnd() * 5));
    if (rnd() < 0.6) rig.server.restartWatchCache();
    await pause(rnd);
    await rig.server.comeUp();
    return 'server down and up';
  },
  async (rig) => (await rig.informer.restart('chaos'), 'restart requested'),
  async (rig, rnd) => {
    // A middlebox stops forwarding (dead NAT entry, suspended peer): nothing closes the connections.
    if (!rig.relay) return (rig.server.dropWatches('reset'), 'watch connection reset');
    rig.relay.freezeAll();
    if (rnd() < 0.5) return 'connections frozen';
    await pause(rnd);
    rig.relay.unfreezeAll();
    return 'connections frozen, then thawed';
  },
  async (rig, rnd) => {
    // The cluster revokes the exec plugin's token; the plugin hands out a new one when run again.
    if (!rig.execPlugin) return (rig.server.dropWatches('end'), 'watch ended by the server');
    rig.revokeToken(`token-${Math.floor(rnd() * 1e9)}`);
    return 'credential revoked';
  },
];

async function inject(rig: Rig, fault: Fault, verb: 'list' | 'watch'): Promise<string> {
  rig.server.injectFault(fault, { verb });
  if (verb === 'watch') rig.server.dropWatches('end');
  return `${verb} fault ${fault.type}${'code' in fault ? ` ${fault.code}` : ''}`;
}

async function churn(rig: Rig, rnd: () => number, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const names = rig.server.list('configmaps', 'default').map((o) => o.metadata.name as string);
    const r = rnd();
    if (names.length === 0 || r < 0.35) {
      const name = `c-${Math.floor(rnd() * 30)}`;
      if (names.includes(name)) rig.updateObject(name, `v${Math.floor(rnd() * 1e6)}`);
      else rig.createObject(name, 'default');
    } else if (r < 0.75) rig.updateObject(names[Math.floor(rnd() * names.length)], `v${Math.floor(rnd() * 1e6)}`);
    else if (r < 0.9) rig.deleteObject(names[Math.floor(rnd() * names.length)]);
    else {
      // Delete and re-create under the same name: a new uid.
      const name = names[Math.floor(rnd() * names.length)];
      rig.deleteObject(name);
      rig.createObject(name);
    }
  }
}

function pause(rnd: () => number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.floor(rnd() * 6)));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

describe('chaos: random faults under continuous churn', function () {
  const totals = { seeds: 0, faults: 0, started: Date.now() };
  after(() => {
    const seconds = ((Date.now() - totals.started) / 1000).toFixed(1);
    console.log(`      chaos: ${totals.seeds} seeds, ${totals.faults} faults injected, ${seconds} s`);
  });

  it(`converges after every one of ${SEEDS.length} seeded fault sequences`, async function () {
    this.timeout(30_000 + SEEDS.length * 5_000);
    for (const seed of SEEDS) {
      const rnd = seededRandom(seed * 7919);
      const createIfMissing = (rig: Rig) => {
        rig.server.create('configmaps', { metadata: { name: 'anchor', namespace: 'default' }, data: {} });
      };
      const rig = await Rig.start({
        seed,
        initialObjects: Math.floor(rnd() * 8),
        informer: { timeoutSeconds: 30 + Math.floor(rnd() * 30), noDataGraceMs: 5_000, pageSize: 1 + Math.floor(rnd() * 5) },
        server: { historyLimit: 5 + Math.floor(rnd() * 20) },
        relay: rnd() < 0.5,
        execCredentials: rnd() < 0.2,
      });
      const steps: string[] = [];
      try {
        createIfMissing(rig);
        for (let i = 0; i < STEPS; i++) {
          await churn(rig, rnd, Math.floor(rnd() * 4));
          if (rnd() < 0.6) {
            steps.push(await faultSteps[Math.floor(rnd() * faultSteps.length)](rig, rnd));
            totals.faults++;
          }
          await pause(rnd);
        }
        await churn(rig, rnd, 3);
        rig.server.clearFaults();
        await rig.converged();
        await until(() => rig.informer.state.phase === 'watching', 'the informer to watch again');
        totals.seeds++;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        // Where the informer stood and what it last did: a seed that fails only on a loaded machine cannot be replayed.
        const state = rig.informer.state;
        const last = rig.lifecycle.slice(-12).map((e) => `  ${e.at} ${JSON.stringify(e)}`).join('\n');
        throw new Error(`chaos seed ${seed} failed (replay with CHAOS_SEED=${seed}); faults: ${steps.join(', ')}\n${message}\ninformer: ${state.phase}${state.reason ? ` (${state.reason})` : ''}; its last lifecycle events:\n${last}`);
      } finally {
        await rig.close();
      }
    }
  });
});
