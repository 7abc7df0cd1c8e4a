import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiError } from '../../src/base/api-error';
import { ExecCredentials, execConfigOf } from '../../src/connection/credentials/exec-credentials';
import { MIN_RUN_SPACING_MS, planRenewal } from '../../src/connection/credentials/renewal-plan';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { FakeApiServer } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { ManualClock } from '../support/manual-clock';
import { until } from '../support/until';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/**
 * F38: exec plugin renewal planned from the credential's own lifetime. The plugin fixture runs as
 * a real process; the credentials run on a manual clock stepped through simulated hours; every
 * request goes through the real transport to the local API server, which accepts only the
 * newest token.
 */
describe('credentials that renew without storms (exec plugins, F38)', function () {
  this.timeout(120_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(http2: boolean, token: string) {
    const server = await FakeApiServer.start({ http2, token });
    cleanups.push(() => server.close());
    const plugin = new ExecPluginFixture(token);
    cleanups.push(() => plugin.dispose());
    const clock = new ManualClock();
    plugin.setNow(clock.now());
    const kc = new KubeConfig();
    kc.loadFromString(plugin.kubeconfig({ server: server.url, caPem: server.caPem }));
    const creds = new ExecCredentials(execConfigOf(kc)!, kc, { clock });
    const transport = new KubeConfigTransport(kc, { credentials: creds });
    cleanups.push(() => transport.dispose());
    /** One LIST through the transport. */
    const probe = () => transport.list(CONFIGMAPS, {}, new AbortController().signal);
    /** Fires the timers due up to `end` one by one, each with the plugin seeing its time, and waits for each run to finish. */
    const runTimersUntil = async (end: number) => {
      for (let due = clock.nextDue(); due !== undefined && due <= end && plugin.runs() < 50; due = clock.nextDue()) {
        plugin.setNow(due);
        clock.fireNext();
        await until(() => !creds.busy, () => `the plugin run at ${(due! - t0) / MINUTE} min to finish`);
      }
      clock.advance(end - clock.now());
      plugin.setNow(clock.now());
    };
    const t0 = clock.now();
    return { server, plugin, clock, creds, transport, probe, runTimersUntil, t0 };
  }

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    const protocol = http2 ? 'h2' : 'http/1.1';

    it(`F38 (${label}) an exec plugin that caches its token for an hour (kubelogin): over two simulated hours it runs at 0, 55, 60 and 120 min, never back to back as expiry nears; every request is accepted`, async () => {
      const { server, plugin, clock, creds, probe, runTimersUntil, t0 } = await setup(http2, 'tok-1');
      plugin.setCaching(HOUR);
      await probe();
      for (let t = t0 + 5 * MINUTE; t <= t0 + 2 * HOUR + MINUTE; t += 5 * MINUTE) {
        await runTimersUntil(t);
        // The server accepts only the newest token the plugin's cache issued.
        server.setToken(plugin.issued().at(-1)!.token);
        await probe();
      }
      const minutes = plugin.runTimes().map((t) => (t - t0) / MINUTE);
      assert.deepEqual(minutes, [0, 55, 60, 120], `plugin runs (min): ${minutes.join(', ')}`);
      assert.equal(minutes.filter((m) => m <= 60).length, 3, 'three runs in the first hour (was: 0, 48, 57.6, 59 min, then back to back)');
      assert.deepEqual(
        plugin.issued().map((i) => i.token),
        ['tok-1', 'tok-2', 'tok-3'],
      );
      assert.ok(creds.runs === plugin.runs());
      const requests = server.requests.filter((r) => r.verb === 'list');
      assert.equal(requests.length, 25, 'one list per probe, none refused and retried');
      assert.ok(
        requests.every((r) => r.status === 200 && r.protocol === protocol),
        requests.map((r) => `${r.status} ${r.protocol}`).join(', '),
      );
      assert.ok(clock.now() >= t0 + 2 * HOUR);
    });

    it(`F38 (${label}) an exec credential whose expiry is already past (clock skew) is used until a 401: one plugin run in a simulated hour of requests; a 401 runs it once more, and a second 401 within 10 s waits for its turn`, async () => {
      const { server, plugin, clock, creds, probe, runTimersUntil, t0 } = await setup(http2, 'skewed-1');
      plugin.setExpiry(new Date(t0 - HOUR));
      await probe();
      for (let t = t0 + 5 * MINUTE; t <= t0 + HOUR; t += 5 * MINUTE) {
        await runTimersUntil(t);
        await probe();
      }
      assert.equal(plugin.runs(), 1, 'the past expiry planned no renewal and no request ran the plugin');
      assert.equal(clock.pending(), 0, 'no renewal timer');

      // The server refuses it now: the 401 runs the plugin once, and the request is retried with the new token.
      plugin.setToken('skewed-2');
      server.setToken('skewed-2');
      await probe();
      assert.equal(plugin.runs(), 2);

      // Refused again at once, and the plugin hands out the same token: the next run waits for the
      // 10 s window; with the same credential back, the 401 stands (no retry with it).
      server.setToken('skewed-3');
      const refused = probe();
      await until(() => creds.busy && clock.pending() === 1, 'the refresh waiting for its turn');
      assert.equal(plugin.runs(), 2, 'no run within 10 s of the last');
      plugin.setNow(clock.now() + MIN_RUN_SPACING_MS);
      clock.advance(MIN_RUN_SPACING_MS);
      await assert.rejects(refused, (err: unknown) => err instanceof ApiError && err.code === 401);
      assert.equal(plugin.runs(), 3);
      const times = plugin.runTimes();
      assert.equal(times[2] - times[1], MIN_RUN_SPACING_MS);
      assert.ok(server.requests.every((r) => r.protocol === protocol));
    });
  }

  describe('planRenewal', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    it('plans a credential seen for the first time from its expiry: a fifth of what is left ahead, at most 5 min', () => {
      assert.equal(planRenewal({ now, lastRunAt: now, firstSeenAt: now, expiresAt: now + HOUR, pluginCaches: false }), now + 55 * MINUTE);
      assert.equal(planRenewal({ now, lastRunAt: now, firstSeenAt: now, expiresAt: now + 10 * MINUTE, pluginCaches: false }), now + 8 * MINUTE);
    });
    it('plans a credential handed back again from when it was first seen, and a caching plugin at the expiry', () => {
      const later = now + 55 * MINUTE;
      assert.equal(planRenewal({ now: later, lastRunAt: later, firstSeenAt: now, expiresAt: now + HOUR, pluginCaches: true }), now + HOUR);
    });
    it('never plans a run sooner than 10 s after the last, and none for a past or missing expiry', () => {
      assert.equal(planRenewal({ now, lastRunAt: now, firstSeenAt: now, expiresAt: now + 5_000, pluginCaches: false }), now + MIN_RUN_SPACING_MS);
      assert.equal(planRenewal({ now, lastRunAt: now, firstSeenAt: now, expiresAt: now - 1, pluginCaches: false }), undefined);
      assert.equal(planRenewal({ now, lastRunAt: now, firstSeenAt: now, expiresAt: undefined, pluginCaches: false }), undefined);
    });
  });
});
