import assert from 'node:assert/strict';
import { Emitter, type Disposable } from '../../src/base';
import { Informer, type ResourceType } from '../../src/informer';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from '../../src/manager';
import { themeColors } from '../../src/ui/tree/tone';
import type { NamespaceNode, ResourceNode, TreeNode } from '../../src/ui/tree/tree-node';
import { WatchTreeModel, type WatchTreeSource } from '../../src/ui/tree/watch-tree-model';
import { heldConfigMapServer } from '../support/held-transport';
import { ManualClock } from '../support/manual-clock';
import { until } from '../support/until';

const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

/** One entry (configmaps in all namespaces) over one real informer, as the watch manager reports it. */
class OneInformerSource implements WatchTreeSource {
  private readonly changes = new Emitter<EntriesChange>();
  constructor(readonly informer: Informer) {
    informer.onStateChange(() => this.changes.fire({ added: [], removed: [], changed: ['e1'] }));
  }
  entries(): WatchEntry[] {
    const i = this.informer;
    return [{ id: 'e1', context: 'ctx', resource: 'configmaps', type: configmaps, namespace: '', informer: i, state: i.state, stats: i.stats, label: 'ctx/configmaps' }];
  }
  entry(id: string): WatchEntry | undefined {
    return this.entries().find((e) => e.id === id);
  }
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable {
    return this.changes.on(listener);
  }
  addHandler(h: EntryHandler): Disposable {
    return this.informer.addHandler({ onAdd: (o) => h.onAdd?.('e1', o), onUpdate: (a, b) => h.onUpdate?.('e1', a, b), onDelete: (o, u) => h.onDelete?.('e1', o, u) });
  }
  onObjectsRemoved(_listener: (removed: ObjectsRemoved) => void): Disposable {
    return { dispose: () => undefined };
  }
  onLifecycle(listener: Parameters<WatchTreeSource['onLifecycle']>[0]): Disposable {
    return this.informer.onLifecycle((e) => listener('e1', e));
  }
  onListProgress(listener: (entryId: string) => void): Disposable {
    return this.informer.onListProgress(() => listener('e1'));
  }
}

describe('tree view model: rows of a first list in progress (the list preview)', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup() {
    const { server, held: h } = await heldConfigMapServer('1.26', cleanups);
    h.holdListFrom = 2;
    const clock = new ManualClock(Date.now());
    const informer = new Informer({ transport: h.transport, type: configmaps, pageSize: 2, clock, requestTimeoutMs: 600_000, watchListProgressMs: 600_000 });
    cleanups.push(() => informer.stop());
    const model = new WatchTreeModel(new OneInformerSource(informer), { clock });
    cleanups.push(() => model.dispose());
    const refreshes: (TreeNode[] | undefined)[] = [];
    model.onDidChange((nodes) => refreshes.push(nodes));
    return { server, h, clock, informer, model, refreshes };
  }

  const resourceOf = (model: WatchTreeModel) => model.getChildren()[0] as ResourceNode;
  const labels = (nodes: TreeNode[], model: WatchTreeModel) => nodes.map((n) => model.present(n).label);

  it('draws namespace rows from the preview, marked as listing, then the synced rows in their place', async () => {
    const { h, clock, informer, model, refreshes } = await setup();
    informer.start();
    await until(() => h.held === 2, 'the second page held');
    const resource = resourceOf(model);
    assert.deepEqual(labels(model.getChildren(resource), model), ['listing…'], 'nothing from the list before it is announced');
    clock.advance(500); // the announcement, then the tree's refresh
    assert.ok(refreshes.some((r) => r?.includes(resource)), 'the resource node refreshed');
    assert.match(model.present(resource).description ?? '', /^listing · 2 so far/);
    const [a] = model.getChildren(resource) as NamespaceNode[];
    assert.equal(model.getChildren(resource).length, 1);
    const aRow = model.present(a);
    assert.equal(aRow.label, 'a');
    assert.equal(aRow.description, 'listing · 2 configmaps so far');
    assert.equal(aRow.contextValue, 'namespace.listing');
    assert.deepEqual(aRow.icon, { id: 'symbol-namespace', color: themeColors.grey }, 'not the healthy look');
    const received = model.getChildren(a);
    assert.deepEqual(labels(received, model), ['a1', 'a2'], 'expanded: the objects received so far');
    for (const row of received.map((n) => model.present(n))) {
      assert.equal(row.contextValue, 'listing', 'no actions on an object not in the cache yet');
      assert.match(row.description ?? '', /^listing/);
    }

    h.holdListFrom = 3;
    h.release();
    await until(() => h.held === 3, 'the third page held');
    clock.advance(500);
    const [a2, b] = model.getChildren(resource) as NamespaceNode[];
    assert.equal(a2, a, 'the same namespace node as it grows');
    assert.equal(model.present(a).description, 'listing · 3 configmaps so far');
    assert.equal(model.present(b).description, 'listing · 1 configmap so far');
    assert.deepEqual(labels(model.getChildren(a), model), ['a1', 'a2', 'a3']);

    // When the preview ends, the complete list is already in the tree: never empty in between.
    let atEnd: string[] | undefined;
    informer.onListProgress((p) => {
      if (!p) atEnd = labels(model.getChildren(resource), model);
    });
    h.release();
    await until(() => informer.state.synced && atEnd, 'synced');
    assert.deepEqual(atEnd, ['a', 'b']);
    clock.advance(1000);
    const [a3, b3] = model.getChildren(resource) as NamespaceNode[];
    assert.equal(a3, a, 'the preview namespace node became the synced one (no flicker, its expansion kept)');
    assert.equal(b3, b);
    assert.equal(model.present(a).description, '3 configmaps');
    assert.equal(model.present(a).contextValue, 'namespace');
    assert.equal(model.present(b).description, '2 configmaps');
    const rows = model.getChildren(a);
    assert.deepEqual(labels(rows, model), ['a1', 'a2', 'a3']);
    assert.ok(rows.every((n) => model.present(n).contextValue === 'object'), 'the synced rows, not the preview');
    assert.ok(received.every((n) => n.kind === 'object' && !n.attached), 'the preview rows are detached');
    assert.doesNotMatch(model.present(resource).description ?? '', /so far/);
  });

  it('drops the preview rows when the list fails midway: back to the message, never the cluster state', async () => {
    const { server, h, clock, informer, model } = await setup();
    informer.start();
    await until(() => h.held === 2, 'the second page held');
    clock.advance(500);
    const resource = resourceOf(model);
    assert.deepEqual(labels(model.getChildren(resource), model), ['a']);
    server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'etcd is down' }, { verb: 'list' });
    h.release();
    await until(() => informer.listPreview === undefined, 'the preview dropped');
    clock.advance(500);
    const children = model.getChildren(resource);
    assert.equal(children.length, 1);
    assert.equal(children[0].kind, 'message');
    assert.doesNotMatch(model.present(resource).description ?? '', /so far/);
  });
});
