/**
 * What each action sends and says, decided before anything is sent: the request bodies kubectl
 * sends (transcript test/support/apiserver/actions-1.34.md), the kubectl command of every action,
 * the words of the confirmation, and which actions an object offers.
 */
import assert from 'node:assert/strict';
import { ApiError, AbortedError, TransportError } from '../../src/base';
import {
  ActionNotPossible,
  applicableActions,
  atOrAfter,
  drainFilter,
  equalIgnoreHash,
  jobFromCronJob,
  jobNameProblem,
  manualJobName,
  planCordon,
  planCreateJob,
  planDelete,
  planDrain,
  planRestart,
  planScale,
  planSuspend,
  planUndo,
  previousRevision,
  refusalWords,
  replicasProblem,
  revisionsOf,
  rfc3339Local,
  shellWord,
  watchShows,
  type ActionTarget,
} from '../../src/actions';
import type { KubeObject, ResourceType } from '../../src/informer';

const DEPLOYMENTS: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
const PODS: ResourceType = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
const NODES: ResourceType = { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false };
const CRONJOBS: ResourceType = { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true };
const NAMESPACES: ResourceType = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };
const WIDGETS: ResourceType = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };

function target(type: ResourceType, namespace: string, name: string, rest: Partial<KubeObject> = {}, context = 'kind-dev'): ActionTarget {
  const { metadata, ...body } = rest;
  return { context, type, namespace, name, object: { metadata: { name, ...(namespace ? { namespace } : {}), uid: `uid-${name}`, resourceVersion: '10', ...(metadata ?? {}) }, ...body } as KubeObject };
}

const web = target(DEPLOYMENTS, 'shop', 'web', { spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'web:2' }] } } } });

