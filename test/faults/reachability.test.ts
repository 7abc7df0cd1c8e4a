import assert from 'node:assert/strict';
import { seededRandom, steppingClock } from '../../src/base/clock';
import type { ReachabilityChange } from '../../src/connection/reachability/cluster-reachability';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import { ClusterRig } from './cluster-rig';
import { until } from './rig';

type Backoff = Extract<TimedLifecycleEvent, { type: 'backoff' }>;

/** `npm run test:h2` runs this file again over HTTP/2. */
const http2 = process.env.FAKE_APISERVER_HTTP2 === '1';
const label = http2 ? 'HTTP/2' : 'HTTP/1.1';

/**
 * F50: a cluster unreachable for a while comes back for every watch within 3 s of the server
 * answering, whatever backoff the outage built up, because one probe per cluster (TCP and TLS,
 * no request) finds it back and wakes them all. The clock steps: time moves only when a timer
 * fires (the probe's cadence, the wake's spread, the backoffs), never while sockets work, so the
 * 3 s are judged on what the engine waited, not on how busy the machine is.
 */
describe('F50 reachability probe (one cluster, watches deep in backoff)', function () {
  this.timeout(60_000);
  let rig: ClusterRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** A rig whose watches are all deep in backoff behind a relay that resets every connection. */
  async function deepInBackoff(): Promise<{ r: ClusterRig; cutAt: number; changes: ReachabilityChange[] }> {
    rig = await ClusterRig.start({ scale: 10, namespaces: 3, relay: true, http2, clock: steppingClock(10, seededRandom(11)) });
    const r = rig;
    await r.synced();
    const changes: ReachabilityChange[] = [];
    r.cluster.reachability.onChange((c) => changes.push(c));
    const cutAt = r.clock.now();
    r.relay!.cut();
    await until(
      () => r.informers.every((i) => r.lifecycle.get(i)!.some((e) => e.type === 'backoff' && e.at > cutAt && e.delayMs >= 10_000)),
      'every watch backing off for 10 s or more',
    );
    return { r, cutAt, changes };
  }

  it(`F50 (${label}) watches deep in backoff come back within 3 s of the server answering, woken by one probe per cluster; while down at most one probe per cadence`, async () => {
    const { r, cutAt, changes } = await deepInBackoff();
    for (let i = 0; i < r.informers.length; i++) r.server.update('configmaps', { metadata: { name: 'cm-0', namespace: `ns-${i}` }, data: { v: 'during-outage' } });
    const probesWhileDown = r.cluster.reachability.probesStarted;
    const acceptedWhileDown = r.relay!.accepted;
    const restoreAt = r.clock.now();
    r.relay!.restore();
    await until(() => r.seen('cm-0', 'during-outage') && r.informers.every((i) => i.state.phase === 'watching'), 'every watch caught up and watching');

    // While down: one probe at a time at >= 750 ms apart (1 s - 25 %), so at most one per 750 ms of the outage.
    const downMs = restoreAt - cutAt;
    assert.ok(probesWhileDown >= 2, `the cluster was probed while down (${probesWhileDown})`);
    assert.ok(probesWhileDown <= Math.ceil(downMs / 750) + 1, `${probesWhileDown} probes in ${downMs} ms (injected)`);
    // Every connection the relay saw while down was a probe or a watch's own retry (one per backoff it waited out).
    const retries = r.informers.reduce((n, i) => n + r.lifecycle.get(i)!.filter((e) => e.type === 'backoff' && e.at > cutAt).length, 0);
    assert.ok(acceptedWhileDown <= probesWhileDown + retries + 2 * r.informers.length, `${acceptedWhileDown} connections while down: ${probesWhileDown} probes, ${retries} retries`);

    // When each watch asked again, and when its own backoff would have let it.
    const resumed = r.informers.map((i) => {
      const events = r.lifecycle.get(i)!;
      const back = events.find((e) => (e.type === 'watch-opened' || e.type === 'list-started') && e.at >= restoreAt)!;
      const pending = events.filter((e): e is Backoff => e.type === 'backoff' && e.at <= back.at).at(-1)!;
      return { ns: i.options.namespace, back: back.at - restoreAt, ownRetry: pending.retryAt - restoreAt };
    });
    const shown = JSON.stringify(resumed);
    for (const x of resumed) assert.ok(x.back <= 3000, `${x.ns} back ${x.back} ms (injected) after the server answered again: ${shown}`);
    const woken = resumed.filter((x) => x.ownRetry > 3000);
    assert.ok(woken.length >= 2, `most watches would have waited longer than 3 s: ${shown}`);
    for (const x of woken) assert.ok(x.back < x.ownRetry, `${x.ns} back before its own retry: ${shown}`);
    assert.deepEqual(
      changes.map((c) => c.type),
      ['unreachable', 'reachable'],
      'the log says "unreachable: probing" and "reachable again" once each',
    );
    assert.deepEqual(changes[0], { type: 'unreachable', probing: true });
    assert.equal(changes[1].type === 'reachable' && changes[1].by, 'probe');
    assert.equal(r.cluster.reachability.isProbing, false, 'the probe stopped once the cluster was reachable');
  });

  it(`F50 (${label}) a server that answers the probe but fails requests with 500 wakes the watches once; then each is paced by its own backoff`, async () => {
    const { r, changes } = await deepInBackoff();
    r.server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'etcd is sick' }, { times: Infinity });
    const restoreAt = r.clock.now();
    r.relay!.restore();
    const after = (i: (typeof r.informers)[number]) => r.lifecycle.get(i)!.filter((e): e is Backoff => e.type === 'backoff' && e.at >= restoreAt && /500|InternalError|etcd is sick/.test(e.cause));
    await until(() => r.informers.every((i) => after(i).length >= 3), 'every watch failed with 500 three times');
    for (const i of r.informers) {
      const b = after(i);
      // The first 500 came right after the wake; every later attempt waited out its backoff.
      for (let k = 1; k < b.length; k++) assert.ok(b[k].at >= b[k - 1].retryAt, `${i.options.namespace}: attempt ${k + 1} at ${b[k].at - restoreAt} ms, before its retry at ${b[k - 1].retryAt - restoreAt} ms`);
    }
    assert.equal(changes.filter((c) => c.type === 'reachable').length, 1, 'one wake, no wake storm');
    assert.equal(r.cluster.reachability.isProbing, false, 'no probe while the server answers');
  });
});
