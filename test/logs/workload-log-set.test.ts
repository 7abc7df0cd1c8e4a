import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { type KubeObject } from '../../src/informer';
import { WatchManager, type AdHocWatch } from '../../src/manager';
import { WorkloadLogSet, workloadRefOf, type LogStreamId, type WorkloadLogSink, type WorkloadRef } from '../../src/logs';
import { FakeApiServer } from '../support/apiserver';
import { ManualClock } from '../ui/lifecycle-rig';
import { until } from '../support/until';
import { LOG_RANGES, WorkloadLogScreen } from '../../src/ui/logs';
import { ScreenRecorder } from './log-screen-rig';

const T0 = Date.parse('2026-11-23T02:40:00.100Z');

/** Everything the set wrote, in order, as readable lines. */
class RecordingSink implements WorkloadLogSink {
  readonly all: string[] = [];
  line(s: LogStreamId, text: string): void {
    this.all.push(`[${s.pod}/${s.container}] ${text}`);
  }
  marker(s: LogStreamId, text: string): void {
    this.all.push(`-- [${s.pod}/${s.container}] ${text}`);
  }
  podFollowed(pod: string, _i: number, containers: readonly string[]): void {
    this.all.push(`++ ${pod}: ${containers.join(',')}`);
  }
  podEnded(pod: string, _i: number, why: string): void {
    this.all.push(`xx ${pod} ${why}`);
  }
  leftOut(streams: readonly string[], max: number): void {
    this.all.push(`!! left out (max ${max}): ${streams.join(' ')}`);
  }
  notice(text: string): void {
    this.all.push(`.. ${text}`);
  }
  linesOf(pod: string, container: string): string[] {
    const p = `[${pod}/${container}] `;
    return this.all.filter((l) => l.startsWith(p)).map((l) => l.slice(p.length));
  }
  has(line: string): boolean {
    return this.all.includes(line);
  }
}

/**
 * A workload's logs through the real stack: a WatchManager on a real KubeConfig and our
 * transport (its ad-hoc watches find the pods), LogFollowers on that transport, the local API
 * server serving the pods and their logs. The followers' backoff runs on a manual clock.
 */
