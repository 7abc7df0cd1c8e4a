import assert from 'node:assert/strict';
import * as net from 'node:net';
import { acceleratedClock } from '../../src/base/clock';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { StreamsRig, get, heldConnection, until } from './rig';

/**
 * Forwards and streams through the connection's faults (issue 24, S05, S06, S10): a frozen
 * middlebox (a relay that stops forwarding), a wake, a revoked credential renewed by the exec
 * plugin; and nothing left behind after stop.
 */
describe('port-forward: through frozen connections, wakes and renewed credentials (local API server)', function () {
  this.timeout(120_000);
  let rig: StreamsRig | undefined;
  let registry: ClusterRegistry | undefined;

  afterEach(async () => {
    await rig?.close();
    registry?.dispose();
    rig = registry = undefined;
  });

  it('S05 a frozen connection is found by its PING (read-idle) and the forward carries on with new streams', async () => {
    registry = new ClusterRegistry(false);
    rig = await StreamsRig.start({ relay: true, manager: { clusterRegistry: registry, healthCheck: { readIdleMs: 1500, pingTimeoutMs: 1500 } } });
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await f.start();
    const idle = await heldConnection(f.status.localPort);
    assert.equal(idle.first, 'web-1\n');
    rig.relay!.freezeAll();
    await idle.closed;
    assert.equal(f.status.failed + f.status.interrupted, 1, `the frozen stream ended: ${JSON.stringify(f.status)}`);
    assert.equal((await get(f.status.localPort)).body, 'web-1\n', 'a new connection opens a new stream on a new connection');
    // Its pod watch, frozen too, comes back on a new connection.
    await until(() => f.status.phase === 'ready', () => `ready: ${JSON.stringify(f.status)}`);
  });

  it('S05 after a wake every stream is PINGed at once (3 s), long before its read-idle (10 min): frozen ones end, the forward carries on', async () => {
    registry = new ClusterRegistry(false);
    rig = await StreamsRig.start({ relay: true, manager: { clusterRegistry: registry, healthCheck: { readIdleMs: 600_000, pingTimeoutMs: 600_000 } } });
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await f.start();
    const live = await heldConnection(f.status.localPort);
    rig.relay!.freezeAll();
    registry.wake(120_000);
    await live.closed;
    assert.equal((await get(f.status.localPort)).body, 'web-1\n', 'the forward carries on after the wake');
    // Its pod watch, frozen too, comes back on a new connection.
    await until(() => f.status.phase === 'ready', () => `ready: ${JSON.stringify(f.status)}`);
  });

  it('S05 the API server down: the forward reads "reconnecting" (its pod watch is unreachable) and is ready again once the server is back', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await f.start();
    await rig.server.goDown();
    await until(() => f.status.phase === 'reconnecting', () => `reconnecting: ${JSON.stringify(f.status)}`);
    assert.match(f.status.reason ?? '', /^the pod watch is (unreachable|backing-off).*; connections go to pod web-1, the last known ready$/);
    await rig.server.comeUp();
    await until(() => f.status.phase === 'ready', () => `ready again: ${JSON.stringify(f.status)}`);
    assert.equal((await get(f.status.localPort)).body, 'web-1\n');
  });

  it('S06 a credential revoked mid-forward is renewed by the exec plugin and new connections go on', async () => {
    const plugin = new ExecPluginFixture('token-1');
    // A user's plugin runs at most once in 10 s (F38): the 401 right after the first run waits out
    // that window, here on a clock 5 times faster, so the held keep-alive connection (the simulated
    // pod closes one idle for 5 s) lives through it.
    rig = await StreamsRig.start({ token: 'token-1', clock: acceleratedClock(5), kubeconfig: (_text, server) => plugin.kubeconfig({ server: server.url, caPem: server.caPem }) });
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await f.start();
    assert.equal((await get(f.status.localPort)).body, 'web-1\n');
    const held = await heldConnection(f.status.localPort);
    const runs = plugin.runs();
    plugin.setToken('token-2');
    rig.server.setToken('token-2');
    assert.equal((await get(f.status.localPort)).body, 'web-1\n', 'the 401 ran the plugin once more and the upgrade was retried');
    assert.ok(plugin.runs() > runs);
    const upgrades = rig.server.requests.filter((r) => r.path.endsWith('/portforward'));
    assert.deepEqual(upgrades.slice(-2).map((r) => r.status), [401, 101]);
    held.socket.write('GET / HTTP/1.1\r\nHost: pod\r\n\r\n');
    await until(() => rig!.server.podStreams.ports.answered.get('web-1')! >= 4, () => 'the stream opened before the rotation goes on');
    held.socket.destroy();
  });

  it('S10 stop leaves no listener, stream, socket, timer or watch; nor does a forward stopped while connections wait', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 8080 }]);
    const watchesBefore = rig.manager.adHocWatchCount;
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 });
    await f.start();
    const held = await heldConnection(f.status.localPort);
    assert.deepEqual(f.resources, { listeners: 1, streams: 1, sockets: 1, timers: 0, watches: 2 });
    const port = f.status.localPort;
    rig.setReady('web-1', false, 'shop', 'Failed');
    await until(() => f.status.phase === 'waiting', () => 'waiting');
    const waiter = net.connect({ host: '127.0.0.1', port });
    waiter.on('error', () => undefined);
    await until(() => f.resources.timers === 1, () => `a connection waits: ${JSON.stringify(f.resources)}`);
    await f.stop();
    await held.closed;
    assert.deepEqual(f.resources, { listeners: 0, streams: 0, sockets: 0, timers: 0, watches: 0 });
    await until(() => rig!.server.podStreams.openStreams() === 0, () => 'the server sees no stream');
    await until(() => rig!.manager.adHocWatchCount === watchesBefore, () => 'no ad-hoc watch left');
    await assert.rejects(get(port), /ECONNREFUSED/);
  });
});
