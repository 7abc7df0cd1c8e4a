import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  WriteJournal,
  drainFilter,
  listRevisions,
  planDrain,
  podsOnNode,
  runDrain,
  planCordon,
  planCreateJob,
  planDelete,
  planRestart,
  planScale,
  planUndo,
  runPlan,
  type ActionTarget,
  type DrainProgress,
} from '../../src/actions';
import { AccessReviewCache, rulesAllow } from '../../src/cluster';
import type { KubeObject, ResourceType } from '../../src/informer';
import { WatchManager } from '../../src/manager';
import { CRONJOBS, DEPLOYMENTS, NODES, PODS, PROTOCOLS, REAL_BOUND_MS, uniqueName, until, useControlPlane, useTransports, type ControlPlane } from './support';

/**
 * Acting on objects against a real kube-apiserver 1.34 with RBAC: access reviews of the `reader`
 * (may read, may not write) and of the admin, a read-only user's write refused in words, each
 * action's request accepted as kubectl's is, and a write confirmed by a watch.
 */
const signal = () => new AbortController().signal;
const noWatches = { entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) };

function deployment(name: string, image = 'registry.example.com/web:1'): object {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } } } };
}

describe('[real] acting on objects (kube-apiserver 1.34, RBAC)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportAs = useTransports();
  const journals: WriteJournal[] = [];
  afterEach(() => {
    for (const j of journals.splice(0)) j.dispose();
  });

  function journal(): WriteJournal {
    const j = new WriteJournal(noWatches);
    journals.push(j);
    return j;
  }

  async function targetOf(p: ControlPlane, type: ResourceType, namespace: string, name: string): Promise<ActionTarget> {
    const base = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
    const object = (await p.admin.get(`${base}${namespace ? `/namespaces/${namespace}` : ''}/${type.resource}/${name}`)) as unknown as KubeObject;
    return { context: 'real', type, namespace, name, object };
  }

  for (const { label, http2 } of PROTOCOLS) {
    it(`[real] ${label}: access reviews: the reader may list but not delete or scale, in the server's words; the admin may; a rules review agrees`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const reader = new AccessReviewCache(transportAs(p, 'reader', http2));
      const admin = new AccessReviewCache(transportAs(p, 'admin', http2));
      try {
        const list = await reader.can({ verb: 'list', group: '', resource: 'pods', namespace: ns });
        assert.equal(list.allowed, true);
        assert.match(list.reason ?? '', /^RBAC: allowed by ClusterRoleBinding "[^"]+" of ClusterRole "kube-watch:read" to (User "reader"|Group "kube-watch:readers")$/);
        assert.deepEqual(await reader.can({ verb: 'delete', group: '', resource: 'pods', namespace: ns, name: 'web-1' }), { allowed: false });
        assert.deepEqual(await reader.can({ verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: ns }), { allowed: false });
        assert.deepEqual(await admin.can({ verb: 'delete', group: '', resource: 'pods', namespace: ns }), { allowed: true }, 'system:masters: allowed, no reason');
        const rules = await reader.rules(ns);
        assert.equal(rules.incomplete, false);
        assert.equal(rulesAllow(rules, { verb: 'watch', group: 'apps', resource: 'deployments', namespace: ns }), true);
        assert.equal(rulesAllow(rules, { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: ns }), false);
        assert.equal(rulesAllow(rules, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }), true);
      } finally {
        reader.dispose();
        admin.dispose();
      }
    });

    it(`[real] ${label}: a read-only user's write is refused with 403 and reads as words: which verb on which resource; nothing changes`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('web'));
      const transport = transportAs(p, 'reader', http2);
      const access = new AccessReviewCache(transport);
      const j = journal();
      try {
        await access.can({ verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: ns, name: 'web' });
        const plan = planScale(await targetOf(p, DEPLOYMENTS, ns, 'web'), 5);
        const result = await runPlan(plan, { transport, journal: j, access, user: 'reader' }, signal());
        assert.equal(result.ok, false);
        assert.equal(result.code, 403);
        assert.equal(result.words, `Not allowed: user "reader" may not patch deployments/scale (apps) "web" in namespace "${ns}". The cluster's access rules (RBAC) refused it; nothing was written.`);
        assert.equal(j.records()[0].state, 'failed');
        assert.equal(access.peek({ verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: ns, name: 'web' }), undefined, 'the 403 made the cache forget');
        const after = await p.admin.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
        assert.equal((after.spec as { replicas: number }).replicas, 2);
      } finally {
        access.dispose();
      }
    });

    it(`[real] ${label}: scale, rollout restart and rollout undo are accepted as kubectl's are, and leave what kubectl leaves`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const created = await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('web', 'registry.example.com/web:2'));
      const transport = transportAs(p, 'admin', http2);
      const session = { transport, journal: journal(), user: 'admin' };
      const scaled = await runPlan(planScale(await targetOf(p, DEPLOYMENTS, ns, 'web'), 3), session, signal());
      assert.equal(scaled.ok, true, scaled.words);
      const afterScale = await p.admin.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
      assert.equal((scaled.answer as KubeObject).kind, 'Scale');
      assert.equal((scaled.answer as KubeObject).metadata.resourceVersion, afterScale.metadata.resourceVersion, "the Scale's resourceVersion is the Deployment's: the watch confirms it");
      assert.equal((afterScale.spec as { replicas: number }).replicas, 3);

      const restarted = await runPlan(planRestart(await targetOf(p, DEPLOYMENTS, ns, 'web'), Date.now()), session, signal());
      assert.equal(restarted.ok, true, restarted.words);
      const afterRestart = await p.admin.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
      assert.match((afterRestart.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations['kubectl.kubernetes.io/restartedAt'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);

      // No controller-manager: the revisions are made by hand, as the deployment controller would make them.
      for (const [rev, image] of [[1, 'registry.example.com/web:1'], [2, 'registry.example.com/web:2']] as const) {
        await p.admin.post(`/apis/apps/v1/namespaces/${ns}/replicasets`, {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: `web-h${rev}`, labels: { app: 'web', 'pod-template-hash': `h${rev}` }, annotations: { 'deployment.kubernetes.io/revision': String(rev) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: created.metadata.uid, controller: true }] },
          spec: { replicas: 0, selector: { matchLabels: { app: 'web', 'pod-template-hash': `h${rev}` } }, template: { metadata: { labels: { app: 'web', 'pod-template-hash': `h${rev}` } }, spec: { containers: [{ name: 'main', image }] } } },
        });
      }
      const target = await targetOf(p, DEPLOYMENTS, ns, 'web');
      const revisions = await listRevisions(transport, target, signal());
      assert.deepEqual(revisions.map((r) => r.revision), [2, 1]);
      const undone = await runPlan(planUndo(target, revisions[1]), session, signal());
      assert.equal(undone.ok, true, undone.words);
      const afterUndo = await p.admin.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
      const template = (afterUndo.spec as { template: { metadata: { labels: Record<string, string> }; spec: { containers: { image: string }[] } } }).template;
      assert.equal(template.spec.containers[0].image, 'registry.example.com/web:1');
      assert.deepEqual(template.metadata.labels, { app: 'web' }, 'without pod-template-hash');
    });

    it(`[real] ${label}: cordon, a Job from a CronJob, and a delete whose uid precondition protects a re-created Pod`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const transport = transportAs(p, 'admin', http2);
      const session = { transport, journal: journal(), user: 'admin' };
      const node = uniqueName('node');
      await p.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
      try {
        assert.equal((await runPlan(planCordon(await targetOf(p, NODES, '', node), true), session, signal())).ok, true);
        assert.equal(((await p.admin.get(`/api/v1/nodes/${node}`)).spec as { unschedulable?: boolean }).unschedulable, true);
        assert.equal((await runPlan(planCordon(await targetOf(p, NODES, '', node), false), session, signal())).ok, true);
        assert.equal(((await p.admin.get(`/api/v1/nodes/${node}`)).spec as { unschedulable?: boolean }).unschedulable, undefined);
      } finally {
        await p.admin.delete(`/api/v1/nodes/${node}`);
      }

      const cj = await p.admin.post(`/apis/batch/v1/namespaces/${ns}/cronjobs`, {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'nightly' },
        spec: { schedule: '0 2 * * *', jobTemplate: { metadata: { labels: { job: 'nightly' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } } },
      });
      const job = await runPlan(planCreateJob(await targetOf(p, CRONJOBS, ns, 'nightly'), 'nightly-manual-1'), session, signal());
      assert.equal(job.ok, true, job.words);
      const stored = await p.admin.get(`/apis/batch/v1/namespaces/${ns}/jobs/nightly-manual-1`);
      assert.deepEqual(stored.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: cj.metadata.uid, controller: true }]);
      assert.equal((stored.metadata.annotations as Record<string, string> | undefined)?.['cronjob.kubernetes.io/instantiate'], 'manual');

      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1' }, spec: { containers: [{ name: 'main', image: 'busybox' }] } };
      await p.admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }).catch(() => undefined);
      await p.admin.post(`/api/v1/namespaces/${ns}/pods`, pod);
      const seen = await targetOf(p, PODS, ns, 'web-1');
      // Not bound to a node: the delete is immediate (no kubelet to wait for).
      await p.admin.delete(`/api/v1/namespaces/${ns}/pods/web-1`);
      assert.equal((await p.admin.raw('GET', `/api/v1/namespaces/${ns}/pods/web-1`)).status, 404);
      await p.admin.post(`/api/v1/namespaces/${ns}/pods`, pod);
      const refused = await runPlan(planDelete(seen), session, signal());
      assert.equal(refused.ok, false);
      assert.equal(refused.code, 409);
      assert.equal(refused.moved, true);
      assert.match(refused.words, new RegExp(`^Pod ${ns}/web-1 was deleted and re-created since this was planned \\(uid ${seen.object.metadata.uid} → [0-9a-f-]+\\): nothing was written; the plan is shown again$`));
      const deleted = await runPlan(planDelete(await targetOf(p, PODS, ns, 'web-1'), { gracePeriodSeconds: 0 }), session, signal());
      assert.equal(deleted.ok, true, deleted.words);
    });

    it(`[real] ${label}: drain: the cordon, then an eviction the PodDisruptionBudget refuses with 429 (retried) until its status allows it`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const transport = transportAs(p, 'admin', http2);
      const session = { transport, journal: journal(), user: 'admin' };
      const node = uniqueName('node');
      await p.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
      await p.admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }).catch(() => undefined);
      try {
        const rs = await p.admin.post(`/apis/apps/v1/namespaces/${ns}/replicasets`, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-7d9' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } } });
        await p.admin.post(`/api/v1/namespaces/${ns}/pods`, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web-1', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: rs.metadata.uid, controller: true }] },
          spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox' }] },
        });
        // No kubelet and no disruption controller: their status is written by hand.
        await p.admin.patch(`/api/v1/namespaces/${ns}/pods/web-1/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
        await p.admin.post(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
        await p.admin.patch(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/web/status`, { status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 } });
        const target = await targetOf(p, NODES, '', node);
        const options = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false };
        const pods = await drainFilter(await podsOnNode(transport, node, signal()), options, async () => true);
        assert.deepEqual(pods.map((d) => [d.pod.metadata.name, d.evict]), [['web-1', true]]);
        const plan = planDrain(target, pods, options);
        const progress: string[] = [];
        let allowed = false;
        const result = await runDrain(plan, options, { ...session, reader: transport }, signal(), (d: DrainProgress) => {
          progress.push(`${d.state}: ${d.words}`);
          if (d.state === 'blocked' && !allowed) {
            allowed = true;
            void p.admin.patch(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/web/status`, { status: { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 } });
          }
          // No kubelet: the terminating Pod is finished by hand, as the kubelet would.
          if (d.state === 'terminating') void p.admin.delete(`/api/v1/namespaces/${ns}/pods/web-1`, { gracePeriodSeconds: 0 });
        });
        assert.deepEqual([result.failures, result.remaining, result.drained], [[], [], true]);
        assert.equal(((await p.admin.get(`/api/v1/nodes/${node}`)).spec as { unschedulable?: boolean }).unschedulable, true);
        assert.ok(progress.includes("blocked: Blocked by a PodDisruptionBudget: The disruption budget web needs 1 healthy pods and has 1 currently. Retrying in 5 s."), progress.join('\n'));
        assert.ok(progress.includes(`gone: pod ${ns}/web-1 is gone`), progress.join('\n'));
        assert.equal(progress.at(-1), `listed: 0 Pods to evict on node ${node} (round 2)`, 'a fresh list after the evictions');
      } finally {
        await p.admin.delete(`/api/v1/nodes/${node}`);
      }
    });

    it(`[real] ${label}: a scale is pending until the watch delivers its resourceVersion, then confirmed; one line for the log`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('web'));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-actions-'));
      const kubeconfig = path.join(dir, 'config');
      fs.writeFileSync(kubeconfig, p.kubeconfig('admin', { name: 'real' }));
      const manager = new WatchManager({ contexts: [], resources: ['deployments.apps'], namespaces: [ns], kubeconfigPath: kubeconfig });
      const j = new WriteJournal(manager, { confirmWithinMs: 60_000 });
      const lines: string[] = [];
      j.onLine((l) => lines.push(`${l.level} ${l.text}`));
      try {
        await manager.start();
        const entry = await until(() => manager.entries().find((e) => e.state.synced && e.informer?.get(ns, 'web')), 'the watch synced', REAL_BOUND_MS);
        const object = entry.informer!.get(ns, 'web')!;
        const plan = planScale({ context: entry.context, type: entry.type!, namespace: ns, name: 'web', object }, 4);
        const result = await runPlan(plan, { transport: manager.transportOf(entry.id)!, journal: j, access: manager.accessReviewsOf(entry.id), user: manager.userOf(entry.id) }, signal());
        assert.equal(result.ok, true, result.words);
        const record = j.records()[0];
        await until(() => record.state === 'confirmed', () => `confirmed (state ${record.state})`, REAL_BOUND_MS);
        assert.equal(entry.informer!.get(ns, 'web')?.metadata.resourceVersion !== undefined, true);
        assert.equal(lines.length, 1);
        assert.match(lines[0], new RegExp(`^info \\[real\\] [^:]+: scale deployments\\.apps ${ns}/web \\(replicas 2 → 4\\): done at resourceVersion \\d+; the watch shows it (after [\\d.]+ s|within 0\\.1 s)$`));
      } finally {
        j.dispose();
        await manager.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
