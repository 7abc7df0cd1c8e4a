import { strict as assert } from 'node:assert';
import { KubeConfig } from '@kubernetes/client-node';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { WriteJournal, planCordon, planCreateJob, planDelete, planRestart, planScale, runPlan, type ActionTarget } from '../../src/actions';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { KubeObject, ResourceType } from '../../src/informer';
import type { KubeObjectJson } from '../support/apiserver';
import { until } from '../support/until';

/**
 * The sandbox accepts the actions' writes, and its controllers answer them the way a cluster's
 * do: a scale adds or removes Pods, a restart rolls out a new ReplicaSet revision, a deleted Pod
 * is replaced, a Job from the CronJob runs and completes, and new Pods avoid a cordoned node.
 * Nothing seeded changes until something acts on it.
 */
const DEPLOYMENTS: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
const PODS: ResourceType = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
const NODES: ResourceType = { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false };
const CRONJOBS: ResourceType = { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true };
const RESOURCES: Record<string, string> = { deployments: 'deployments.apps', pods: 'pods', nodes: 'nodes', cronjobs: 'cronjobs.batch' };

describe('sandbox: the simulated cluster accepts the actions and its controllers answer them', function () {
  this.timeout(60_000);
  let cluster: SimulatedCluster;
  let transport: KubeConfigTransport;
  let journal: WriteJournal;

  before(async () => {
    cluster = await SimulatedCluster.start({ podLogEveryMs: 0 });
    cluster.startControllers();
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    transport = new KubeConfigTransport(kc);
    journal = new WriteJournal({ entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) });
  });

  after(async () => {
    journal?.dispose();
    transport?.dispose();
    await cluster?.stop();
  });

  const target = (type: ResourceType, namespace: string, name: string): ActionTarget => ({
    context: 'simulated',
    type,
    namespace,
    name,
    object: cluster.server.get(RESOURCES[type.resource], namespace || undefined, name) as KubeObject,
  });
  const session = () => ({ transport, journal, user: 'sandbox' });
  const run = async (plan: Parameters<typeof runPlan>[0]) => {
    const result = await runPlan(plan, session(), new AbortController().signal);
    assert.equal(result.ok, true, result.words);
  };
  const podsOf = (namespace: string, prefix: string) => cluster.server.list('pods', namespace).filter((p) => p.metadata.name.startsWith(prefix) && !p.metadata.deletionTimestamp);
  const ready = (p: KubeObjectJson) => (p.status as { phase?: string }).phase === 'Running' && ((p.status as { conditions?: { type: string; status: string }[] }).conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

  it('the seeded cluster is left as it is: the stuck ledger stays stuck, every ReplicaSet has revision 1', async () => {
    await new Promise((r) => setTimeout(r, 1500));
    const ledger = cluster.server.get('deployments.apps', 'payments', 'ledger')!;
    assert.ok(((ledger.status as { conditions: { type: string; reason: string }[] }).conditions).some((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded'));
    assert.deepEqual(cluster.server.list('replicasets.apps').map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']), cluster.server.list('replicasets.apps').map(() => '1'));
    assert.deepEqual(podsOf('shop', 'web-').map((p) => p.metadata.name), ['web-7d9f8b6c4-2xkqp', 'web-7d9f8b6c4-q8m5z']);
    assert.deepEqual(cluster.server.list('nodes').map((n) => n.metadata.name), ['node-1', 'node-2']);
  });

  it('scale: the ReplicaSet gets a new Pod, which runs and gets ready; the Deployment counts it', async () => {
    await run(planScale(target(DEPLOYMENTS, 'shop', 'api'), 2));
    await until(() => podsOf('shop', 'api-5c6b7f9d8-').length === 2 && podsOf('shop', 'api-5c6b7f9d8-').every(ready), 'two ready api Pods');
    await until(() => (cluster.server.get('deployments.apps', 'shop', 'api')!.status as { readyReplicas?: number }).readyReplicas === 2, 'the Deployment counting them');
    await run(planScale(target(DEPLOYMENTS, 'shop', 'api'), 1));
    await until(() => podsOf('shop', 'api-5c6b7f9d8-').length === 1, 'back to one');
  });

  it('rollout restart: a new ReplicaSet revision takes over, the old Pods go as new ones get ready', async () => {
    await run(planRestart(target(DEPLOYMENTS, 'monitoring', 'grafana'), Date.now()));
    await until(() => cluster.server.list('replicasets.apps', 'monitoring').filter((rs) => rs.metadata.name.startsWith('grafana-')).length === 2, 'a second ReplicaSet');
    const revisions = cluster.server.list('replicasets.apps', 'monitoring').filter((rs) => rs.metadata.name.startsWith('grafana-')).map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']).sort();
    assert.deepEqual(revisions, ['1', '2']);
    await until(() => !cluster.server.get('pods', 'monitoring', 'grafana-7c9d8f6b5-m4x8w') && podsOf('monitoring', 'grafana-').length === 1 && podsOf('monitoring', 'grafana-').every(ready), 'the old Pod replaced by a ready new one');
    assert.equal(cluster.server.get('deployments.apps', 'monitoring', 'grafana')!.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
  });

  it('a deleted Pod is replaced; with node-1 cordoned the replacement runs on node-2', async () => {
    await run(planCordon(target(NODES, '', 'node-1'), true));
    await run(planDelete(target(PODS, 'monitoring', 'prometheus-6b8d9c7f5-h2jrl')));
    await until(() => podsOf('monitoring', 'prometheus-').length === 1 && podsOf('monitoring', 'prometheus-')[0].metadata.name !== 'prometheus-6b8d9c7f5-h2jrl' && ready(podsOf('monitoring', 'prometheus-')[0]), 'a ready replacement');
    assert.equal((podsOf('monitoring', 'prometheus-')[0].spec as { nodeName?: string }).nodeName, 'node-2');
    await run(planCordon(target(NODES, '', 'node-1'), false));
  });

  it('a Job from the CronJob runs its Pod to completion', async () => {
    await run(planCreateJob(target(CRONJOBS, 'batch', 'nightly-report'), 'nightly-report-manual-1'));
    await until(() => (cluster.server.get('jobs.batch', 'batch', 'nightly-report-manual-1')?.status as { succeeded?: number } | undefined)?.succeeded === 1, 'the Job complete', 30_000);
    const pod = cluster.server.list('pods', 'batch').find((p) => p.metadata.name.startsWith('nightly-report-manual-1-'));
    assert.equal((pod?.status as { phase?: string } | undefined)?.phase, 'Succeeded');
  });
});
