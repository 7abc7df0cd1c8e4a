import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock, seededRandom, type Clock } from '../../src/base/clock';
import { CredentialRegistry } from '../../src/connection/credentials/credential-registry';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { Informer, type InformerOptions } from '../../src/informer/informer';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import { FakeApiServer } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { until } from '../support/until';
import { configmaps } from './rig';

const PROTOCOL = process.env.FAKE_APISERVER_HTTP2 === '1' ? 'HTTP/2' : 'HTTP/1.1';

/**
 * Nothing wedges (F42, F43): stop is final, and no response, however it stalls, keeps a stop,
 * a restart or a deadline from completing. The clock runs in real time here (scale 1): "within
 * 1 s" is then 1 s of real time, far above what an abort takes even on a loaded machine, and the
 * server's seconds are real seconds.
 */
describe(`nothing wedges (F42, F43) over ${PROTOCOL}`, function () {
  this.timeout(60_000);
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(opts: { informer?: Partial<InformerOptions>; kubeconfig?: (server: FakeApiServer) => string; credentials?: CredentialRegistry } = {}) {
    const server = await FakeApiServer.start({ timeScale: 1000 });
    cleanups.push(() => server.close());
    server.create('configmaps', { metadata: { name: 'cm-0', namespace: 'default' }, data: { v: '0' } });
    const clock: Clock = acceleratedClock(1, seededRandom(3));
    const kc = new KubeConfig();
    kc.loadFromString(opts.kubeconfig ? opts.kubeconfig(server) : server.kubeconfig());
    const transport = new KubeConfigTransport(kc, { clock, credentials: opts.credentials?.acquire(kc) });
    cleanups.push(() => transport.dispose());
    const informer = new Informer({ transport, type: configmaps, namespace: 'default', clock, requestTimeoutMs: 600_000, streamingList: 'never', ...opts.informer });
    const events: TimedLifecycleEvent[] = [];
    informer.onLifecycle((e) => events.push(e));
    cleanups.push(() => informer.stop());
    return { server, clock, transport, informer, events };
  }

  /** Runs `op` and returns how long it took on `clock`, failing (rather than hanging) after 20 s. */
  async function timed(clock: Clock, what: string, op: () => Promise<unknown>): Promise<number> {
    const started = clock.now();
    let done = false;
    void op().then(() => (done = true));
    await until(() => done, `${what} to complete`);
    return clock.now() - started;
  }

  it('F42 a watch stopped while it restarts stays stopped: no request, timer or run after stop() resolves', async () => {
    const { server, informer, events } = await setup();
    informer.start();
    await until(() => informer.state.phase === 'watching', 'watching');
    const restarting = informer.restart('test');
    const stopping = informer.stop();
    await Promise.all([restarting, stopping]);
    const requests = server.requests.length;
    assert.equal(informer.isRunning, false, 'not running after stop()');
    assert.equal(informer.state.phase, 'stopped');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(server.requests.length, requests, 'no request after stop() resolved');
    assert.equal(informer.state.phase, 'stopped');
    assert.equal(events.at(-1)?.type, 'stopped');
    await until(() => server.openWatches() === 0, 'no watch open on the server');
  });

  it('F42 an ad-hoc watch whose transport is disposed does not loop: it waits, stopped, until stop() or restart()', async () => {
    const { transport, informer, events } = await setup({ informer: { backoff: { initialMs: 20, maxMs: 40 } } });
    informer.start();
    await until(() => informer.state.phase === 'watching', 'watching');
    transport.dispose();
    await until(() => informer.state.phase === 'stopped', () => `stopped (now ${informer.state.phase}: ${informer.state.reason ?? ''})`);
    const backoffs = events.filter((e) => e.type === 'backoff').length;
    await new Promise((r) => setTimeout(r, 400)); // ten backoff ceilings
    assert.equal(events.filter((e) => e.type === 'backoff').length, backoffs, 'no retry loop on a disposed transport');
    assert.match(informer.state.reason ?? '', /closed/);
    await informer.stop();
    assert.equal(informer.isRunning, false);
  });

  it('F43 an error response whose body never ends (a chunked 500 on the watch): the request\'s deadline ends it, then the watch converges', async () => {
    const { server, informer, events } = await setup({ informer: { requestTimeoutMs: 1500 } });
    server.injectFault({ type: 'stalledBody', code: 500 }, { verb: 'watch', times: 1 });
    informer.start();
    await until(() => events.some((e) => e.type === 'backoff'), 'a backoff after the stalled error body');
    const backoff = events.find((e) => e.type === 'backoff');
    assert.ok(backoff?.type === 'backoff' && /no response to the watch within 2 s/.test(backoff.cause), `the deadline ended it (${backoff?.type === 'backoff' ? backoff.cause : ''})`);
    server.update('configmaps', { metadata: { name: 'cm-0', namespace: 'default' }, data: { v: 'after' } });
    await until(() => (informer.get('default', 'cm-0') as { data?: { v?: string } } | undefined)?.data?.v === 'after' && informer.state.phase === 'watching', 'converged');
  });

  it('F43 stop() and restart() complete within 1 s while an error body never ends', async () => {
    const { server, clock, informer } = await setup();
    const stall = server.injectFault({ type: 'stalledBody', code: 503 }, { verb: 'watch', times: Infinity });
    informer.start();
    await until(() => stall.hits >= 1, 'the stalled watch response');
    await new Promise((r) => setTimeout(r, 50)); // its headers and half its body are read
    const restartMs = await timed(clock, 'restart()', () => informer.restart('test'));
    assert.ok(restartMs <= 1000, `restart() took ${restartMs} ms`);
    await until(() => stall.hits >= 2, 'the restarted watch stalls again');
    await new Promise((r) => setTimeout(r, 50));
    const stopMs = await timed(clock, 'stop()', () => informer.stop());
    assert.ok(stopMs <= 1000, `stop() took ${stopMs} ms`);
    assert.equal(informer.state.phase, 'stopped');
  });

  it('F43 a proxy stalling mid-body on a list: the list deadline ends it, the list is retried and converges', async () => {
    const { server, informer, events } = await setup({ informer: { requestTimeoutMs: 1500 } });
    server.injectFault({ type: 'stalledBody', code: 200 }, { verb: 'list', times: 1 });
    informer.start();
    await until(() => informer.state.synced && informer.state.phase === 'watching', () => `synced (now ${informer.state.phase}: ${informer.state.reason ?? ''})`);
    const backoff = events.find((e) => e.type === 'backoff');
    assert.ok(backoff?.type === 'backoff' && /list page within 2 s/.test(backoff.cause), `the deadline ended the stalled list (${backoff?.type === 'backoff' ? backoff.cause : 'no backoff'})`);
    assert.equal(events.filter((e) => e.type === 'list-done').length, 1, 'one complete list, none partial');
  });

  it('F43 a 401 whose credential refresh fails leaves no response unread: no socket pinned however often it happens', async () => {
    const plugin = new ExecPluginFixture('wrong-token');
    cleanups.push(() => plugin.dispose());
    // A user's plugin runs at most once in 10 s (F38): on a clock 20 times faster, the refreshes
    // that follow the refusals come every half second.
    const credentials = new CredentialRegistry({ clock: acceleratedClock(20) });
    cleanups.push(() => credentials.dispose());
    const { server, informer, events } = await setup({
      credentials,
      informer: { backoff: { initialMs: 20, maxMs: 40 } },
      kubeconfig: (s) => plugin.kubeconfig({ server: s.url, caPem: s.url.startsWith('https:') ? s.caPem : undefined }),
    });
    // The first run hands out a token the server refuses; every later run (the refresh on 401) fails.
    informer.start();
    await until(() => server.requests.some((r) => r.status === 401), 'a 401');
    plugin.setExitCode(1);
    await until(() => server.requests.filter((r) => r.status === 401).length >= 4, 'four refused requests, each followed by a failed refresh');
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(server.openSockets() <= 1, `${server.openSockets()} sockets open: refused responses left unread pin their connections`);
    assert.ok(events.some((e) => e.type === 'state' && e.state.phase === 'credentials-failed'), 'the failed refresh shows as credentials failed');
  });
});

