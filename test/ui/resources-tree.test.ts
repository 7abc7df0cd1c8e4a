import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom, systemClock } from '../../src/base';
import { WatchManager, type WatchConfig } from '../../src/manager';
import { ObjectIndex } from '../../src/ui/find';
import { ResourcesTree, WatchTreeModel, type ViewNode } from '../../src/ui/tree';
import type { ObjectNode, ResourceNode } from '../../src/ui/tree/tree-node';
import { ENDPOINT_SLICES, FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

const SCALE = 50;

const pod = (namespace: string, name: string, owner?: { kind: string; name: string; uid: string }) => ({
  metadata: { namespace, name, labels: { app: name.split('-')[0] }, ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] } : {}) },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'main', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] },
});

describe('the Resources view around the watch rows (issue 23, parts 3 to 6)', function () {
  this.timeout(60_000);
  let dir: string;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-view-'));
  });

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A local API server with a Deployment, its ReplicaSet and Pods, a Service with its EndpointSlice, Events and a CRD type. */
  async function setup(config: Partial<WatchConfig> = {}) {
    const server = await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-a' });
    cleanups.push(() => server.close());
    server.defineResource({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] });
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true });
    server.defineResource(ENDPOINT_SLICES);
    const deploy = server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web' }, spec: { replicas: 2 }, status: { replicas: 2, readyReplicas: 2 } });
    const rs = server.create('replicasets.apps', {
      metadata: { namespace: 'shop', name: 'web-5f7b9', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deploy.metadata.uid, controller: true }] },
      spec: { replicas: 2 },
      status: { replicas: 2, readyReplicas: 2 },
    });
    const owner = { kind: 'ReplicaSet', name: 'web-5f7b9', uid: rs.metadata.uid as string };
    server.create('pods', pod('shop', 'web-5f7b9-a1', owner));
    server.create('pods', pod('shop', 'web-5f7b9-b2', owner));
    server.create('pods', pod('shop', 'api-1'));
    server.create('pods', pod('batch', 'job-1'));
    server.create('services', { metadata: { namespace: 'shop', name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    server.create('endpointslices.discovery.k8s.io', {
      metadata: { namespace: 'shop', name: 'web-x1', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], targetRef: { kind: 'Pod', namespace: 'shop', name: 'web-5f7b9-a1' } }],
    });
    server.create('events', { metadata: { namespace: 'shop', name: 'e1' }, type: 'Warning', reason: 'BackOff', message: 'Back-off restarting', involvedObject: { kind: 'Pod', name: 'api-1' }, lastTimestamp: '2026-01-01T00:00:00Z' });
    server.create('events', { metadata: { namespace: 'shop', name: 'e2' }, type: 'Normal', reason: 'Pulled', message: 'image pulled', involvedObject: { kind: 'Pod', name: 'api-1' }, lastTimestamp: '2026-01-01T00:00:01Z' });
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    const manager = new WatchManager(
      { contexts: [], resources: ['pods', 'deployments.apps', 'services', 'events'], namespaces: [], kubeconfigPath: kubeconfig, ...config },
      { clock: acceleratedClock(SCALE, seededRandom(3)), informerOptions: { requestTimeoutMs: 600_000 } },
    );
    cleanups.push(() => manager.stop());
    const model = new WatchTreeModel(manager, { clock: systemClock });
    const tree = new ResourcesTree(model, manager, systemClock);
    cleanups.push(() => tree.dispose());
    cleanups.push(() => model.dispose());
    await manager.start();
    await until(
      () => manager.entries().length > 0 && manager.entries().every((e) => e.informer && e.state.phase === 'watching' && e.state.synced),
      () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error])),
    );
    return { server, manager, model, tree, kubeconfig };
  }

  const label = (tree: ResourcesTree, n: ViewNode) => tree.present(n).label;
  const child = (tree: ResourcesTree, parent: ViewNode | undefined, name: string): ViewNode => {
    const found = tree.getChildren(parent).find((n) => label(tree, n) === name);
    assert.ok(found, `${name} under ${parent ? label(tree, parent) : 'the roots'}: ${tree.getChildren(parent).map((n) => label(tree, n)).join(', ')}`);
    return found;
  };
  /** Waits until `parent`'s children are labelled `names` (related rows come from ad-hoc watches). */
  const childrenBecome = async (tree: ResourcesTree, parent: ViewNode, names: string[]) => {
    await until(
      () => JSON.stringify(tree.getChildren(parent).map((n) => label(tree, n))) === JSON.stringify(names),
      () => `children of ${label(tree, parent)}: ${tree.getChildren(parent).map((n) => label(tree, n)).join(', ')}`,
    );
  };

  it('V20 All resources lists every type by API group, CRDs included, and says which are watched', async () => {
    const { tree, manager, kubeconfig } = await setup();
    const roots = tree.getChildren();
    assert.equal(label(tree, roots[roots.length - 1]), 'All resources');
    const catalog = roots[roots.length - 1];
    await until(() => tree.getChildren(catalog).some((n) => n.kind === 'apiGroup'), () => tree.getChildren(catalog).map((n) => label(tree, n)).join(', '));
    const groups = tree.getChildren(catalog).map((n) => label(tree, n));
    assert.equal(groups[0], 'core');
    assert.ok(groups.includes('apps') && groups.includes('example.com'), groups.join(', '));
    const widgets = child(tree, child(tree, catalog, 'example.com'), 'widgets.example.com');
    assert.equal(tree.present(widgets).contextValue, 'apiType');
    assert.match(tree.present(widgets).description ?? '', /^Widget · v1$/);
    assert.equal(tree.present(child(tree, child(tree, catalog, 'core'), 'pods')).contextValue, 'apiType.watched');
    assert.equal(tree.present(child(tree, child(tree, catalog, 'core'), 'pods')).description, 'Pod · v1 · watched · 4 pods', 'U08 a watched type says how many objects it holds');
    await manager.update({ contexts: [], resources: ['pods', 'widgets.example.com'], namespaces: [], kubeconfigPath: kubeconfig });
    await until(() => tree.present(widgets).contextValue === 'apiType.watched', () => tree.present(widgets).description ?? '');
    assert.equal(tree.present(child(tree, child(tree, catalog, 'apps'), 'deployments.apps')).contextValue, 'apiType');
  });

  it('V23 a filter on Events: warnings only, then text; the row says so while it is in force', async () => {
    const { tree } = await setup();
    const events = child(tree, undefined, 'events') as ResourceNode;
    tree.setFilter(events, { warningsOnly: true });
    assert.equal(label(tree, events), 'events (warnings only)');
    assert.match(tree.present(events).contextValue, /\.events\.filtered$/);
    const shop = child(tree, events, 'shop');
    assert.deepEqual(tree.getChildren(shop).map((n) => label(tree, n)), ['BackOff']);
    tree.setFilter(events, { text: 'pulled' });
    assert.equal(label(tree, events), 'events ("pulled")');
    assert.deepEqual(tree.getChildren(shop).map((n) => label(tree, n)), ['Pulled']);
    tree.setFilter(events, { text: 'nothing-like-this' });
    assert.deepEqual(tree.getChildren(events).map((n) => label(tree, n)), ['nothing matches the filter']);
    tree.setFilter(events, undefined);
    assert.equal(label(tree, events), 'events');
    assert.equal(tree.getChildren(shop).length, 2);
  });

  it('U08 a filtered row counts what it shows: "1 of 2 events" on the namespace, "1 of 2" on the resource (its label names the type), "2 of 4 pods" for a text filter; cleared, the whole count again', async () => {
    const { tree } = await setup();
    const events = child(tree, undefined, 'events') as ResourceNode;
    const shop = child(tree, events, 'shop');
    const description = (n: ViewNode) => tree.present(n).description ?? '';
    assert.match(description(events), /^watching · 2 events/);
    tree.setFilter(events, { warningsOnly: true });
    assert.match(description(events), /^watching · 1 of 2 · rv \d+$/, 'the label `events (warnings only)` names the type: the count bare');
    assert.equal(description(shop), '1 of 2 events');
    const pods = child(tree, undefined, 'pods') as ResourceNode;
    tree.setFilter(pods, { text: 'web' });
    assert.match(description(pods), /^watching · 2 of 4 · rv \d+$/, 'beside `pods ("web")` the count in words would not fit at the default width');
    assert.equal(label(tree, pods), 'pods ("web")');
    assert.equal(description(child(tree, pods, 'shop')), '2 of 3 pods');
    tree.setFilter(events, undefined);
    assert.match(description(events), /^watching · 2 events/);
    assert.equal(description(shop), '2 events');
  });

  it('V22 Find Object: every cached object by name, kind, namespace and labels; its row made visible', async () => {
    const { tree, manager, server } = await setup();
    const index = new ObjectIndex(manager);
    cleanups.push(() => index.dispose());
    const found = index.items().find((o) => o.label === 'job-1');
    assert.ok(found);
    assert.equal(found.description, 'Pod · batch');
    assert.equal(found.detail, 'app=job');
    server.create('pods', pod('batch', 'job-2'));
    await until(() => index.changed && index.items().some((o) => o.label === 'job-2'), () => 'job-2 in the index');
    const pods = child(tree, undefined, 'pods') as ResourceNode;
    tree.setFilter(pods, { text: 'web' });
    const node = tree.revealable(found.entryId, found.namespace, found.name);
    assert.ok(node);
    assert.equal(tree.filterOf(pods), undefined, 'a filter that hid it is cleared');
    // VS Code reveals through getParent: every parent lists the row.
    let row: ViewNode = node;
    for (let parent = tree.getParent(row); parent; row = parent, parent = tree.getParent(row)) assert.ok(tree.getChildren(parent).includes(row));
    assert.ok(tree.getChildren().includes(row));
  });

  it('V24 a Deployment expands to its ReplicaSets (watched on demand) and those to their Pods; collapsing ends the ad-hoc watch', async () => {
    const { tree, manager } = await setup();
    const deploy = child(tree, child(tree, child(tree, undefined, 'deployments.apps'), 'shop'), 'web') as ObjectNode;
    assert.equal(tree.present(deploy).collapsible, 'collapsed');
    assert.deepEqual(tree.getChildren(deploy).map((n) => label(tree, n)), ['listing replicasets…']);
    await childrenBecome(tree, deploy, ['web-5f7b9']);
    const rs = tree.getChildren(deploy)[0];
    assert.equal(rs.kind, 'related');
    assert.equal(tree.present(rs).contextValue, 'related', 'replicasets are not watched: Describe only');
    assert.equal(manager.adHocWatchCount, 1);
    await until(() => tree.getChildren(rs).filter((n) => n.kind === 'related').length === 2, () => tree.getChildren(rs).map((n) => label(tree, n)).join(', '));
    const pods = tree.getChildren(rs);
    assert.deepEqual(pods.map((p) => p.kind === 'related' && p.name), ['web-5f7b9-a1', 'web-5f7b9-b2']);
    assert.equal(pods.length, 2);
    assert.ok(pods.every((p) => p.kind === 'related' && p.entryId !== undefined), 'pods come from the configured watch');
    assert.equal(tree.present(pods[0]).contextValue, 'object.pod', 'a watched Pod offers what a pod row offers');
    tree.collapsed(deploy);
    await until(() => manager.adHocWatchCount === 0, () => `${manager.adHocWatchCount} ad-hoc watches`);
  });

  it('V25 a Service expands to the Pods its EndpointSlices name', async () => {
    const { tree, manager, server } = await setup();
    const svc = child(tree, child(tree, child(tree, undefined, 'services'), 'shop'), 'web') as ObjectNode;
    assert.equal(tree.present(svc).collapsible, 'collapsed');
    tree.getChildren(svc);
    await until(() => tree.getChildren(svc).length === 1 && tree.getChildren(svc)[0].kind === 'related', () => tree.getChildren(svc).map((n) => label(tree, n)).join(', '));
    const first = tree.getChildren(svc)[0];
    assert.equal(first.kind === 'related' && first.name, 'web-5f7b9-a1');
    const slice = server.get('endpointslices.discovery.k8s.io', 'shop', 'web-x1') as unknown as { endpoints: unknown[] };
    server.update('endpointslices.discovery.k8s.io', { ...slice, endpoints: [...slice.endpoints, { addresses: ['10.0.0.2'], targetRef: { kind: 'Pod', namespace: 'shop', name: 'web-5f7b9-b2' } }] });
    await until(() => tree.getChildren(svc).length === 2, () => tree.getChildren(svc).map((n) => label(tree, n)).join(', '));
    tree.collapsed(svc);
    await until(() => manager.adHocWatchCount === 0, () => `${manager.adHocWatchCount} ad-hoc watches`);
  });

  it('V26 two contexts side by side: a top row each with its own health, its resource rows and its catalog', async () => {
    const { tree, manager, kubeconfig } = await setup();
    const second = await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-b' });
    cleanups.push(() => second.close());
    second.create('pods', pod('lab', 'probe'));
    const other = path.join(dir, 'config-b');
    // Cluster and user names of their own: in a merged kubeconfig the first file's definition of a name wins.
    second.writeKubeconfig(other, { context: 'ctx-b', cluster: 'cluster-b', user: 'user-b', token: 'token-b' });
    await manager.update({ contexts: ['ctx-a', 'ctx-b'], resources: ['pods'], namespaces: [], kubeconfigPath: `${kubeconfig}${path.delimiter}${other}` });
    await until(() => manager.entries().length === 2 && manager.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error])));
    const roots = tree.getChildren();
    assert.deepEqual(roots.map((n) => label(tree, n)), ['ctx-a', 'ctx-b']);
    assert.equal(tree.present(roots[0]).description, '1/1 watching');
    assert.equal(tree.present(roots[0]).contextValue, 'context.removable');
    const b = tree.getChildren(roots[1]);
    assert.deepEqual(b.map((n) => label(tree, n)), ['pods', 'All resources']);
    assert.equal(tree.getParent(b[0]), roots[1]);
    // RBAC changes on the second cluster: its watch is refused, the first context stays well.
    second.access.setRules([]);
    second.dropWatches('end');
    await until(() => /^0\/1 watching · pods: forbidden/.test(tree.present(roots[1]).description ?? ''), () => tree.present(roots[1]).description ?? '');
    assert.equal(tree.present(roots[1]).icon?.id, 'lock');
    assert.equal(tree.present(roots[0]).description, '1/1 watching', 'each context has its own health');
  });
});