describe('logs: all containers of a workload (manager, ad-hoc watches, local API server)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: FakeApiServer;
  let manager: WatchManager;
  let entryId: string;
  const sets: WorkloadLogSet[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-wlogs-'));
    server = await FakeApiServer.start({ token: 't' });
    server.defineResource({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] });
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'ctx', token: 't' });
    manager = new WatchManager({ contexts: [], resources: ['deployments.apps'], namespaces: [], kubeconfigPath: kubeconfig }, { clock: systemClock });
    await manager.start();
    await until(() => manager.entries().some((e) => e.informer?.state.synced), () => 'the deployments watch');
    entryId = manager.entries()[0].id;
  });

  afterEach(async () => {
    await Promise.all(sets.splice(0).map((s) => s.stop()));
    await manager.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function deployment(name: string): { deploy: KubeObject; rs: KubeObject } {
    const deploy = server.create('deployments.apps', {
      metadata: { namespace: 'shop', name, labels: { app: name } },
      spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } } } },
    }) as KubeObject;
    const rs = server.create('replicasets.apps', {
      metadata: {
        namespace: 'shop',
        name: `${name}-7d9f8b6c4`,
        labels: { app: name, 'pod-template-hash': '7d9f8b6c4' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: deploy.metadata.uid, controller: true }],
      },
      spec: { replicas: 2, selector: { matchLabels: { app: name, 'pod-template-hash': '7d9f8b6c4' } } },
    }) as KubeObject;
    return { deploy, rs };
  }

  function pod(name: string, labels: Record<string, string>, owner: KubeObject | undefined, containers = ['app', 'sidecar']): KubeObject {
    return server.create('pods', {
      metadata: {
        namespace: 'shop',
        name,
        labels,
        ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.metadata.name, uid: owner.metadata.uid, controller: true }] } : {}),
      },
      spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
      status: { phase: 'Running', containerStatuses: containers.map((c) => ({ name: c, restartCount: 0, containerID: `containerd://${name}-${c}`, ready: true, state: { running: {} } })) },
    }) as KubeObject;
  }

  function openSet(workload: KubeObject, clock: ManualClock, sink: WorkloadLogSink, maxStreams = 20): WorkloadLogSet {
    const ref = workloadRefOf('Deployment', workload);
    assert.equal(typeof ref, 'object', String(ref));
    const spec = manager.contextSpecOf(entryId)!;
    const set = new WorkloadLogSet(ref as WorkloadRef, sink, {
      transport: manager.transportOf(entryId)!,
      clock,
      maxStreams,
      tailLines: 10,
      watch: (request) => manager.watchAdHoc({ spec, type: request.type, namespace: request.namespace, labelSelector: request.labelSelector, purpose: request.purpose }),
    });
    sets.push(set);
    set.start();
    return set;
  }

  const logStreams = () => server.podLogs.openStreams;

  it('follows 2 pods × 2 containers (4 prefixed streams, not the pod of another owner), a new pod, a deleted pod; stopping leaves nothing', async () => {
    const { deploy, rs } = deployment('web');
    const a = pod('web-7d9f8b6c4-aaaaa', { app: 'web', 'pod-template-hash': '7d9f8b6c4' }, rs);
    pod('web-7d9f8b6c4-bbbbb', { app: 'web', 'pod-template-hash': '7d9f8b6c4' }, rs);
    // Matches the selector but belongs to another ReplicaSet (not the Deployment's): not followed.
    const stranger = server.create('replicasets.apps', { metadata: { namespace: 'shop', name: 'web-canary', labels: { app: 'web' } }, spec: { selector: { matchLabels: { app: 'web' } } } }) as KubeObject;
    pod('web-canary-ccccc', { app: 'web' }, stranger);
    for (const p of ['aaaaa', 'bbbbb']) for (const c of ['app', 'sidecar']) server.podLogs.append('shop', `web-7d9f8b6c4-${p}`, c, `${p} ${c} 1`, T0);
    server.podLogs.append('shop', 'web-canary-ccccc', 'app', 'not mine', T0);

    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const set = openSet(deploy, clock, sink);
    await until(() => set.activeStreams === 4 && logStreams() === 4, () => `4 streams: set ${set.activeStreams}, server ${logStreams()}; ${sink.all.join(' | ')}`);
    await until(() => sink.all.filter((l) => l.startsWith('[')).length === 4, () => `the first lines: ${sink.all.join(' | ')}`);
    assert.deepEqual(set.followedPods, ['web-7d9f8b6c4-aaaaa', 'web-7d9f8b6c4-bbbbb']);
    assert.deepEqual(server.podLogs.followedContainers().map((c) => `${c.pod}/${c.container}`).sort(), [
      'web-7d9f8b6c4-aaaaa/app',
      'web-7d9f8b6c4-aaaaa/sidecar',
      'web-7d9f8b6c4-bbbbb/app',
      'web-7d9f8b6c4-bbbbb/sidecar',
    ]);
    // Containers running at the start begin from their tail, as kubectl --tail=10.
    const firstRequests = server.requests.filter((r) => r.path.endsWith('/log'));
    assert.ok(firstRequests.every((r) => r.query.tailLines === '10' && r.query.follow === 'true' && r.query.timestamps === 'true'), JSON.stringify(firstRequests.map((r) => r.query)));

    server.podLogs.append('shop', 'web-7d9f8b6c4-aaaaa', 'sidecar', 'aaaaa sidecar 2', T0 + 500);
    server.podLogs.append('shop', 'web-7d9f8b6c4-bbbbb', 'app', 'bbbbb app 2', T0 + 600);
    await until(() => sink.has('[web-7d9f8b6c4-bbbbb/app] bbbbb app 2') && sink.has('[web-7d9f8b6c4-aaaaa/sidecar] aaaaa sidecar 2'), () => sink.all.join(' | '));
    assert.equal(sink.all.filter((l) => l.includes('not mine')).length, 0);

    // Scale up: a new pod is followed from its start (no tailLines).
    server.podLogs.append('shop', 'web-7d9f8b6c4-ddddd', 'app', 'ddddd app 1', T0 + 700);
    pod('web-7d9f8b6c4-ddddd', { app: 'web', 'pod-template-hash': '7d9f8b6c4' }, rs, ['app']);
    await until(() => sink.has('[web-7d9f8b6c4-ddddd/app] ddddd app 1') && set.activeStreams === 5, () => `the new pod: ${sink.all.join(' | ')}`);
    assert.ok(sink.has('++ web-7d9f8b6c4-ddddd: app'));
    const newPodRequest = server.requests.filter((r) => r.path.endsWith('/pods/web-7d9f8b6c4-ddddd/log'))[0];
    assert.equal(newPodRequest.query.tailLines, undefined);

    // A deleted pod stops its streams and says so.
    server.delete('pods', 'shop', a.metadata.name!);
    await until(() => sink.has('xx web-7d9f8b6c4-aaaaa deleted') && set.activeStreams === 3 && logStreams() === 3, () => `the deleted pod: set ${set.activeStreams}, server ${logStreams()}; ${sink.all.join(' | ')}`);
    assert.deepEqual(set.followedPods, ['web-7d9f8b6c4-bbbbb', 'web-7d9f8b6c4-ddddd']);

    assert.equal(manager.adHocWatchCount, 2, 'the pods and their ReplicaSets');
    await set.stop();
    assert.equal(set.activeStreams + set.activeTimers + clock.pendingTimers, 0);
    assert.equal(manager.adHocWatchCount, 0);
    await until(() => logStreams() === 0, () => `server streams ${logStreams()}`);
  });

  it('a stream the server drops resumes from sinceTime without a repeated line and marks the gap with its prefix', async () => {
    const { deploy, rs } = deployment('api');
    pod('api-7d9f8b6c4-aaaaa', { app: 'api' }, rs, ['app']);
    server.podLogs.append('shop', 'api-7d9f8b6c4-aaaaa', 'app', 'one', T0);
    server.podLogs.append('shop', 'api-7d9f8b6c4-aaaaa', 'app', 'two', T0 + 300);
    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const set = openSet(deploy, clock, sink);
    await until(() => sink.linesOf('api-7d9f8b6c4-aaaaa', 'app').length === 2, () => sink.all.join(' | '));

    assert.equal(server.podLogs.drop('reset'), 1);
    await until(() => set.activeStreams === 0 && set.activeTimers === 1, () => `the backoff wait: streams ${set.activeStreams}, timers ${set.activeTimers}`);
    server.podLogs.append('shop', 'api-7d9f8b6c4-aaaaa', 'app', 'three', T0 + 700);
    clock.advance(4000);
    await until(() => sink.linesOf('api-7d9f8b6c4-aaaaa', 'app').length === 3, () => sink.all.join(' | '));
    assert.deepEqual(sink.linesOf('api-7d9f8b6c4-aaaaa', 'app'), ['one', 'two', 'three']);
    assert.ok(sink.has('-- [api-7d9f8b6c4-aaaaa/app] reconnected, 4 s gap'), sink.all.join(' | '));
    const resumed = server.requests.filter((r) => r.path.endsWith('/log'))[1];
    assert.equal(resumed.query.sinceTime, '2026-11-23T02:40:00Z');
    assert.equal(resumed.query.tailLines, undefined);
    await set.stop();
    assert.equal(set.activeStreams + set.activeTimers + clock.pendingTimers + manager.adHocWatchCount, 0);
  });

  it("follows the selector's pods when the Deployment's ReplicaSets cannot be read (403)", async () => {
    server.injectFault({ type: 'status', code: 403, reason: 'Forbidden', message: 'replicasets.apps is forbidden: User "dev" cannot list resource "replicasets"' }, { resource: 'replicasets.apps', times: Infinity });
    const { deploy, rs } = deployment('shop');
    pod('shop-7d9f8b6c4-aaaaa', { app: 'shop' }, rs, ['app']);
    server.podLogs.append('shop', 'shop-7d9f8b6c4-aaaaa', 'app', 'hello', T0);
    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const set = openSet(deploy, clock, sink);
    await until(() => sink.has('[shop-7d9f8b6c4-aaaaa/app] hello'), () => sink.all.join(' | '));
    assert.equal(set.activeStreams, 1);
    await set.stop();
    assert.equal(set.activeStreams + set.activeTimers + manager.adHocWatchCount, 0);
  });

  it("a Job's pod that finished: its stream's end is the end of its log, not a disconnect (no resume, no timer left)", async () => {
    const job = { metadata: { namespace: 'shop', name: 'migrate', uid: 'job-uid-1' }, spec: { selector: { matchLabels: { 'job-name': 'migrate' } } } } as KubeObject;
    const owner = { apiVersion: 'batch/v1', kind: 'Job', name: 'migrate', uid: 'job-uid-1', controller: true };
    const spec = { containers: [{ name: 'main', image: 'busybox' }] };
    const running = { phase: 'Running', containerStatuses: [{ name: 'main', restartCount: 0, containerID: 'containerd://m', state: { running: {} } }] };
    const created = server.create('pods', { metadata: { namespace: 'shop', name: 'migrate-x7k2p', labels: { 'job-name': 'migrate' }, ownerReferences: [owner] }, spec, status: running });
    server.podLogs.append('shop', 'migrate-x7k2p', 'main', 'migrating', T0);
    const ref = workloadRefOf('Job', job) as WorkloadRef;
    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const spec0 = manager.contextSpecOf(entryId)!;
    const feeds: AdHocWatch[] = [];
    const set = new WorkloadLogSet(ref, sink, {
      transport: manager.transportOf(entryId)!,
      clock,
      maxStreams: 20,
      tailLines: 10,
      watch: (request) => {
        const feed = manager.watchAdHoc({ spec: spec0, ...request });
        feeds.push(feed);
        return feed;
      },
    });
    sets.push(set);
    set.start();
    await until(() => sink.has('[migrate-x7k2p/main] migrating') && set.activeStreams === 1, () => sink.all.join(' | '));
    assert.equal(manager.adHocWatchCount, 1, 'only the pods: a Job owns its pods itself');

    server.podLogs.append('shop', 'migrate-x7k2p', 'main', 'done', T0 + 500);
    await until(() => sink.has('[migrate-x7k2p/main] done'), () => sink.all.join(' | '));
    server.update('pods', { ...created, status: { phase: 'Succeeded', containerStatuses: [{ name: 'main', restartCount: 0, containerID: 'containerd://m', state: { terminated: { exitCode: 0 } } }] } });
    const phase = () => (feeds[0]?.list()[0]?.status as { phase?: string } | undefined)?.phase;
    await until(() => phase() === 'Succeeded', () => `the pod watch tells it Succeeded: ${phase()}`);
    await new Promise((r) => setTimeout(r, 0));
    // The kubelet ends the stream of a container that exited.
    server.podLogs.drop('end');
    await until(() => sink.has('-- [migrate-x7k2p/main] the log ended'), () => sink.all.join(' | '));
    assert.equal(set.activeStreams + set.activeTimers + clock.pendingTimers, 0, 'no resume pending');
    assert.equal(server.requests.filter((r) => r.path.endsWith('/log')).length, 1);
    await set.stop();
    assert.equal(manager.adHocWatchCount, 0);
  });

  it('follows at most maxStreams streams, says which were left out, and takes them up when a pod goes', async () => {
    const { deploy, rs } = deployment('db');
    const first = pod('db-7d9f8b6c4-aaaaa', { app: 'db' }, rs);
    pod('db-7d9f8b6c4-bbbbb', { app: 'db' }, rs);
    const clock = new ManualClock(T0 + 1000);
    const sink = new RecordingSink();
    const set = openSet(deploy, clock, sink, 3);
    await until(() => set.activeStreams === 3 && sink.all.some((l) => l.startsWith('!!')), () => `3 streams: ${set.activeStreams}; ${sink.all.join(' | ')}`);
    assert.ok(sink.has('!! left out (max 3): db-7d9f8b6c4-bbbbb/sidecar'), sink.all.join(' | '));

    server.delete('pods', 'shop', first.metadata.name!);
    await until(() => sink.has('!! left out (max 3): ') && set.activeStreams === 2, () => `after the delete: ${set.activeStreams}; ${sink.all.join(' | ')}`);
    assert.deepEqual(set.followedPods, ['db-7d9f8b6c4-bbbbb']);
    await set.stop();
    assert.equal(set.activeStreams + set.activeTimers + manager.adHocWatchCount, 0);
  });

  it('X12 on a workload: its terminal starts from the last 10 lines; a range starts every stream over with its query; search, filter and timestamps act on its prefixed lines; Save keeps them', async () => {
    const { deploy, rs } = deployment('api');
    for (const p of ['aaaaa', 'bbbbb']) pod(`api-7d9f8b6c4-${p}`, { app: 'api', 'pod-template-hash': '7d9f8b6c4' }, rs, ['app']);
    server.podLogs.now = () => T0 + 10 * 60_000;
    for (const p of ['aaaaa', 'bbbbb']) {
      server.podLogs.append('shop', `api-7d9f8b6c4-${p}`, 'app', `${p} old`, T0);
      server.podLogs.append('shop', `api-7d9f8b6c4-${p}`, 'app', `${p} recent ERROR`, T0 + 9 * 60_000);
    }
    const recorder = new ScreenRecorder();
    const spec = manager.contextSpecOf(entryId)!;
    const screen = new WorkloadLogScreen(workloadRefOf('Deployment', deploy) as WorkloadRef, {
      clock: new ManualClock(T0 + 1000),
      write: recorder.write,
      screenLines: 1000,
      keptLines: 1000,
      set: { transport: manager.transportOf(entryId)!, maxStreams: 20, watch: (request) => manager.watchAdHoc({ spec, ...request }) },
    });
    screen.start();
    const lines = () => recorder.rows().filter((r) => r.startsWith('[pod/')).sort();
    await until(() => lines().length === 4, () => recorder.rows().join(' | '));
    assert.deepEqual(lines(), ['[pod/api-7d9f8b6c4-aaaaa/app] aaaaa old', '[pod/api-7d9f8b6c4-aaaaa/app] aaaaa recent ERROR', '[pod/api-7d9f8b6c4-bbbbb/app] bbbbb old', '[pod/api-7d9f8b6c4-bbbbb/app] bbbbb recent ERROR']);
    assert.ok(server.podLogs.queries.every((q) => q.tailLines === '10' && q.sinceSeconds === undefined), JSON.stringify(server.podLogs.queries));

    const asked = server.podLogs.queries.length;
    await screen.setRange(LOG_RANGES.find((r) => r.label === 'Since 5 minutes ago')!);
    await until(() => lines().length === 2 && server.podLogs.openStreams === 2, () => recorder.rows().join(' | '));
    assert.deepEqual(lines(), ['[pod/api-7d9f8b6c4-aaaaa/app] aaaaa recent ERROR', '[pod/api-7d9f8b6c4-bbbbb/app] bbbbb recent ERROR']);
    assert.deepEqual(server.podLogs.queries.slice(asked).map((q) => [q.sinceSeconds, q.tailLines]), [['300', undefined], ['300', undefined]]);
    assert.ok(recorder.rows().some((r) => r.startsWith('── running containers start from the start of their log')), recorder.rows().join(' | '));

    server.podLogs.append('shop', 'api-7d9f8b6c4-aaaaa', 'app', 'aaaaa fine', T0 + 9 * 60_000 + 1);
    assert.equal(screen.filter('error'), undefined);
    server.podLogs.append('shop', 'api-7d9f8b6c4-bbbbb', 'app', 'bbbbb ERROR again', T0 + 9 * 60_000 + 2);
    await until(() => lines().length === 3, () => recorder.rows().join(' | '));
    assert.ok(!lines().some((l) => l.endsWith('fine')), 'the filter keeps only matching lines');
    assert.equal(screen.find('again'), undefined);
    assert.deepEqual(screen.searchStatus(), { matches: 1, current: 1 });
    assert.match(screen.savedText(), /\[pod\/api-7d9f8b6c4-aaaaa\/app\] aaaaa fine\n/, 'Save keeps what the filter hides');
    await screen.dispose();
    assert.equal(screen.activeStreams + screen.activeTimers + manager.adHocWatchCount, 0);
    await until(() => server.podLogs.openStreams === 0, () => 'no log stream left on the server');
  });
});
