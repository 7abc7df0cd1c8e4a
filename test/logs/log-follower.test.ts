import { strict as assert } from 'node:assert';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { LogFollower, containerRunOf, type LogSink } from '../../src/logs';
import { FakeApiServer } from '../support/apiserver';
import { ManualClock } from '../ui/lifecycle-rig';
import { until } from '../support/until';

const T0 = Date.parse('2026-11-23T02:40:00.100Z');

/** Waits (in real time, polling) until `cond` holds; the mocha timeout bounds it. */
function pod(name: string, containers: string[], restartCount = 0, containerID = 'containerd://run0') {
  return {
    metadata: { name, namespace: 'default' },
    spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })), initContainers: [{ name: 'init', image: 'busybox' }] },
    status: { phase: 'Running', containerStatuses: containers.map((c) => ({ name: c, restartCount, containerID, ready: true })) },
  };
}

class RecordingSink implements LogSink {
  readonly lines: string[] = [];
  readonly markers: string[] = [];
  readonly all: string[] = [];
  line(text: string): void {
    this.lines.push(text);
    this.all.push(text);
  }
  marker(text: string): void {
    this.markers.push(text);
    this.all.push(`-- ${text}`);
  }
}

describe('pod log follower against the local API server', () => {
  let server: FakeApiServer;
  let transport: KubeConfigTransport;

  beforeEach(async () => {
    server = await FakeApiServer.start();
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig());
    transport = new KubeConfigTransport(kc);
  });

  afterEach(async () => {
    transport.dispose();
    await server.close();
  });

  const logRequests = () => server.requests.filter((r) => r.path.endsWith('/log'));

  it('follows, resumes with sinceTime after a drop without a repeated line, marks the gap, and stops when closed', async () => {
    server.create('pods', pod('web', ['app']));
    server.podLogs.append('default', 'web', 'app', 'one', T0);
    server.podLogs.append('default', 'web', 'app', 'two', T0 + 300);
    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const f = new LogFollower({ namespace: 'default', pod: 'web', container: 'app' }, sink, {
      transport,
      clock,
      currentRun: () => containerRunOf(server.get('pods', 'default', 'web'), 'app'),
    });
    const done = f.start();
    await until(() => sink.lines.length === 2, 'sink.lines.length === 2');
    server.podLogs.append('default', 'web', 'app', 'three', T0 + 600);
    await until(() => sink.lines.length === 3, 'sink.lines.length === 3');
    assert.equal(f.activeStreams, 1);

    assert.equal(server.podLogs.drop('end'), 1);
    await until(() => f.activeStreams === 0 && clock.pendingTimers === 1, 'f.activeStreams === 0 && clock.pendingTimers === 1');
    clock.advance(5000);
    await until(() => sink.markers.length === 1, 'sink.markers.length === 1');
    server.podLogs.append('default', 'web', 'app', 'four', T0 + 6000);
    await until(() => sink.lines.length === 4, 'sink.lines.length === 4');

    assert.deepEqual(sink.all, ['one', 'two', 'three', '-- reconnected, 5 s gap', 'four']);
    const resumed = logRequests()[1];
    assert.equal(resumed.query.sinceTime, '2026-11-23T02:40:00Z');
    assert.equal(resumed.query.follow, 'true');
    assert.equal(resumed.query.timestamps, 'true');
    assert.equal(resumed.query.container, 'app');

    f.stop();
    await done;
    await until(() => server.podLogs.openStreams === 0, 'server.podLogs.openStreams === 0');
    assert.equal(f.activeStreams, 0);
    assert.equal(f.activeTimers, 0);
    assert.equal(clock.pendingTimers, 0);
  });

  it('says lines may have been lost when the container restarted, and resumes a silent stream', async () => {
    server.create('pods', pod('job', ['app']));
    server.podLogs.append('default', 'job', 'app', 'a', T0);
    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const f = new LogFollower({ namespace: 'default', pod: 'job', container: 'app' }, sink, {
      transport,
      clock,
      silenceMs: 60_000,
      currentRun: () => containerRunOf(server.get('pods', 'default', 'job'), 'app'),
    });
    const done = f.start();
    await until(() => sink.lines.length === 1, 'sink.lines.length === 1');

    server.podLogs.restart('default', 'job', 'app');
    server.update('pods', pod('job', ['app'], 1, 'containerd://run1'));
    server.podLogs.append('default', 'job', 'app', 'b', T0 + 2000);
    await until(() => f.activeStreams === 0 && clock.pendingTimers === 1, 'f.activeStreams === 0 && clock.pendingTimers === 1');
    clock.advance(3000);
    await until(() => sink.lines.length === 2, 'sink.lines.length === 2');
    assert.match(sink.markers[0], /^reconnected, 3 s gap; the container restarted meanwhile: lines written before the restart may have been lost$/);

    // A silent connection: the server keeps the stream open and sends nothing.
    server.podLogs.silence();
    server.podLogs.append('default', 'job', 'app', 'c', T0 + 3000);
    clock.advance(60_000);
    await until(() => f.activeStreams === 0 && clock.pendingTimers === 1, 'f.activeStreams === 0 && clock.pendingTimers === 1');
    clock.advance(2000);
    await until(() => sink.lines.length === 3, 'sink.lines.length === 3');
    assert.deepEqual(sink.lines, ['a', 'b', 'c']);
    assert.equal(sink.markers[1], 'reconnected, 2 s gap');

    f.stop();
    await done;
    assert.equal(f.activeTimers + f.activeStreams + clock.pendingTimers, 0);
  });

  it('stops with the server\'s message when the pod has several containers and none is named', async () => {
    server.create('pods', pod('two', ['a', 'b']));
    const sink = new RecordingSink();
    const f = new LogFollower({ namespace: 'default', pod: 'two', container: '' }, sink, { transport, clock: new ManualClock() });
    await f.start();
    assert.deepEqual(sink.markers, ['stopped: a container name must be specified for pod two, choose one of: [a b]']);
    assert.equal(f.activeTimers + f.activeStreams, 0);
  });

  it('reads the previous run once, and 400 when there is none', async () => {
    server.create('pods', pod('crash', ['app']));
    server.podLogs.append('default', 'crash', 'app', 'before the crash', T0);
    const first = new RecordingSink();
    await new LogFollower({ namespace: 'default', pod: 'crash', container: 'app', previous: true }, first, { transport, clock: new ManualClock() }).start();
    assert.deepEqual(first.markers, ['stopped: previous terminated container "app" in pod "crash" not found']);
    server.podLogs.restart('default', 'crash', 'app');
    const second = new RecordingSink();
    await new LogFollower({ namespace: 'default', pod: 'crash', container: 'app', previous: true }, second, { transport, clock: new ManualClock() }).start();
    assert.deepEqual(second.all, ['before the crash']);
  });

  it('V30 while the log cannot be read, each failed attempt is one failure with its next try (no marker per attempt); a sink without it gets the old marker', async () => {
    server.create('pods', pod('web', ['app']));
    server.podLogs.append('default', 'web', 'app', 'one', T0);
    const clock = new ManualClock(T0 + 1000);
    const failures: { reason: string; nextTryAt: number; at: number }[] = [];
    const sink = new RecordingSink();
    const withFailed = Object.assign(sink, { failed: (reason: string, nextTryAt: number) => failures.push({ reason, nextTryAt, at: clock.now() }) });
    await server.goDown();
    const f = new LogFollower({ namespace: 'default', pod: 'web', container: 'app' }, withFailed, { transport, clock });
    const done = f.start();
    for (let i = 0; i < 3; i++) {
      await until(() => failures.length === i + 1, `failure ${i + 1}`);
      assert.ok(failures[i].nextTryAt > failures[i].at, 'a next try in the future');
      clock.advance(failures[i].nextTryAt - clock.now());
    }
    await until(() => failures.length === 4, 'failure 4');
    await server.comeUp();
    clock.advance(failures[3].nextTryAt - clock.now());
    await until(() => sink.lines.length === 1, 'the log once the server answers');
    assert.equal(new Set(failures.map((x) => x.reason)).size, 1, JSON.stringify(failures));
    assert.deepEqual(sink.markers.filter((m) => /cannot read the log/.test(m)), [], 'no marker per attempt');
    f.stop();
    await done;

    await server.goDown();
    const plain = new RecordingSink();
    const g = new LogFollower({ namespace: 'default', pod: 'web', container: 'app' }, plain, { transport, clock });
    const gone = g.start();
    await until(() => plain.markers.length === 1, 'a marker');
    await server.comeUp();
    assert.match(plain.markers[0], /^cannot read the log: .*; retrying$/);
    g.stop();
    await gone;
  });
});
