/**
 * kubectl-grade columns in the tree, through the real stack (the local API server, a real
 * WatchManager, the tree model): a custom resource printed with its CRD's columns, following a
 * change of the CRD, and NAME/AGE where CRDs may not be read; Events newest first; object order
 * that does not move while objects change.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base';
import { WatchManager, type WatchConfig } from '../../src/manager';
import type { ObjectNode, ResourceNode, TreeNode } from '../../src/ui/tree/tree-node';
import { WatchTreeModel } from '../../src/ui/tree/watch-tree-model';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

const SCALE = 50;

const CRD_TYPE = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false };

function widgetCrd(columns: object[]): KubeObjectJsonLike {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', names: { plural: 'widgets', kind: 'Widget' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, additionalPrinterColumns: columns }] },
  };
}

type KubeObjectJsonLike = { metadata: { name: string; namespace?: string } } & Record<string, unknown>;

const SIZE_AND_READY = [
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
  { name: 'Color', type: 'string', priority: 1, jsonPath: '.spec.color' },
];

describe('tree columns (kubectl-grade rows through the real stack)', function () {
  this.timeout(60_000);
  let dir: string;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-cols-'));
  });

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function setup(config: Partial<WatchConfig>, seed: (s: FakeApiServer) => void) {
    const server = await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-a' });
    cleanups.push(() => server.close());
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    server.defineResource({ ...CRD_TYPE, shortNames: ['crd'] });
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'] });
    seed(server);
    const manager = new WatchManager(
      { contexts: [], resources: ['widgets.example.com'], namespaces: ['shop'], kubeconfigPath: kubeconfig, ...config },
      { clock: acceleratedClock(SCALE, seededRandom(5)), informerOptions: { requestTimeoutMs: 600_000 } },
    );
    cleanups.push(() => manager.stop());
    const model = new WatchTreeModel(manager, { throttleMs: 0 });
    cleanups.push(() => model.dispose());
    await manager.start();
    await until(
      () => manager.entries().length > 0 && manager.entries().every((e) => e.informer && e.state.phase === 'watching' && e.state.synced),
      () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error])),
    );
    return { server, manager, model };
  }

  const root = (model: WatchTreeModel, label: string) => model.getChildren().find((n) => model.present(n).label === label) as ResourceNode;
  const objects = (model: WatchTreeModel, node: TreeNode) => model.getChildren(node).filter((n): n is ObjectNode => n.kind === 'object');

  it("prints custom resources with their CRD's columns, follows the CRD when it changes, and stops watching CRDs when no custom type is watched", async () => {
    const { server, manager, model } = await setup({}, (s) => {
      s.create('customresourcedefinitions.apiextensions.k8s.io', widgetCrd(SIZE_AND_READY));
      s.create('widgets.example.com', { metadata: { name: 'blue-widget', namespace: 'shop' }, spec: { size: 3, color: 'blue' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    });
    const widgets = root(model, 'widgets.example.com');
    await until(() => manager.customResourceDefinition(widgets.entryId!) !== undefined, () => 'the CRD to be listed');
    const [blue] = objects(model, widgets);
    assert.equal(model.present(blue).description, 'True · size 3');
    assert.deepEqual(model.present(blue).icon, { id: 'pass', color: 'testing.iconPassed' });
    const tooltip = model.tooltip(blue) ?? '';
    assert.ok(tooltip.includes('| COLOR | blue |'), `the wide column in\n${tooltip}`);
    assert.ok(tooltip.includes('```text\nNAME          READY   SIZE\nblue-widget   True    3\n```'), `the kubectl row in\n${tooltip}`);

    // The CRD changes its columns: the rows follow, without any change to the widget.
    const changes: (TreeNode[] | undefined)[] = [];
    model.onDidChange((nodes) => changes.push(nodes));
    const crd = server.get('customresourcedefinitions.apiextensions.k8s.io', '', 'widgets.example.com')!;
    server.update('customresourcedefinitions.apiextensions.k8s.io', { ...crd, ...widgetCrd([{ name: 'Colour', type: 'string', jsonPath: '.spec.color' }]) });
    await until(() => model.present(blue).description === 'colour blue', () => model.present(blue).description ?? '');
    await until(() => changes.some((c) => c?.includes(widgets)), () => JSON.stringify(changes.map((c) => c?.map((n) => n.id))));

    // No custom type watched any more: the CRD watch stops.
    const crdWatches = () => server.openWatches('customresourcedefinitions.apiextensions.k8s.io');
    assert.equal(crdWatches(), 1);
    await manager.update({ ...manager.configuration, resources: ['configmaps'] });
    await until(() => crdWatches() === 0, () => `${crdWatches()} CRD watches open`);
  });

  it('stops its CRD watch when the manager stops, before the transport goes', async () => {
    const { server, manager } = await setup({}, (s) => {
      s.create('customresourcedefinitions.apiextensions.k8s.io', widgetCrd(SIZE_AND_READY));
    });
    const crdWatches = () => server.openWatches('customresourcedefinitions.apiextensions.k8s.io');
    await until(() => crdWatches() === 1, () => `${crdWatches()} CRD watches open`);
    await manager.stop();
    const requests = server.requests.length;
    await until(() => crdWatches() === 0, () => `${crdWatches()} CRD watches open after stop`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(server.requests.length, requests, 'no request after stop');
  });

  it('where CRDs may not be read (403): NAME and AGE, the status read from the object', async () => {
    const { server, manager, model } = await setup({}, (s) => {
      s.injectFault({ type: 'status', code: 403, reason: 'Forbidden', message: 'customresourcedefinitions.apiextensions.k8s.io is forbidden' }, { verb: 'list', resource: 'customresourcedefinitions.apiextensions.k8s.io', times: Infinity });
      s.create('customresourcedefinitions.apiextensions.k8s.io', widgetCrd(SIZE_AND_READY));
      s.create('widgets.example.com', { metadata: { name: 'gold-widget', namespace: 'shop', creationTimestamp: new Date().toISOString() }, spec: { size: 5 }, status: { phase: 'Reconciling' } });
    });
    const widgets = root(model, 'widgets.example.com');
    await until(() => server.requests.some((r) => r.resource === 'customresourcedefinitions.apiextensions.k8s.io'), () => 'a CRD list');
    assert.equal(manager.customResourceDefinition(widgets.entryId!), undefined);
    const [gold] = objects(model, widgets);
    assert.match(model.present(gold).description ?? '', /^Reconciling · \d+s$/);
    assert.match(model.tooltip(gold) ?? '', /```text\nNAME          AGE\ngold-widget   \d+s\n```/);
  });

  it('lists Events newest first, moves one when it is seen again, and keeps other objects in kubectl order while they change', async () => {
    const at = (s: number) => new Date(Date.now() - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const ev = (name: string, reason: string, lastSeenAgo: number, count = 1): KubeObjectJsonLike => ({
      metadata: { name, namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: `pod-${name}`, namespace: 'shop' },
      reason,
      message: `${reason} happened`,
      type: reason === 'BackOff' ? 'Warning' : 'Normal',
      count,
      firstTimestamp: at(lastSeenAgo + 60),
      lastTimestamp: at(lastSeenAgo),
    });
    const { server, model } = await setup({ resources: ['events', 'configmaps'] }, (s) => {
      s.create('events', ev('a', 'Scheduled', 300));
      s.create('events', ev('b', 'BackOff', 10, 4));
      s.create('events', ev('c', 'Pulled', 120));
      for (const name of ['cm-2', 'cm-10', 'cm-1']) s.create('configmaps', { metadata: { name, namespace: 'shop' }, data: { k: 'v' } });
    });
    const events = root(model, 'events');
    const labels = () => objects(model, events).map((n) => model.present(n).label);
    assert.deepEqual(labels(), ['BackOff', 'Pulled', 'Scheduled']);
    assert.match(model.present(objects(model, events)[0]).description ?? '', /^Warning ×4 · \d+s ago · pod\/pod-b · BackOff happened$/);

    const scheduled = server.get('events', 'shop', 'a')!;
    server.update('events', { ...scheduled, count: 2, lastTimestamp: at(0) });
    await until(() => labels()[0] === 'Scheduled', () => labels().join());
    assert.deepEqual(labels(), ['Scheduled', 'BackOff', 'Pulled']);
    assert.match(model.present(objects(model, events)[0]).description ?? '', /^Normal ×2 · \d+s ago · pod\/pod-a/);

    const cms = root(model, 'configmaps');
    const names = () => objects(model, cms).map((n) => n.name);
    assert.deepEqual(names(), ['cm-1', 'cm-10', 'cm-2']);
    for (const name of ['cm-10', 'cm-1', 'cm-2']) {
      const cm = server.get('configmaps', 'shop', name)!;
      server.update('configmaps', { ...cm, data: { k: 'changed', more: 'x' } });
    }
    await until(() => objects(model, cms).every((n) => (n.object.data as { more?: string }).more === 'x'), () => 'the updates');
    assert.deepEqual(names(), ['cm-1', 'cm-10', 'cm-2']);
    assert.equal(model.present(objects(model, cms)[0]).description?.startsWith('2 keys'), true);
  });
});
