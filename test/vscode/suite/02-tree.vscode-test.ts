import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ObjectNode, TreeNode } from '../../../src/ui/tree/tree-node';
import { entryOf, fixture, nodeAt, registerTeardown, resourceNode, serverObjects, settled, treeObjects, treeText, until, type Fixture } from '../support/fixture';

registerTeardown();

describe('the Watched Resources tree', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
  });

  beforeEach(async () => {
    await settled(fx);
  });

  const objectAt = (...labels: string[]): ObjectNode | undefined => {
    const node = nodeAt(fx.api, ...labels);
    return node?.kind === 'object' ? node : undefined;
  };
  const showTree = () => treeText(fx.api).join('\n');

  it('has a node per watched resource type, with its watch state and resourceVersion', () => {
    const { api } = fx;
    const model = api.tree.model;
    const roots = model.getChildren();
    assert.deepEqual(roots.map((n) => n.kind), ['resource', 'resource']);
    assert.deepEqual(roots.map((n) => model.present(n).label).sort(), ['configmaps', 'secrets']);
    for (const root of roots) {
      const p = model.present(root);
      const entry = entryOf(api, p.label);
      assert.match(p.description ?? '', new RegExp(`^watching · \\d+(?: ${p.label.replace(/s$/, '')}s?)? · rv ${entry.stats.resourceVersion}$`), `${p.label}: description (V21: the count, in words where the row has room)`);
      assert.equal(p.icon?.id, 'eye');
      assert.equal(p.contextValue, 'resource');
      assert.equal(p.collapsible, 'collapsed');
      assert.match(model.tooltip(root) ?? '', /relists/, `${p.label}: the tooltip carries the statistics`);
    }
  });

  it("groups each resource's objects by namespace, exactly the server's objects", () => {
    const { api, server } = fx;
    const model = api.tree.model;
    for (const resource of ['configmaps', 'secrets']) {
      const root = resourceNode(api, resource) as TreeNode;
      const namespaces = model.getChildren(root);
      const expected = [...new Set(server.list(resource).map((o) => o.metadata.namespace ?? ''))].sort();
      assert.deepEqual(namespaces.map((n) => n.kind), expected.map(() => 'namespace'), showTree());
      assert.deepEqual(namespaces.map((n) => model.present(n).label), expected, `${resource}: namespaces`);
      for (const ns of namespaces) {
        const label = model.present(ns).label;
        const names = server.list(resource, label).map((o) => o.metadata.name).sort();
        assert.equal(model.present(ns).description, `${names.length} ${names.length === 1 ? resource.replace(/s$/, '') : resource}`, `${resource} ${label}: count (V21: in words)`);
        const children = model.getChildren(ns);
        assert.deepEqual(children.map((c) => model.present(c).label), names, `${resource} ${label}: names`);
        for (const child of children) assert.equal(model.present(child).contextValue, 'object');
      }
    }
    assert.deepEqual(treeObjects(api), serverObjects(server), 'every object at its resourceVersion');
  });

  it('follows an object created, changed and deleted on the server', async () => {
    const { api, server } = fx;
    const model = api.tree.model;

    const created = server.create('configmaps', { metadata: { name: 'delta', namespace: 'default' }, data: { v: '1' } });
    await until(() => objectAt('configmaps', 'default', 'delta') !== undefined, () => `delta in the tree:\n${showTree()}`);
    const node = objectAt('configmaps', 'default', 'delta') as ObjectNode;
    assert.equal(node.object.metadata.uid, created.metadata.uid);
    assert.equal(model.present(node).label, 'delta');
    assert.equal(model.present(nodeAt(api, 'configmaps', 'default') as TreeNode).description, "3 configmaps");

    const updated = server.update('configmaps', { ...created, data: { v: '2' } });
    assert.notEqual(updated.metadata.resourceVersion, created.metadata.resourceVersion);
    await until(
      () => objectAt('configmaps', 'default', 'delta')?.object.metadata.resourceVersion === updated.metadata.resourceVersion,
      () => `delta at resourceVersion ${updated.metadata.resourceVersion}; the tree has ${objectAt('configmaps', 'default', 'delta')?.object.metadata.resourceVersion}`,
    );
    const after = objectAt('configmaps', 'default', 'delta') as ObjectNode;
    assert.equal(after, node, 'the same node (stable id) for the changed object');
    assert.deepEqual((after.object as { data?: unknown }).data, { v: '2' });

    server.delete('configmaps', 'default', 'delta');
    await until(() => objectAt('configmaps', 'default', 'delta') === undefined, () => `delta gone from the tree:\n${showTree()}`);
    assert.equal(model.present(nodeAt(api, 'configmaps', 'default') as TreeNode).description, "2 configmaps");
    await until(() => treeObjects(api).join('\n') === serverObjects(server).join('\n'), () => `the tree to equal the server:\n${showTree()}`);
  });

  it('adds a namespace node with its first object and removes it with its last', async () => {
    const { api, server } = fx;
    server.create('configmaps', { metadata: { name: 'solo', namespace: 'team-b' } });
    await until(() => objectAt('configmaps', 'team-b', 'solo') !== undefined, () => `team-b/solo in the tree:\n${showTree()}`);
    assert.deepEqual(api.tree.model.getChildren(resourceNode(api, 'configmaps')).map((n) => api.tree.model.present(n).label), ['default', 'team-a', 'team-b']);
    server.delete('configmaps', 'team-b', 'solo');
    await until(() => nodeAt(api, 'configmaps', 'team-b') === undefined, () => `team-b gone from the tree:\n${showTree()}`);
    assert.deepEqual(treeObjects(api), serverObjects(server));
  });

  it('shows in the real view: the view reveals and selects an object node', async () => {
    const { api } = fx;
    await vscode.commands.executeCommand('workbench.view.extension.kubeWatch');
    await until(() => api.tree.view.visible, () => 'the Watched Resources view to be visible');
    const node = objectAt('configmaps', 'team-a', 'gamma') as ObjectNode;
    assert.ok(node, showTree());
    await api.tree.view.reveal(node, { select: true, focus: false, expand: true });
    await until(() => api.tree.view.selection.includes(node), () => `gamma selected; selection: ${api.tree.view.selection.map((n) => n.id).join(', ')}`);
  });
});