describe('Actions: what each one sends and says', () => {
  it('scale: a merge patch of spec.replicas on /scale, as kubectl scale sends it; reversible; words and command', () => {
    const plan = planScale(web, 3);
    const [w] = plan.writes;
    assert.deepEqual(w.request, { method: 'PATCH', path: '/apis/apps/v1/namespaces/shop/deployments/web/scale', query: { fieldManager: 'kube-watch' }, body: '{"metadata":{"uid":"uid-web","resourceVersion":"10"},"spec":{"replicas":3}}', contentType: 'application/merge-patch+json' });
    assert.deepEqual(w.access, { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'shop', name: 'web' });
    assert.equal(plan.kubectl, 'kubectl scale deployment/web --replicas=3 -n shop --context kind-dev');
    assert.equal(plan.title, 'Scale Deployment shop/web from 2 to 3 replicas?');
    assert.equal(plan.detail, 'Sets spec.replicas of Deployment shop/web to 3 through its /scale subresource; its controller then creates 1 Pod. Scale it back to 2 to undo.');
    assert.equal(plan.reversible, true);
    assert.equal(plan.summary, 'replicas 2 → 3');
    assert.equal(replicasProblem('3'), undefined);
    assert.equal(replicasProblem('-1'), 'a whole number of replicas, 0 or more');
    assert.equal(replicasProblem('two'), 'a whole number of replicas, 0 or more');
  });

  it('restart: the restartedAt annotation in RFC 3339 local time, by strategic merge patch, as kubectl rollout restart; a paused Deployment is refused in kubectl words', () => {
    const at = Date.UTC(2026, 10, 25, 17, 18, 40);
    assert.equal(rfc3339Local(at, 0), '2026-11-25T17:18:40Z');
    assert.equal(rfc3339Local(at, 60), '2026-11-25T18:18:40+01:00');
    assert.equal(rfc3339Local(at, -330), '2026-11-25T11:48:40-05:30');
    const plan = planRestart(web, at, 0);
    assert.equal(plan.writes[0].request.body, '{"metadata":{"uid":"uid-web","resourceVersion":"10"},"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-25T17:18:40Z"}}}}}');
    assert.equal(plan.writes[0].request.contentType, 'application/strategic-merge-patch+json');
    assert.equal(plan.kubectl, 'kubectl rollout restart deployment/web -n shop --context kind-dev');
    assert.match(plan.detail, /^Sets the pod template annotation kubectl\.kubernetes\.io\/restartedAt of Deployment shop\/web to 2026-11-25T17:18:40Z, as kubectl rollout restart does: its Pods are replaced by new ones a few at a time/);
    const paused = target(DEPLOYMENTS, 'shop', 'web', { spec: { paused: true } });
    assert.throws(() => planRestart(paused, at), (e: unknown) => e instanceof ActionNotPossible && e.message === "can't restart paused deployment (run rollout resume first)");
  });

  it('delete: DeleteOptions with the propagation, the grace period and a uid precondition; kubectl flags; a namespace needs its name typed', () => {
    const pod = target(PODS, 'shop', 'web-1', { spec: { nodeName: 'node-1', terminationGracePeriodSeconds: 30 }, metadata: { name: 'web-1', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-7d9', controller: true }] } as KubeObject['metadata'] });
    const plan = planDelete(pod, { gracePeriodSeconds: 10, propagation: 'Foreground' });
    assert.deepEqual(JSON.parse(plan.writes[0].request.body!), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', gracePeriodSeconds: 10, preconditions: { uid: 'uid-web-1' } });
    assert.equal(plan.writes[0].request.method, 'DELETE');
    assert.equal(plan.kubectl, 'kubectl delete pod/web-1 --grace-period=10 --cascade=foreground -n shop --context kind-dev');
    assert.match(plan.detail, /^Deletes Pod shop\/web-1 with a grace period of 10 s: it turns Terminating, its containers get SIGTERM and 10 s to stop, then it is removed\. It is owned by ReplicaSet web-7d9, which will create a replacement\./);
    const defaults = planDelete(pod);
    assert.equal(defaults.kubectl, 'kubectl delete pod/web-1 -n shop --context kind-dev');
    assert.match(defaults.detail, /grace period of 30 s/);
    assert.equal(defaults.typeToConfirm, undefined);
    const ns = planDelete(target(NAMESPACES, '', 'shop'));
    assert.equal(ns.typeToConfirm, 'shop');
    assert.equal(ns.writes[0].request.path, '/api/v1/namespaces/shop');
    assert.equal(ns.kubectl, 'kubectl delete namespace/shop --context kind-dev');
    const widget = planDelete(target(WIDGETS, 'shop', 'blue'), { propagation: 'Orphan' });
    assert.equal(widget.kubectl, 'kubectl delete widgets.example.com/blue --cascade=orphan -n shop --context kind-dev');
    assert.match(widget.detail, /What it owns stays, without an owner\./);
  });

  it('rollout undo: the revisions are the ReplicaSets it controls; the JSON patch kubectl sends; paused and already-matching refused in its words', () => {
    const rs = (rev: number, image: string, owner = 'uid-web'): KubeObject => ({
      metadata: { name: `web-h${rev}`, namespace: 'shop', annotations: { 'deployment.kubernetes.io/revision': String(rev), note: `rs${rev}`, 'deployment.kubernetes.io/desired-replicas': '2' }, ownerReferences: [{ uid: owner, controller: true }] },
      spec: { template: { metadata: { labels: { app: 'web', 'pod-template-hash': `h${rev}` } }, spec: { containers: [{ name: 'main', image }] } } },
    });
    const deployment = target(DEPLOYMENTS, 'shop', 'web', {
      metadata: { name: 'web', namespace: 'shop', uid: 'uid-web', annotations: { 'deployment.kubernetes.io/revision': '2', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      spec: web.object.spec,
    });
    const revisions = revisionsOf(deployment.object, [rs(1, 'web:1'), rs(2, 'web:2'), rs(3, 'web:9', 'someone-else')]);
    assert.deepEqual(revisions.map((r) => [r.revision, r.images.join(), r.current]), [[2, 'web:2', true], [1, 'web:1', false]]);
    const previous = previousRevision(revisions)!;
    assert.equal(previous.revision, 1);
    const plan = planUndo(deployment, previous);
    assert.deepEqual(JSON.parse(plan.writes[0].request.body!), [
      { op: 'test', path: '/metadata/uid', value: 'uid-web' },
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'replace', path: '/spec/template', value: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'web:1' }] } } },
      { op: 'replace', path: '/metadata/annotations', value: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'deployment.kubernetes.io/revision': '2', note: 'rs1' } },
    ]);
    assert.equal(plan.writes[0].request.contentType, 'application/json-patch+json');
    assert.equal(plan.kubectl, 'kubectl rollout undo deployment/web --to-revision=1 -n shop --context kind-dev');
    assert.throws(() => planUndo(deployment, revisions[0]), /^ActionNotPossible: skipped rollback \(current template already matches revision 2\)$/);
    const paused = { ...deployment, object: { ...deployment.object, spec: { ...(deployment.object.spec as object), paused: true } } };
    assert.throws(() => planUndo(paused, { ...previous, deployment: paused.object }), /you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment\/web' and try again/);
    assert.equal(equalIgnoreHash({ metadata: { labels: { a: '1', 'pod-template-hash': 'x' }, annotations: {} } }, { metadata: { labels: { a: '1' } } }), true, 'empty and absent alike');
  });

  it('cordon and uncordon: the strategic merge patches kubectl sends; the catalog offers the one that applies', () => {
    const node = target(NODES, '', 'node-1', { spec: {} });
    const cordon = planCordon(node, true);
    assert.equal(cordon.writes[0].request.body, '{"metadata":{"uid":"uid-node-1","resourceVersion":"10"},"spec":{"unschedulable":true}}');
    assert.equal(cordon.writes[0].request.path, '/api/v1/nodes/node-1');
    assert.equal(cordon.kubectl, 'kubectl cordon node-1 --context kind-dev');
    assert.equal(planCordon(node, false).writes[0].request.body, '{"metadata":{"uid":"uid-node-1","resourceVersion":"10"},"spec":{"unschedulable":null}}');
    assert.deepEqual(applicableActions(node).map((a) => a.id), ['cordon', 'drain', 'delete', 'copyName', 'copyKubectl']);
    const cordoned = target(NODES, '', 'node-1', { spec: { unschedulable: true } });
    assert.deepEqual(applicableActions(cordoned).map((a) => a.id), ['uncordon', 'drain', 'delete', 'copyName', 'copyKubectl']);
    assert.deepEqual(applicableActions(web).map((a) => a.id), ['scale', 'restart', 'undo', 'delete', 'copyName', 'copyKubectl']);
  });

  it('CronJobs: suspend and resume by merge patch; a Job from it exactly as kubectl create job --from makes it', () => {
    const cj = target(CRONJOBS, 'batch', 'nightly', {
      spec: { schedule: '0 2 * * *', jobTemplate: { metadata: { labels: { job: 'nightly' }, annotations: { team: 'shop' } }, spec: { template: { spec: { restartPolicy: 'Never' } } } } },
    });
    const suspend = planSuspend(cj, true);
    assert.equal(suspend.writes[0].request.body, '{"metadata":{"uid":"uid-nightly","resourceVersion":"10"},"spec":{"suspend":true}}');
    assert.equal(suspend.kubectl, `kubectl patch cronjob/nightly --type=merge -p '{"spec":{"suspend":true}}' -n batch --context kind-dev`);
    assert.deepEqual(applicableActions(cj).map((a) => a.id), ['suspend', 'createJob', 'delete', 'copyName', 'copyKubectl']);
    assert.deepEqual(jobFromCronJob(cj, 'nightly-manual-1'), {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'nightly-manual-1',
        namespace: 'batch',
        annotations: { 'cronjob.kubernetes.io/instantiate': 'manual', team: 'shop' },
        labels: { job: 'nightly' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: 'uid-nightly', controller: true }],
      },
      spec: { template: { spec: { restartPolicy: 'Never' } } },
    });
    const create = planCreateJob(cj, 'nightly-manual-1');
    assert.equal(create.writes[0].request.path, '/apis/batch/v1/namespaces/batch/jobs');
    assert.equal(create.kubectl, 'kubectl create job nightly-manual-1 --from=cronjob/nightly -n batch --context kind-dev');
    assert.deepEqual(create.writes[0].watched, { context: 'kind-dev', group: 'batch', resource: 'jobs', namespace: 'batch', name: 'nightly-manual-1' }, 'the Job to be, not the CronJob: no uid');
    assert.match(manualJobName('nightly', () => 0.5), /^nightly-manual-[a-z0-9]{5}$/);
    assert.equal(manualJobName('x'.repeat(80), () => 0).length, 63);
    assert.equal(jobNameProblem('Bad_Name'), "lower-case letters, digits, '-' and '.', starting and ending with a letter or digit");
    assert.equal(jobNameProblem('ok-1'), undefined);
  });

  it("drain: kubectl's filters and words; the plan says what goes, what stays, and what stops it", async () => {
    const p = (name: string, extra: Partial<KubeObject> = {}, owner?: { kind: string; name: string }): KubeObject => ({
      metadata: { name, namespace: 'shop', uid: `u-${name}`, ...(owner ? { ownerReferences: [{ ...owner, controller: true }] } : {}), ...(extra.metadata ?? {}) },
      spec: extra.spec ?? {},
      status: extra.status ?? { phase: 'Running' },
    });
    const pods = [
      p('web-1', {}, { kind: 'ReplicaSet', name: 'web-7d9' }),
      p('agent-x', {}, { kind: 'DaemonSet', name: 'agent' }),
      p('loose'),
      p('cache-0', { spec: { volumes: [{ name: 'scratch', emptyDir: {} }] } }, { kind: 'StatefulSet', name: 'cache' }),
      p('done', { status: { phase: 'Succeeded' } }),
      p('static', { metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'x' } } }),
    ];
    const strict = await drainFilter(pods, { ignoreDaemonSets: false, deleteEmptyDirData: false, force: false }, async () => true);
    const node = target(NODES, '', 'node-1', { spec: {} });
    const blocked = planDrain(node, strict, { ignoreDaemonSets: false, deleteEmptyDirData: false, force: false });
    assert.deepEqual(blocked.blocked, [
      'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): shop/agent-x',
      'cannot delete Pods that declare no controller (use --force to override): shop/loose',
      'cannot delete Pods with local storage (use --delete-emptydir-data to override): shop/cache-0',
    ]);
    assert.match(blocked.detail, /The drain cannot go on: cannot delete DaemonSet-managed Pods/);
    const options = { ignoreDaemonSets: true, deleteEmptyDirData: true, force: true, gracePeriodSeconds: 15 };
    const allowed = await drainFilter(pods, options, async () => true);
    assert.deepEqual(allowed.map((d) => [d.pod.metadata.name, d.evict, d.note ?? '']), [
      ['web-1', true, ''],
      ['agent-x', false, 'ignoring DaemonSet-managed Pods'],
      ['loose', true, 'deleting Pods that declare no controller'],
      ['cache-0', true, 'deleting Pods with local storage'],
      ['done', true, ''],
      ['static', false, 'a mirror Pod (its kubelet owns it)'],
    ]);
    const plan = planDrain(node, allowed, options);
    assert.deepEqual(plan.blocked, []);
    assert.equal(plan.kubectl, 'kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data --force --grace-period=15 --context kind-dev');
    assert.match(plan.detail, /^Cordons node node-1 \(no new Pod is placed on it\), then evicts 4 Pods through the eviction API, so PodDisruptionBudgets decide/);
    assert.match(plan.detail, /Staying: shop\/agent-x \(ignoring DaemonSet-managed Pods\), shop\/static \(a mirror Pod \(its kubelet owns it\)\)\./);
    const gone = await drainFilter([p('agent-y', {}, { kind: 'DaemonSet', name: 'gone' })], { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false }, async () => false);
    assert.deepEqual([gone[0].evict, gone[0].blocks, gone[0].note], [false, true, 'daemonsets.apps "gone" not found']);
  });

  it('a refusal says which verb on which resource, in words; never a stack trace', () => {
    const access = { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'shop', name: 'web' };
    const forbidden = new ApiError({ kind: 'Status', code: 403, reason: 'Forbidden', message: 'deployments.apps "web" is forbidden: User "reader" cannot patch resource "deployments/scale" in API group "apps" in the namespace "shop"' }, 'http', 403);
    assert.equal(refusalWords(forbidden, access, 'someone'), 'Not allowed: user "reader" may not patch deployments/scale (apps) "web" in namespace "shop". The cluster\'s access rules (RBAC) refused it; nothing was written.');
    const budget = new ApiError({ code: 429, reason: 'TooManyRequests', message: "Cannot evict pod as it would violate the pod's disruption budget.", details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }] } }, 'http', 429);
    assert.equal(refusalWords(budget, access), 'Blocked by a PodDisruptionBudget: The disruption budget web needs 1 healthy pods and has 1 currently.');
    assert.equal(refusalWords(new TransportError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), access), 'The cluster could not be reached (connect ECONNREFUSED 127.0.0.1:1); nothing was written.');
    assert.equal(refusalWords(new AbortedError(), access), 'Cancelled before the server answered.');
    assert.doesNotMatch(refusalWords(new Error('boom'), access), /at .*\.ts/);
  });

  it('the watch shows a write at its resourceVersion or later (numbers compared only when both are numbers), a delete when it is gone or terminating', () => {
    const obj = (rv: string, deleting = false): KubeObject => ({ metadata: { name: 'x', resourceVersion: rv, ...(deleting ? { deletionTimestamp: 'now' } : {}) } });
    assert.equal(atOrAfter('11', '10'), true);
    assert.equal(atOrAfter('9', '10'), false);
    assert.equal(atOrAfter('abc', 'abd'), false);
    assert.equal(watchShows({ resourceVersion: '10', deletion: false }, obj('10'), false), 'version');
    assert.equal(watchShows({ resourceVersion: '10', deletion: false }, obj('9'), false), undefined);
    assert.equal(watchShows({ resourceVersion: '10', deletion: true }, obj('10', true), false), 'terminating');
    assert.equal(watchShows({ resourceVersion: '10', deletion: true }, obj('10'), true), 'deleted');
    assert.equal(watchShows({ deletion: true }, obj('3', true), false), 'terminating');
    assert.equal(watchShows({ deletion: true }, obj('3'), false), undefined);
  });

  it('kubectl commands are quoted for a shell only where needed', () => {
    assert.equal(shellWord('deployment/web'), 'deployment/web');
    assert.equal(shellWord('--replicas=3'), '--replicas=3');
    assert.equal(shellWord("it's"), `'it'\\''s'`);
    assert.equal(shellWord('a b'), `'a b'`);
    assert.equal(planScale({ ...web, context: 'arn:aws:eks:eu-west-1:1:cluster/prod east' }, 1).kubectl, `kubectl scale deployment/web --replicas=1 -n shop --context 'arn:aws:eks:eu-west-1:1:cluster/prod east'`);
  });
});
