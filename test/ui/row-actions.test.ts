/**
 * Only what you may do, on the rows: the tree model with the row actions, on a WatchManager over
 * the local API server (real transport, real access reviews). A row's context value offers the
 * write actions that apply and that the server allows; a write marks its row pending, then done,
 * or "the view may be behind".
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base';
import { WriteJournal, planScale, runPlan } from '../../src/actions';
import { WatchManager } from '../../src/manager';
import { RowActions, targetOfRow } from '../../src/ui/actions';
import { WatchTreeModel, type ObjectNode, type TreeNode } from '../../src/ui/tree';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

const SCALE = 50;

describe('Row actions: only what you may do, and the state of a write, on the tree rows', function () {
  this.timeout(60_000);
  let server: FakeApiServer;
  let dir: string;
  let manager: WatchManager;
  let journal: WriteJournal;
  let rows: RowActions;
  let model: WatchTreeModel;
  let refreshed: (TreeNode[] | undefined)[];

  beforeEach(async () => {
    server = await FakeApiServer.start({ timeScale: 1000 / SCALE });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-rows-'));
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'sim', cluster: 'sim', user: 'reader' });
    server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } });
    server.create('pods', { metadata: { namespace: 'shop', name: 'web-1' }, spec: {}, status: { phase: 'Running' } });
    const clock = acceleratedClock(SCALE, seededRandom(5));
    manager = new WatchManager({ contexts: [], resources: ['deployments.apps', 'pods'], namespaces: ['shop'], kubeconfigPath: kubeconfig }, { clock, informerOptions: { requestTimeoutMs: 600_000 } });
    journal = new WriteJournal(manager, { confirmWithinMs: 60_000 });
    rows = new RowActions(manager, journal);
    model = new WatchTreeModel(manager, { decorator: rows, throttleMs: 10 });
    refreshed = [];
    model.onDidChange((nodes) => refreshed.push(nodes));
  });

  afterEach(async () => {
    model.dispose();
    rows.dispose();
    journal.dispose();
    await manager.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const row = (resource: string, name: string): ObjectNode | undefined => {
    const entry = manager.entries().find((e) => e.resource === resource);
    return entry && model.findObject(entry.id, 'shop', name);
  };

  async function synced(): Promise<void> {
    await manager.start();
    await until(() => manager.entries().length === 2 && manager.entries().every((e) => e.state.synced) && row('deployments.apps', 'web') && row('pods', 'web-1'), 'both watches synced with their rows');
  }

  it('everything allowed: a Deployment row offers Scale, Rollout Restart, Rollout Undo and Delete, once the reviews answer', async () => {
    await synced();
    const node = row('deployments.apps', 'web')!;
    assert.equal(model.present(node).contextValue, 'object.workload', 'nothing offered before the server answered');
    model.present(row('pods', 'web-1')!);
    // U07: the streams (Port Forward; Open Shell and Run Command on a pod) are offered from the same reviews.
    await until(
      () => model.present(node).contextValue === 'object.workload @scale @restart @undo @delete @forward' && model.present(row('pods', 'web-1')!).contextValue === 'object.pod @delete @forward @shell @debug',
      () => `the rows drawn again with the answers: ${model.present(node).contextValue}; ${model.present(row('pods', 'web-1')!).contextValue}`,
    );
    const asked = server.requests.filter((r) => r.path.endsWith('/selfsubjectaccessreviews')).length;
    model.present(node);
    model.present(row('pods', 'web-1')!);
    assert.equal(server.requests.filter((r) => r.path.endsWith('/selfsubjectaccessreviews')).length, asked, 'answers are cached: drawing again asks nothing');
  });

  it('a read-only user sees no write action on any row; Follow Logs still matches its row', async () => {
    server.access.user = 'reader';
    server.access.readOnly();
    await synced();
    const deployment = row('deployments.apps', 'web')!;
    const access = manager.accessReviewsOf(deployment.entryId)!;
    model.present(deployment);
    model.present(row('pods', 'web-1')!);
    // Denied for all namespaces, then asked for the namespace when the row is drawn again (as the tree does on each answer).
    await until(() => (model.present(deployment), access.peek({ verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'shop' }) && access.peek({ verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'shop' })), 'the answers');
    assert.equal(model.present(deployment).contextValue, 'object.workload');
    await until(() => (model.present(row('pods', 'web-1')!), access.peek({ verb: 'delete', group: '', resource: 'pods', namespace: 'shop' })), 'the pod answer');
    assert.equal(model.present(row('pods', 'web-1')!).contextValue, 'object.pod');
    assert.match(model.present(row('pods', 'web-1')!).contextValue, /^object\.(pod|workload)\b/, "package.json's Follow Logs regex still matches");
  });

  it('a cluster-wide grant answers every namespace: the questions are asked once for all namespaces, never per namespace', async () => {
    await synced();
    const deployment = row('deployments.apps', 'web')!;
    const access = manager.accessReviewsOf(deployment.entryId)!;
    await until(() => model.present(deployment).contextValue === 'object.workload @scale @restart @undo @delete @forward', () => `the answers: ${model.present(deployment).contextValue}`);
    assert.equal(access.peek({ verb: 'delete', group: 'apps', resource: 'deployments' })?.allowed, true, 'asked for all namespaces');
    assert.equal(access.peek({ verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'shop' }), undefined, 'not asked for the namespace');
    const asked = access.reviewCount;
    model.present(deployment);
    assert.equal(access.reviewCount, asked, 'drawing again asks nothing');
  });

  it('a grant in one namespace only (a RoleBinding): the cluster-wide denial asks the namespace, whose answer offers the actions', async () => {
    server.access.user = 'shop-admin';
    server.access.setRules([
      { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'], binding: 'read-only' },
      { verbs: ['delete', 'patch'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], namespaces: ['shop'], binding: 'shop-admin' },
    ]);
    await synced();
    const deployment = row('deployments.apps', 'web')!;
    const access = manager.accessReviewsOf(deployment.entryId)!;
    await until(() => model.present(deployment).contextValue === 'object.workload @scale @restart @undo @delete', () => `the answers: ${model.present(deployment).contextValue}`);
    assert.equal(access.peek({ verb: 'delete', group: 'apps', resource: 'deployments' })?.allowed, false, 'denied for all namespaces');
    assert.equal(access.peek({ verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'shop' })?.allowed, true, 'allowed in shop, asked after the denial');
    assert.equal(access.peek({ verb: 'list', group: 'apps', resource: 'replicasets' })?.allowed, true, 'a read granted everywhere is not asked per namespace');
    assert.equal(access.peek({ verb: 'list', group: 'apps', resource: 'replicasets', namespace: 'shop' }), undefined);
  });

  it('a write marks its row pending, then done, and the row is refreshed each time', async () => {
    await synced();
    const node = row('deployments.apps', 'web')!;
    const target = targetOfRow(manager, node)!;
    const id = node.entryId;
    const before = refreshed.length;
    const result = await runPlan(planScale(target, 3), { transport: manager.transportOf(id)!, journal, access: manager.accessReviewsOf(id), user: manager.userOf(id) }, new AbortController().signal);
    assert.equal(result.ok, true);
    await until(() => journal.records().at(-1)?.state === 'confirmed', 'the write confirmed');
    const shown = model.present(row('deployments.apps', 'web')!);
    assert.equal(shown.icon?.id, 'check');
    assert.match(shown.description ?? '', /^scale done · /);
    assert.match(model.tooltip(row('deployments.apps', 'web')!) ?? '', /^\$\(check\) \*\*scale\*\* \(replicas 2 → 3\), \d+ s ago: done at resourceVersion \d+; the watch shows it (after|within)/);
    await until(() => refreshed.length > before, 'a refresh naming the row');
  });
});
