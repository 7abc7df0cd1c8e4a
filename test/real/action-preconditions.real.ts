import assert from 'node:assert/strict';
import {
  WriteJournal,
  evictionWrite,
  listRevisions,
  planCordon,
  planDelete,
  planRestart,
  planScale,
  planSuspend,
  planUndo,
  runPlan,
  sendWrite,
  type ActionPlan,
  type ActionSession,
  type ActionTarget,
  type WriteResult,
} from '../../src/actions';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { KubeObject, ResourceType } from '../../src/informer';
import { CRONJOBS, DEPLOYMENTS, NODES, PODS, PROTOCOLS, uniqueName, useControlPlane, useTransports, type ControlPlane } from './support';

/**
 * W02 and W09 on a real kube-apiserver 1.34: every action's write carries the uid of the object it
 * was planned for (a delete's and an eviction's DeleteOptions preconditions, a patch's metadata or
 * a JSON patch `test`), and the writes planned on what the user saw carry its resourceVersion, so
 * a write planned for an object deleted and re-created under its name (uid Y), or changed since
 * the plan (rv N → M), is refused: `moved`, nothing written, the new object untouched.
 */
const signal = () => new AbortController().signal;
const noWatches = { entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) };

const pathOf = (type: ResourceType, namespace: string, name: string) => `${type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`}${namespace ? `/namespaces/${namespace}` : ''}/${type.resource}/${name}`;
const collection = (type: ResourceType, namespace: string) => pathOf(type, namespace, '').replace(/\/$/, '');

function deployment(name: string, image = 'registry.example.com/web:2'): object {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } } } };
}
const cronJob = (name: string) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule: '0 2 * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } } } });
const pod = (name: string, nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'main', image: 'busybox' }] } });

describe('[real] actions act only on the object the user saw (W02, W09; kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportAs = useTransports();
  const journals: WriteJournal[] = [];
  const nodes: string[] = [];
  afterEach(async () => {
    for (const j of journals.splice(0)) j.dispose();
    for (const n of nodes.splice(0)) await plane().admin.delete(`/api/v1/nodes/${n}`).catch(() => undefined);
  });

  function sessionOf(p: ControlPlane, http2: boolean): ActionSession & { transport: KubeConfigTransport } {
    const transport = transportAs(p, 'admin', http2);
    const journal = new WriteJournal(noWatches);
    journals.push(journal);
    return { transport, journal, user: 'admin' };
  }

  async function targetOf(p: ControlPlane, type: ResourceType, namespace: string, name: string): Promise<ActionTarget> {
    const object = (await p.admin.get(pathOf(type, namespace, name))) as unknown as KubeObject;
    return { context: 'real', type, namespace, name, object };
  }

  /** Deletes the object at once and creates `body` under the same name: a new uid. */
  async function recreate(p: ControlPlane, type: ResourceType, namespace: string, name: string, body: object): Promise<KubeObject> {
    await p.admin.delete(pathOf(type, namespace, name), { gracePeriodSeconds: 0 });
    return (await p.admin.post(collection(type, namespace), body)) as unknown as KubeObject;
  }

  async function serviceAccount(p: ControlPlane, ns: string): Promise<void> {
    await p.admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }).catch(() => undefined);
  }

  /** The refusal of a moved object: nothing written, the words say how it moved. */
  function assertMoved(result: WriteResult, how: RegExp): void {
    assert.equal(result.ok, false, result.words);
    assert.equal(result.moved, true, `moved: ${result.words}`);
    assert.match(result.words, how);
  }

  for (const { label, http2 } of PROTOCOLS) {
    it(`W02 [real] ${label}: delete, evict, scale, restart, undo, cordon and suspend planned for uid X are refused after the object was deleted and re-created under its name (uid Y); the new object is untouched`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await serviceAccount(p, ns);
      const session = sessionOf(p, http2);
      const recreated = (title: string, x: string, y: string) => new RegExp(`^${title} was deleted and re-created since this was planned \\(uid ${x} → ${y}\\): nothing was written; the plan is shown again$`);
      const node = uniqueName('node');
      nodes.push(node);
      await p.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });

      // Plans made on the objects as the user saw them (uid X).
      await p.admin.post(collection(DEPLOYMENTS, ns), deployment('web'));
      const web = await targetOf(p, DEPLOYMENTS, ns, 'web');
      for (const [rev, image] of [[1, 'registry.example.com/web:1'], [2, 'registry.example.com/web:2']] as const) {
        await p.admin.post(collection({ ...DEPLOYMENTS, resource: 'replicasets' }, ns), {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: `web-h${rev}`, labels: { app: 'web', 'pod-template-hash': `h${rev}` }, annotations: { 'deployment.kubernetes.io/revision': String(rev) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: web.object.metadata.uid, controller: true }] },
          spec: { replicas: 0, selector: { matchLabels: { app: 'web', 'pod-template-hash': `h${rev}` } }, template: { metadata: { labels: { app: 'web', 'pod-template-hash': `h${rev}` } }, spec: { containers: [{ name: 'main', image }] } } },
        });
      }
      const revisions = await listRevisions(session.transport, web, signal());
      const deploymentPlans: ActionPlan[] = [planScale(web, 5), planRestart(web, Date.now()), planUndo(web, revisions[1])];
      await p.admin.post(collection(CRONJOBS, ns), cronJob('nightly'));
      const nightly = await targetOf(p, CRONJOBS, ns, 'nightly');
      const suspend = planSuspend(nightly, true);
      const cordon = planCordon(await targetOf(p, NODES, '', node), true);
      await p.admin.post(collection(PODS, ns), pod('loose'));
      const deletePod = planDelete(await targetOf(p, PODS, ns, 'loose'));
      await p.admin.post(collection(PODS, ns), pod('bound', node));
      const evict = evictionWrite(await targetOf(p, NODES, '', node), (await targetOf(p, PODS, ns, 'bound')).object, { ignoreDaemonSets: true, deleteEmptyDirData: true, force: true, gracePeriodSeconds: 0 });

      // Each deleted and re-created under its name (uid Y).
      const newWeb = await recreate(p, DEPLOYMENTS, ns, 'web', deployment('web'));
      const newNightly = await recreate(p, CRONJOBS, ns, 'nightly', cronJob('nightly'));
      const newNode = await recreate(p, NODES, '', node, { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
      const newLoose = await recreate(p, PODS, ns, 'loose', pod('loose'));
      const newBound = await recreate(p, PODS, ns, 'bound', pod('bound', node));

      for (const plan of deploymentPlans) assertMoved(await runPlan(plan, session, signal()), recreated(`Deployment ${ns}/web`, web.object.metadata.uid!, newWeb.metadata.uid!));
      assertMoved(await runPlan(suspend, session, signal()), recreated(`CronJob ${ns}/nightly`, nightly.object.metadata.uid!, newNightly.metadata.uid!));
      assertMoved(await runPlan(cordon, session, signal()), recreated(`Node ${node}`, cordon.target.object.metadata.uid!, newNode.metadata.uid!));
      assertMoved(await runPlan(deletePod, session, signal()), recreated(`Pod ${ns}/loose`, deletePod.target.object.metadata.uid!, newLoose.metadata.uid!));
      const evicted = await sendWrite(evict, { verb: 'evict', summary: '' }, session, signal());
      assertMoved(evicted, new RegExp(`^Pod ${ns}/bound was deleted and re-created since this was planned \\(uid [0-9a-f-]+ → ${newBound.metadata.uid}\\)`));

      // The new objects, read back: untouched.
      for (const [type, namespace, name, created] of [[DEPLOYMENTS, ns, 'web', newWeb], [CRONJOBS, ns, 'nightly', newNightly], [NODES, '', node, newNode], [PODS, ns, 'loose', newLoose], [PODS, ns, 'bound', newBound]] as const) {
        const now = await p.admin.get(pathOf(type, namespace, name));
        assert.equal(now.metadata.uid, created.metadata.uid, `${name} is still the new one`);
        assert.equal(now.metadata.resourceVersion, created.metadata.resourceVersion, `${name} untouched`);
        assert.equal(now.metadata.deletionTimestamp, undefined, `${name} not terminating`);
      }
    });

    it(`W09 [real] ${label}: scale, restart, undo and cordon planned on resourceVersion N are refused after the object changed (rv N → M), nothing written; undo plans from a fresh read, not the cached object`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const session = sessionOf(p, http2);
      const created = await p.admin.post(collection(DEPLOYMENTS, ns), deployment('web'));
      for (const [rev, image] of [[1, 'registry.example.com/web:1'], [2, 'registry.example.com/web:2']] as const) {
        await p.admin.post(collection({ ...DEPLOYMENTS, resource: 'replicasets' }, ns), {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: `web-h${rev}`, labels: { app: 'web', 'pod-template-hash': `h${rev}` }, annotations: { 'deployment.kubernetes.io/revision': String(rev) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: created.metadata.uid, controller: true }] },
          spec: { replicas: 0, selector: { matchLabels: { app: 'web', 'pod-template-hash': `h${rev}` } }, template: { metadata: { labels: { app: 'web', 'pod-template-hash': `h${rev}` } }, spec: { containers: [{ name: 'main', image }] } } },
        });
      }
      const node = uniqueName('node');
      nodes.push(node);
      await p.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });

      const web = await targetOf(p, DEPLOYMENTS, ns, 'web');
      const revisions = await listRevisions(session.transport, web, signal());
      const plans = [planScale(web, 5), planRestart(web, Date.now()), planUndo(web, revisions[1])];
      const nodeTarget = await targetOf(p, NODES, '', node);
      const cordon = planCordon(nodeTarget, true);
      // Someone else changes both meanwhile.
      const changed = await p.admin.patch(pathOf(DEPLOYMENTS, ns, 'web'), { metadata: { labels: { team: 'shop' } } }, 'merge');
      const changedNode = await p.admin.patch(`/api/v1/nodes/${node}`, { metadata: { labels: { zone: 'a' } } }, 'merge');
      const n = web.object.metadata.resourceVersion!;
      for (const plan of plans) assertMoved(await runPlan(plan, session, signal()), new RegExp(`^Deployment ${ns}/web changed since this was planned \\(rv ${n} → ${changed.metadata.resourceVersion}\\): nothing was written; the plan is shown again$`));
      assertMoved(await runPlan(cordon, session, signal()), new RegExp(`^Node ${node} changed since this was planned \\(rv ${nodeTarget.object.metadata.resourceVersion} → ${changedNode.metadata.resourceVersion}\\): nothing was written`));
      const after = await p.admin.get(pathOf(DEPLOYMENTS, ns, 'web'));
      assert.equal(after.metadata.resourceVersion, changed.metadata.resourceVersion, 'nothing written to the Deployment');
      assert.equal(((await p.admin.get(`/api/v1/nodes/${node}`)).spec as { unschedulable?: boolean } | undefined)?.unschedulable, undefined, 'the Node not cordoned');

      // Undo from the stale cached object: it reads the Deployment fresh and plans on that.
      const fresh = await listRevisions(session.transport, web, signal());
      const undo = planUndo(web, fresh[1]);
      assert.equal(undo.writes[0].plannedOn?.resourceVersion, changed.metadata.resourceVersion, 'planned on the fresh read, not the cached rv');
      const undone = await runPlan(undo, session, signal());
      assert.equal(undone.ok, true, undone.words);
      const rolled = await p.admin.get(pathOf(DEPLOYMENTS, ns, 'web'));
      assert.equal((rolled.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image, 'registry.example.com/web:1');
      assert.equal((rolled.metadata as { labels?: Record<string, string> }).labels?.team, 'shop', "the other writer's change kept");
    });
  }
});
