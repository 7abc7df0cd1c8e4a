/**
 * Every action through the real transport against the local API server, over HTTP/1.1 and
 * HTTP/2: what it leaves on the server is what kubectl's command leaves on a real one
 * (test/support/apiserver/actions-1.34.md).
 */
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock, type Disposable } from '../../src/base';
import {
  WriteJournal,
  drainFilter,
  listRevisions,
  planCordon,
  planCreateJob,
  planDrain,
  planRestart,
  planScale,
  planSuspend,
  planUndo,
  podsOnNode,
  runDrain,
  runPlan,
  type ActionSession,
  type ActionTarget,
  type DrainProgress,
} from '../../src/actions';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { KubeObject, ResourceType } from '../../src/informer';
import { ACTION_TYPES, FakeApiServer } from '../support/apiserver';

const TYPES: Record<string, ResourceType> = {
  deployments: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
  nodes: { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  cronjobs: { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true },
};

const noWatches = { entries: () => [], entry: () => undefined, addHandler: (): Disposable => ({ dispose: () => undefined }) };

describe('Actions on the local API server, through the real transport', () => {
  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    describe(`over ${label}`, () => {
      let server: FakeApiServer;
      let transport: KubeConfigTransport;
      let journal: WriteJournal;
      let session: ActionSession;
      const signal = () => new AbortController().signal;

      beforeEach(async () => {
        server = await FakeApiServer.start({ http2, timeScale: 10 });
        for (const def of ACTION_TYPES) server.defineResource(def);
        const kc = new KubeConfig();
        kc.loadFromString(server.kubeconfig());
        transport = new KubeConfigTransport(kc);
        journal = new WriteJournal(noWatches);
        session = { transport, journal, user: 'tester' };
      });
      afterEach(async () => {
        journal.dispose();
        transport.dispose();
        await server.close();
      });

      const target = (type: keyof typeof TYPES, resource: string, namespace: string, name: string): ActionTarget => ({
        context: 'sim',
        type: TYPES[type],
        namespace,
        name,
        object: server.get(resource, namespace || undefined, name) as KubeObject,
      });

      it(`(${label}) scale and rollout restart change only what kubectl changes`, async () => {
        server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web' }, spec: { replicas: 2, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'web:1' }] } } } });
        assert.equal((await runPlan(planScale(target('deployments', 'deployments.apps', 'shop', 'web'), 5), session, signal())).ok, true);
        assert.equal((server.get('deployments.apps', 'shop', 'web')!.spec as { replicas: number }).replicas, 5);
        const before = server.get('deployments.apps', 'shop', 'web')!;
        assert.equal((await runPlan(planRestart(target('deployments', 'deployments.apps', 'shop', 'web'), Date.UTC(2026, 0, 2, 3, 4, 5), 0), session, signal())).ok, true);
        const after = server.get('deployments.apps', 'shop', 'web')!;
        const template = (after.spec as { template: { metadata: { annotations?: Record<string, string> }; spec: unknown } }).template;
        assert.deepEqual(template.metadata.annotations, { 'kubectl.kubernetes.io/restartedAt': '2026-01-02T03:04:05Z' });
        assert.deepEqual(template.spec, (before.spec as { template: { spec: unknown } }).template.spec, 'nothing else in the template changed');
        assert.equal((after.spec as { replicas: number }).replicas, 5);
      });

      it(`(${label}) rollout undo lists the ReplicaSets it controls and puts the chosen template back`, async () => {
        const d = server.create('deployments.apps', {
          metadata: { namespace: 'shop', name: 'web', annotations: { 'deployment.kubernetes.io/revision': '2' } },
          spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'web:2' }] } } },
        });
        for (const [rev, image] of [[1, 'web:1'], [2, 'web:2']] as const) {
          server.create('replicasets.apps', {
            metadata: { namespace: 'shop', name: `web-h${rev}`, labels: { app: 'web', 'pod-template-hash': `h${rev}` }, annotations: { 'deployment.kubernetes.io/revision': String(rev) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true }] },
            spec: { replicas: 0, template: { metadata: { labels: { app: 'web', 'pod-template-hash': `h${rev}` } }, spec: { containers: [{ name: 'main', image }] } } },
          });
        }
        server.create('replicasets.apps', { metadata: { namespace: 'shop', name: 'stranger', labels: { app: 'web' }, annotations: { 'deployment.kubernetes.io/revision': '7' } }, spec: {} });
        const t = target('deployments', 'deployments.apps', 'shop', 'web');
        const revisions = await listRevisions(transport, t, signal());
        assert.deepEqual(revisions.map((r) => `${r.revision}${r.current ? '*' : ''}`), ['2*', '1']);
        assert.deepEqual(server.requests.filter((r) => r.resource === 'replicasets.apps').map((r) => r.query.labelSelector), ['app=web']);
        assert.equal((await runPlan(planUndo(t, revisions[1]), session, signal())).ok, true);
        const after = server.get('deployments.apps', 'shop', 'web')!;
        assert.deepEqual((after.spec as { template: unknown }).template, { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'web:1' }] } });
        assert.equal(after.metadata.annotations?.['deployment.kubernetes.io/revision'], '2', 'the Deployment keeps its revision bookkeeping');
      });

      it(`(${label}) cordon, uncordon, suspend, resume and a Job from a CronJob`, async () => {
        server.create('nodes', { metadata: { name: 'node-1' }, spec: {} });
        await runPlan(planCordon(target('nodes', 'nodes', '', 'node-1'), true), session, signal());
        assert.equal((server.get('nodes', undefined, 'node-1')!.spec as { unschedulable?: boolean }).unschedulable, true);
        await runPlan(planCordon(target('nodes', 'nodes', '', 'node-1'), false), session, signal());
        assert.deepEqual(server.get('nodes', undefined, 'node-1')!.spec, {}, 'unschedulable removed, as null removes it');

        const cj = server.create('cronjobs.batch', { metadata: { namespace: 'batch', name: 'nightly' }, spec: { schedule: '0 2 * * *', jobTemplate: { metadata: { labels: { job: 'nightly' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } } } });
        await runPlan(planSuspend(target('cronjobs', 'cronjobs.batch', 'batch', 'nightly'), true), session, signal());
        assert.equal((server.get('cronjobs.batch', 'batch', 'nightly')!.spec as { suspend?: boolean }).suspend, true);
        await runPlan(planSuspend(target('cronjobs', 'cronjobs.batch', 'batch', 'nightly'), false), session, signal());
        assert.equal((server.get('cronjobs.batch', 'batch', 'nightly')!.spec as { suspend?: boolean }).suspend, false);
        const created = await runPlan(planCreateJob(target('cronjobs', 'cronjobs.batch', 'batch', 'nightly'), 'nightly-manual-1'), session, signal());
        assert.equal(created.ok, true);
        const job = server.get('jobs.batch', 'batch', 'nightly-manual-1')!;
        assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: cj.metadata.uid, controller: true }]);
        assert.equal(job.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
        assert.deepEqual(job.metadata.labels, { job: 'nightly' });
        assert.deepEqual(server.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.status} ${r.query.fieldManager}`), [
          'PATCH 200 kube-watch',
          'PATCH 200 kube-watch',
          'PATCH 200 kube-watch',
          'PATCH 200 kube-watch',
          'POST 201 kube-watch',
        ]);
      });

      it(`(${label}) drain: cordon, then evictions that a PodDisruptionBudget holds back until it allows them, then the Pods are gone`, async () => {
        const clock = acceleratedClock(100);
        server.deletes.podTerminationSeconds = 0;
        server.create('nodes', { metadata: { name: 'node-1' }, spec: {} });
        server.create('poddisruptionbudgets.policy', { metadata: { namespace: 'shop', name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } });
        const running = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
        const rs = server.create('replicasets.apps', { metadata: { namespace: 'shop', name: 'web-7d9' }, spec: {} });
        const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: rs.metadata.uid, controller: true }];
        server.create('pods', { metadata: { namespace: 'shop', name: 'web-1', labels: { app: 'web' }, ownerReferences: owner }, spec: { nodeName: 'node-1' }, status: running });
        server.create('pods', { metadata: { namespace: 'shop', name: 'web-2', labels: { app: 'web' }, ownerReferences: owner }, spec: { nodeName: 'node-1' }, status: running });
        server.create('pods', { metadata: { namespace: 'shop', name: 'elsewhere', labels: { app: 'web' }, ownerReferences: owner }, spec: { nodeName: 'node-2' }, status: running });
        const node = target('nodes', 'nodes', '', 'node-1');
        const options = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false };
        const pods = await drainFilter(await podsOnNode(transport, 'node-1', signal()), options, async () => true);
        assert.deepEqual(pods.map((p) => p.pod.metadata.name), ['web-1', 'web-2']);
        const plan = planDrain(node, pods, options);
        const progress: DrainProgress[] = [];
        // Three healthy web Pods, the budget keeps two: the first eviction goes, the second waits until a replacement elsewhere is healthy.
        let replaced = false;
        const result = await runDrain(plan, options, { ...session, reader: transport }, signal(), (p: DrainProgress) => {
          progress.push(p);
          if (p.state === 'blocked' && !replaced) {
            replaced = true;
            server.create('pods', { metadata: { namespace: 'shop', name: 'web-3', labels: { app: 'web' }, ownerReferences: owner }, spec: { nodeName: 'node-2' }, status: running });
          }
        }, clock);
        assert.deepEqual([result.failures, result.remaining, result.drained], [[], [], true]);
        assert.equal((server.get('nodes', undefined, 'node-1')!.spec as { unschedulable?: boolean }).unschedulable, true, 'cordoned first, and it stays so');
        assert.equal(server.get('pods', 'shop', 'web-1'), undefined);
        assert.equal(server.get('pods', 'shop', 'web-2'), undefined);
        assert.ok(server.get('pods', 'shop', 'elsewhere'));
        assert.ok(progress.some((p) => p.state === 'blocked' && /^Blocked by a PodDisruptionBudget: The disruption budget web needs 2 healthy pods and has 2 currently\. Retrying in 5 s\.$/.test(p.words)), JSON.stringify(progress));
        assert.deepEqual(progress.filter((p) => p.state === 'gone').map((p) => p.pod).sort(), ['shop/web-1', 'shop/web-2']);
        const writes = server.requests.filter((r) => r.method !== 'GET');
        assert.equal(writes[0].path, '/api/v1/nodes/node-1', 'the cordon comes first');
        assert.ok(writes.filter((r) => r.path.endsWith('/eviction')).some((r) => r.status === 429));
        const journaled = journal.records().map((r) => `${r.verb} ${r.watched.name} ${r.state}`);
        assert.equal(journaled[0], 'cordon node-1 unwatched');
        assert.ok(journaled.includes('evict web-1 unwatched') && journaled.includes('evict web-2 unwatched'), journaled.join('\n'));
        assert.ok(journaled.some((j) => j.endsWith('failed')), 'the refused evictions are journaled too');
      });
    });
  }
});
