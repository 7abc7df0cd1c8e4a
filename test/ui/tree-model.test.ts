import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom, type Clock, type TimerHandle } from '../../src/base';
import { WatchManager, type WatchConfig } from '../../src/manager';
import { themeColors } from '../../src/ui/tree/tone';
import { WatchTreeModel, type WatchTreeModelOptions } from '../../src/ui/tree/watch-tree-model';
import type { NamespaceNode, ObjectNode, ResourceNode, TreeNode } from '../../src/ui/tree/tree-node';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

/** The manager's timers run this much faster than asked; the server's seconds are scaled alike. */
const SCALE = 50;
/** A bound for waiting on the server and the manager, in real milliseconds; never a timing assertion. */

/**
 * The model's clock: time moves only when a test says so, so the number of refreshes is a pure
 * function of the events and of `advance` calls.
 */
class ManualClock implements Clock {
  private t = Date.now();
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return { cancel: () => (this.timers = this.timers.filter((x) => x !== timer)) };
  }

  random(): number {
    return 0.5;
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
  }
}

/**
 * The manager's clock: `acceleratedClock(SCALE)`, a minute ahead of the model's. The model dates
 * an outage by the state's `since`, never later than when it saw the state; with both clocks
 * starting level, a start faster than about 20 ms of real time left the accelerated clock behind
 * the model's (which setup moves a second on), so an outage seemed to begin before the model saw
 * it and its stale time depended on how fast the machine was. A minute ahead, every `since` the
 * manager dates lies after the model's now: the model dates each outage when it sees it.
 */
function managerClock(): Clock {
  const accelerated = acceleratedClock(SCALE, seededRandom(3));
  return { now: () => accelerated.now() + 60_000, setTimer: (fn, ms) => accelerated.setTimer(fn, ms), random: () => accelerated.random() };
}

const runningPod = (name: string, namespace = 'default') => ({
  metadata: { name, namespace },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] },
});

const podWith = (name: string, status: Record<string, unknown>) => ({ metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }] }, status });

describe('tree view model', function () {
  this.timeout(60_000);
  let dir: string;
  let kubeconfig: string;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-tree-'));
    kubeconfig = path.join(dir, 'config');
  });

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A local API server with `seed` objects, a real WatchManager over it on an accelerated clock,
   * and the model on a manual clock, every refresh recorded. Resolves once every entry watches.
   */
  async function setup(config: Partial<WatchConfig>, seed: (s: FakeApiServer) => void = () => undefined, options: Omit<WatchTreeModelOptions, 'clock'> = {}) {
    const server = await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-a' });
    cleanups.push(() => server.close());
    server.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    seed(server);
    const manager = new WatchManager(
      { contexts: [], resources: ['configmaps', 'pods'], namespaces: [], kubeconfigPath: kubeconfig, ...config },
      { clock: managerClock(), informerOptions: { requestTimeoutMs: 600_000 } },
    );
    cleanups.push(() => manager.stop());
    const clock = new ManualClock();
    const model = new WatchTreeModel(manager, { ...options, clock });
    cleanups.push(() => model.dispose());
    const refreshes: (TreeNode[] | undefined)[] = [];
    model.onDidChange((nodes) => refreshes.push(nodes));
    await manager.start();
    await until(
      () => manager.entries().length > 0 && manager.entries().every((e) => (e.informer && e.state.phase === 'watching' && e.state.synced) || (!e.informer && e.error)),
      () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error])),
    );
    clock.advance(1000);
    return { server, manager, model, clock, refreshes };
  }

  /** The tree as text, the way VS Code would show it fully expanded (and presenting every row, as VS Code does). */
  function render(model: WatchTreeModel, node?: TreeNode, depth = 0): string[] {
    const out: string[] = [];
    for (const child of model.getChildren(node)) {
      const p = model.present(child);
      out.push(`${'  '.repeat(depth)}${p.label}${p.description ? ` · ${p.description}` : ''}`);
      out.push(...render(model, child, depth + 1));
    }
    return out;
  }

  /** Labels only, indented by depth. */
  function outline(model: WatchTreeModel, node?: TreeNode, depth = 0): string[] {
    return model.getChildren(node).flatMap((child) => [`${'  '.repeat(depth)}${model.present(child).label}`, ...outline(model, child, depth + 1)]);
  }

  function root(model: WatchTreeModel, label: string): ResourceNode {
    const node = model.getChildren().find((n) => model.present(n).label === label);
    assert.ok(node && node.kind === 'resource', `a resource node "${label}" in ${JSON.stringify(render(model))}`);
    return node;
  }

  function names(model: WatchTreeModel, node: TreeNode): string[] {
    return model.getChildren(node).map((n) => model.present(n).label);
  }

  function objectNamed(model: WatchTreeModel, parent: TreeNode, name: string): ObjectNode | undefined {
    return model.getChildren(parent).find((n): n is ObjectNode => n.kind === 'object' && n.name === name);
  }

  it('shows a node per watched resource with its watch state, and its objects sorted by name', async () => {
    const { model, manager } = await setup({ namespaces: ['default'] }, (s) => {
      for (const name of ['cm-10', 'cm-2', 'cm-1']) s.create('configmaps', { metadata: { name, namespace: 'default' }, data: { k: 'v' } });
      s.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
      s.create('pods', runningPod('web'));
    });
    assert.deepEqual(
      model.getChildren().map((n) => model.present(n).label),
      ['configmaps', 'pods'],
    );
    const cms = root(model, 'configmaps');
    const p = model.present(cms);
    assert.match(p.description ?? '', /^watching · 3 · rv \d+$/, 'V21 the state first, then the count, bare: `configmaps watching · 3 configmaps` is longer than a row at the default width, and the label names the type');
    assert.deepEqual([p.icon?.id, p.contextValue, p.collapsible], ['eye', 'resource', 'collapsed']);
    assert.equal(cms.entryId, manager.entries().find((e) => e.resource === 'configmaps')?.id);
    assert.deepEqual(names(model, cms), ['cm-1', 'cm-10', 'cm-2'], 'kubectl\'s order: by bytes');
    const cm1 = objectNamed(model, cms, 'cm-1');
    assert.ok(cm1);
    assert.equal(cm1.id, `${cms.entryId}/default/cm-1`);
    assert.deepEqual([model.present(cm1).contextValue, model.present(cm1).collapsible, model.present(cm1).icon?.id], ['object', 'none', 'symbol-file']);
    assert.match(model.present(cm1).description ?? '', /^1 key · \d+s$/, 'a ConfigMap shows its DATA and AGE');
    assert.equal(model.getParent(cm1), cms);
    const tooltip = model.tooltip(cms) ?? '';
    for (const row of ['resourceVersion', 'last event', 'last bookmark', 'lists', 'watches opened', 'expiries', 'errors']) assert.ok(tooltip.includes(`| ${row} |`), `${row} in ${tooltip}`);
    assert.ok(tooltip.includes('from a list'), tooltip);
    assert.match(model.tooltip(cm1) ?? '', /\*\*ConfigMap\*\* `cm-1`/);
  });

  it('groups by namespace when all namespaces are watched, never a cluster-scoped type, and shows one node per configured namespace', async () => {
    const { model, manager } = await setup({ resources: ['configmaps', 'namespaces'] }, (s) => {
      for (const ns of ['kube-system', 'default', 'a']) {
        s.create('namespaces', { metadata: { name: ns } });
        s.create('configmaps', { metadata: { name: `cm-in-${ns}`, namespace: ns } });
      }
      s.create('configmaps', { metadata: { name: 'second', namespace: 'a' } });
    });
    const cms = root(model, 'configmaps');
    assert.deepEqual(outline(model, cms), ['a', '  cm-in-a', '  second', 'default', '  cm-in-default', 'kube-system', '  cm-in-kube-system']);
    assert.deepEqual(model.getChildren(cms).map((n) => model.present(n).description), ['2 configmaps', '1 configmap', '1 configmap'], 'V21 a namespace group counts its objects in words');
    assert.match(model.present(cms).description ?? '', /^watching · 4 · rv \d+$/, 'V21 the resource node counts every namespace');
    const group = model.getChildren(cms)[0] as NamespaceNode;
    assert.deepEqual([group.kind, model.present(group).contextValue, group.id], ['namespace', 'namespace', `${cms.entryId}/a`]);
    assert.deepEqual(names(model, root(model, 'namespaces')), ['a', 'default', 'kube-system'], 'namespaces are cluster-scoped: objects directly');
    assert.ok(model.getChildren(root(model, 'namespaces')).every((n) => n.kind === 'object'));

    // Several configured namespaces: one watch each, shown as namespace nodes with their own state.
    await manager.update({ contexts: [], resources: ['configmaps'], namespaces: ['default', 'a'], kubeconfigPath: kubeconfig });
    await until(
      () => manager.entries().length === 2 && manager.entries().every((e) => e.state.phase === 'watching' && e.state.synced),
      () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase])),
    );
    const again = root(model, 'configmaps');
    assert.equal(again.entryId, undefined, 'two watches behind one resource node');
    assert.equal(again.entryIds.length, 2);
    assert.equal(model.present(again).description, 'watching 2 namespaces · 3');
    const [a, def] = model.getChildren(again) as NamespaceNode[];
    assert.deepEqual([a.namespace, def.namespace], ['a', 'default']);
    assert.ok(a.watch && def.watch);
    assert.equal(model.present(a).contextValue, 'namespace.watch');
    assert.match(model.present(a).description ?? '', /^watching · 2 configmaps · rv \d+$/);
    assert.deepEqual(names(model, a), ['cm-in-a', 'second']);
    assert.deepEqual(names(model, def), ['cm-in-default']);
  });

  it('shows adds, updates and deletes by refreshing only the nodes that changed', async () => {
    const { server, model, clock, refreshes } = await setup({ resources: ['pods'], namespaces: ['default'] }, (s) => s.create('pods', runningPod('a')));
    const pods = root(model, 'pods');
    render(model); // VS Code shows every row once
    const before = model.refreshCounters;
    refreshes.length = 0;

    server.create('pods', podWith('b', { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, state: { waiting: { reason: 'ContainerCreating' } } }] }));
    await until(() => objectNamed(model, pods, 'b') !== undefined, () => names(model, pods).join(','));
    assert.equal(refreshes.length, 0, 'nothing is announced before the throttle window ends');
    clock.advance(100);
    assert.deepEqual(refreshes, [[pods]], 'an add refreshes its parent only');
    const b = objectNamed(model, pods, 'b');
    assert.ok(b);
    assert.deepEqual([model.present(b).icon?.id, model.present(b).icon?.color], ['clock', themeColors.yellow]);

    refreshes.length = 0;
    server.update('pods', runningPod('b'));
    await until(() => (b.object.status as { phase?: string }).phase === 'Running', () => JSON.stringify(b.object.status));
    clock.advance(100);
    assert.deepEqual(refreshes, [[b]], 'an update that changes the row refreshes that row only');
    assert.equal(model.present(b).description?.startsWith('Running · 1/1 · '), true);

    // An update that changes nothing shown refreshes no object row; the resourceVersion on the
    // resource node follows within watchRefreshMs.
    refreshes.length = 0;
    server.update('pods', { ...runningPod('b'), metadata: { name: 'b', namespace: 'default', labels: { touched: 'yes' } } });
    await until(() => b.object.metadata.labels?.touched === 'yes', () => JSON.stringify(b.object.metadata));
    clock.advance(1000);
    assert.deepEqual(refreshes, [[pods]], 'only the resource node, for its new resourceVersion');

    refreshes.length = 0;
    server.delete('pods', 'default', 'b');
    await until(() => objectNamed(model, pods, 'b') === undefined, () => names(model, pods).join(','));
    clock.advance(100);
    assert.deepEqual(refreshes, [[pods]], 'a delete refreshes its parent');
    assert.deepEqual(names(model, pods), ['a']);
    assert.equal(model.refreshCounters.untargetedRefreshes, before.untargetedRefreshes, 'no whole-tree refresh while only objects change');
  });

  it('keeps the id of an object deleted and re-created under its name', async () => {
    const { server, model, clock, refreshes } = await setup({ resources: ['pods'], namespaces: ['default'] }, (s) => s.create('pods', runningPod('web')));
    const pods = root(model, 'pods');
    const old = objectNamed(model, pods, 'web');
    assert.ok(old);
    const oldUid = old.object.metadata.uid;
    render(model);
    refreshes.length = 0;
    server.delete('pods', 'default', 'web');
    server.create('pods', runningPod('web'));
    await until(() => objectNamed(model, pods, 'web')?.object.metadata.uid !== oldUid && objectNamed(model, pods, 'web') !== undefined, () => names(model, pods).join(','));
    clock.advance(1000);
    const fresh = objectNamed(model, pods, 'web');
    assert.ok(fresh);
    assert.equal(fresh.id, old.id, 'same id: VS Code keeps the row and its selection');
    assert.notEqual(fresh, old, 'a new incarnation gets a new node');
    assert.ok(refreshes.every((r) => r !== undefined) && refreshes.some((r) => r?.includes(pods)));
    assert.ok(!refreshes.some((r) => r?.includes(old)), 'the detached node is never named');
  });

  it('coalesces a burst of 500 events into a few targeted refreshes', async () => {
    const { server, model, clock, refreshes } = await setup({ resources: ['configmaps'], namespaces: ['default'] });
    const cms = root(model, 'configmaps');
    render(model);
    const before = model.refreshCounters;
    refreshes.length = 0;
    for (let i = 0; i < 500; i++) server.create('configmaps', { metadata: { name: `burst-${i}`, namespace: 'default' } });
    // Time moves 10 ms per poll on the model's clock while the events arrive, for the first
    // 500 ms of it: however slowly a busy machine delivers them, the clock time (and so the
    // number of refreshes the throttle allows) stays bounded.
    let elapsed = 0;
    await until(
      () => {
        if (elapsed < 500) {
          clock.advance(10);
          elapsed += 10;
        }
        return model.getChildren(cms).length === 500;
      },
      () => `${model.getChildren(cms).length} of 500`,
    );
    clock.advance(2000);
    elapsed += 2000;
    const after = model.refreshCounters;
    const fired = after.refreshes - before.refreshes;
    assert.ok(fired >= 1, 'the burst is shown');
    assert.ok(fired <= Math.ceil(elapsed / 100) + 1, `${fired} refreshes in ${elapsed} ms of clock time: at most 10 per second`);
    assert.ok(fired < 50, `${fired} refreshes for 500 events`);
    assert.equal(after.untargetedRefreshes, before.untargetedRefreshes, 'every refresh targeted');
    assert.ok(refreshes.every((r) => r !== undefined && r.length === 1 && r[0] === cms), 'each names the resource node alone');

    // Without time moving during the burst, it is exactly one refresh.
    const mark = model.refreshCounters.refreshes;
    for (let i = 0; i < 500; i++) server.update('configmaps', { metadata: { name: `burst-${i}`, namespace: 'default' }, data: { i: String(i) } });
    await until(() => (objectNamed(model, cms, 'burst-99')?.object.data as { i?: string } | undefined)?.i === '99' && (objectNamed(model, cms, 'burst-499')?.object.data as { i?: string } | undefined)?.i === '499', () => 'updates');
    clock.advance(1000);
    assert.equal(model.refreshCounters.refreshes - mark, 1);
  });

  it('pages long child lists with a "N more…" node', async () => {
    const { model, clock, refreshes } = await setup({ resources: ['configmaps'], namespaces: ['default'] }, (s) => {
      for (let i = 0; i < 25; i++) s.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' } });
    }, { pageSize: 10 });
    const cms = root(model, 'configmaps');
    let children = model.getChildren(cms);
    assert.equal(children.length, 11);
    const more = children[10];
    assert.equal(more.kind, 'more');
    assert.deepEqual([model.present(more).label, model.present(more).contextValue], ['15 more…', 'more']);
    assert.deepEqual(children.slice(0, 3).map((n) => model.present(n).label), ['cm-0', 'cm-1', 'cm-10']);
    refreshes.length = 0;
    model.loadMore(more);
    clock.advance(100);
    assert.deepEqual(refreshes, [[cms]]);
    children = model.getChildren(cms);
    assert.equal(children.length, 21);
    assert.equal(children[20], more, 'the same "more" node, so VS Code can refresh it');
    assert.equal(model.present(more).label, '5 more…');
    model.loadMore(more);
    assert.equal(model.getChildren(cms).length, 25);
    assert.ok(model.getChildren(cms).every((n) => n.kind === 'object'));
  });

  it('shows status icons for pods in several phases', async () => {
    const { model } = await setup({ resources: ['pods'], namespaces: ['default'] }, (s) => {
      s.create('pods', runningPod('running'));
      s.create('pods', podWith('creating', { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, state: { waiting: { reason: 'ContainerCreating' } } }] }));
      s.create('pods', podWith('crashing', { phase: 'Running', containerStatuses: [{ name: 'app', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } }] }));
      s.create('pods', podWith('done', { phase: 'Succeeded', containerStatuses: [{ name: 'app', ready: false, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }));
      s.create('pods', podWith('failed', { phase: 'Failed', containerStatuses: [{ name: 'app', ready: false, state: { terminated: { reason: 'Error', exitCode: 2 } } }] }));
    });
    const pods = root(model, 'pods');
    const row = (name: string) => {
      const node = objectNamed(model, pods, name);
      assert.ok(node, name);
      const p = model.present(node);
      const fields = p.description?.split(' · ') ?? [];
      return [p.icon?.id, p.icon?.color, (fields.length > 1 ? fields.slice(0, -1) : fields).join(' · ')];
    };
    assert.deepEqual(row('running'), ['pass', themeColors.green, 'Running · 1/1']);
    // V27: a long status beside the title: the row shows the status alone (the rest is in the tooltip).
    assert.deepEqual(row('creating'), ['clock', themeColors.yellow, 'ContainerCreating']);
    assert.deepEqual(row('crashing'), ['error', themeColors.red, 'CrashLoopBackOff']);
    assert.match(model.tooltip(objectNamed(model, pods, 'crashing')!) ?? '', /CrashLoopBackOff +4/);
    assert.deepEqual(row('done'), ['pass', themeColors.grey, 'Completed · 0/1']);
    assert.deepEqual(row('failed'), ['error', themeColors.red, 'Error · 0/1']);
  });

  it('shows why a watch has no objects: an unknown resource type, an unreadable kubeconfig', async () => {
    const { model, manager } = await setup({ resources: ['configmaps', 'nosuchthings'], namespaces: ['default'] });
    await until(() => manager.entries().some((e) => e.errorKind === 'unknown-resource'), () => JSON.stringify(manager.entries().map((e) => [e.label, e.errorKind])));
    const bad = root(model, 'nosuchthings');
    const p = model.present(bad);
    assert.deepEqual([p.description, p.contextValue, p.icon?.color], ['unknown resource type', 'resource.error', themeColors.red]);
    const [message] = model.getChildren(bad);
    assert.equal(message.kind, 'message');
    assert.match(model.present(message).label, /nosuchthings/);
    const empty = model.getChildren(root(model, 'configmaps'));
    assert.deepEqual(empty.map((n) => [n.kind, model.present(n).label]), [['message', 'no objects']]);

    const broken = new WatchManager({ contexts: [], resources: ['pods'], namespaces: [], kubeconfigPath: path.join(dir, 'missing') }, { clock: new ManualClock() });
    cleanups.push(() => broken.stop());
    const brokenModel = new WatchTreeModel(broken, { clock: new ManualClock() });
    cleanups.push(() => brokenModel.dispose());
    await broken.start();
    const [node] = brokenModel.getChildren();
    assert.ok(node, 'one resource node, with the problem');
    assert.match(brokenModel.present(node).description ?? '', /^kubeconfig: /);
    assert.equal(brokenModel.present(node).contextValue, 'resource.error');
  });

  it('refreshes a resource node, and only it, when its watch changes state; the whole tree only when resource nodes come or go', async () => {
    const { server, manager, model, clock, refreshes } = await setup({ resources: ['configmaps', 'pods'], namespaces: ['default'] }, (s) => s.create('pods', runningPod('a')));
    const cms = root(model, 'configmaps');
    const pods = root(model, 'pods');
    render(model);
    refreshes.length = 0;
    await server.goDown();
    await until(() => !model.present(cms).description?.startsWith('watching'), () => model.present(cms).description ?? '');
    clock.advance(100);
    assert.ok(refreshes.length > 0 && refreshes.every((r) => r !== undefined && r.every((n) => n === cms || n === pods)), 'targeted at the resource nodes');
    assert.notEqual(model.present(cms).icon?.id, 'eye');
    await server.comeUp();
    await until(() => manager.entries().every((e) => e.state.phase === 'watching'), () => model.present(cms).description ?? '');
    clock.advance(100);
    assert.match(model.present(cms).description ?? '', /^watching/);
    assert.ok(refreshes.every((r) => r !== undefined), 'no whole-tree refresh for state changes');

    refreshes.length = 0;
    await manager.update({ contexts: [], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: kubeconfig });
    clock.advance(100);
    assert.ok(refreshes.some((r) => r === undefined), 'a resource node went away: the whole tree');
    assert.deepEqual(model.getChildren(), [cms]);
    assert.deepEqual(model.getChildren(pods), [], 'the retired node is detached');
  });

  it('V01 draws the objects of a watch down for more than a second stale, ticking only its subtree, and live again the moment it watches', async () => {
    const { server, manager, model, clock, refreshes } = await setup({ resources: ['configmaps', 'pods'], namespaces: ['default'] }, (s) => {
      s.create('pods', runningPod('a'));
      s.create('configmaps', { metadata: { name: 'cm', namespace: 'default' } });
    });
    const pods = root(model, 'pods');
    const cms = root(model, 'configmaps');
    const row = () => model.present(objectNamed(model, pods, 'a') as ObjectNode);
    render(model);
    const live = row();
    assert.doesNotMatch(live.description ?? '', /stale/);
    await server.goDown();
    await until(() => manager.entries().every((e) => e.state.phase !== 'watching'), () => JSON.stringify(manager.entries().map((e) => e.state.phase)));
    clock.advance(500);
    assert.doesNotMatch(row().description ?? '', /stale/, 'within the grace');
    refreshes.length = 0;
    clock.advance(1000);
    assert.match(row().description ?? '', /^stale 1 s · (unreachable|reconnecting) · Running · 1\/1/);
    assert.equal(row().icon?.id, live.icon?.id, 'the same icon');
    assert.equal(row().icon?.color, themeColors.grey, 'muted');
    assert.match(model.tooltip(objectNamed(model, pods, 'a') as ObjectNode) ?? '', /^\$\(history\) \*\*Stale: not live since .* the watch is (unreachable|reconnecting)/);
    assert.ok(model.stalenessOf(pods.entryId as string));
    assert.ok(refreshes.length > 0 && refreshes.every((r) => r !== undefined && r.every((n) => n === pods || n === cms)), 'the stale tick names the watch nodes only');
    clock.advance(3000);
    assert.match(row().description ?? '', /^stale 4 s · /, 'the stale time ticks');
    await server.comeUp();
    await until(() => manager.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(manager.entries().map((e) => e.state.phase)));
    assert.doesNotMatch(row().description ?? '', /stale/, 'live again at once');
    assert.equal(model.stalenessOf(pods.entryId as string), undefined);
    refreshes.length = 0;
    clock.advance(5000);
    assert.ok(refreshes.every((r) => r !== undefined && r.every((n) => n.kind !== 'object')), 'no stale tick once live');
  });

  it('V01 one re-render a second while down, however many watches: their stale ticks and the retry countdown share one cadence', async () => {
    // Namespaced watches: the countdown refreshes the resource node, the stale tick each
    // namespace's, and each watch has its own outage start (the manager's clock runs 50 times
    // faster: a millisecond apart is 50 ms). Each on its own cadence, the stale rows would
    // re-render several times a second, and VS Code closes a row's hover whenever it re-renders.
    const { server, manager, model, clock } = await setup({ resources: ['pods'], namespaces: ['default', 'shop'] }, (s) => {
      s.create('pods', runningPod('a'));
      s.create('pods', runningPod('b', 'shop'));
    });
    const pods = root(model, 'pods');
    const shop = model.getChildren(pods).find((n) => model.present(n).label === 'shop');
    assert.ok(shop);
    const row = () => model.present(model.getChildren(shop).find((n) => n.kind === 'object') as ObjectNode);
    render(model);
    await server.goDown();
    await until(
      () => manager.entries().every((e) => e.state.phase !== 'watching' && (e.state.nextRetryAt ?? 0) > clock.now() + 10_000),
      () => JSON.stringify(manager.entries().map((e) => [e.state.phase, e.state.nextRetryAt, clock.now()])),
    );
    clock.advance(1500);
    assert.match(row().description ?? '', /^stale 1 s · /);
    assert.match(model.present(pods).description ?? '', /in \d+ s/, 'the resource node counts down');
    const times: number[] = [];
    const sub = model.onDidChange(() => times.push(clock.now()));
    const start = clock.now();
    for (let i = 0; i < 100; i++) clock.advance(50);
    sub.dispose();
    assert.match(row().description ?? '', /^stale 6 s · /, 'the stale time still ticks each second');
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.ok(times.length >= 4 && times.length <= 6, `refreshes in 5 s: ${times.map((t) => t - start).join(', ')}`);
    assert.ok(gaps.every((g) => g >= 900), `at least 900 ms between refreshes: ${gaps.join(', ')}`);
  });

  it('V01 a stale watch\'s retries wait for its stale tick: its rows re-render once a second, not again between two ticks', async () => {
    // Each retry of a down watch changes its entry (connecting, failed again, the next retry).
    // A refresh of its node then re-renders its whole subtree, the stale rows included, between
    // two stale ticks: the browser showed a stale pod row re-rendered twice in some seconds, and
    // VS Code closes a row's hover whenever the row re-renders.
    const { server, manager, model, clock } = await setup({ resources: ['pods'], namespaces: [] }, (s) => {
      s.create('pods', runningPod('a'));
    });
    const pods = root(model, 'pods');
    render(model);
    await server.goDown();
    await until(() => manager.entries().every((e) => e.state.phase !== 'watching'), () => JSON.stringify(manager.entries().map((e) => e.state.phase)));
    clock.advance(1500);
    assert.ok(model.stalenessOf(pods.entryId as string), 'stale');
    clock.advance(0); // what the outage's start asked for is drawn
    let retries = 0;
    const retrySub = manager.onDidChangeEntries((c) => (retries += c.changed.length));
    const times: number[] = [];
    const start = clock.now();
    const sub = model.onDidChange(() => times.push(clock.now()));
    // Between two stale ticks (the model's clock stands nearly still), the manager retries on its own clock.
    for (let i = 0; i < 3; i++) {
      const seen = retries;
      await until(() => retries > seen, () => `a retry of the down watch (${retries} so far): ${JSON.stringify(manager.entries().map((e) => e.state))}`);
      clock.advance(10);
    }
    assert.deepEqual(times.map((t) => t - start), [], 'no refresh between two stale ticks, whatever the retries');
    clock.advance(1000);
    retrySub.dispose();
    sub.dispose();
    assert.ok(times.length >= 1 && times.length <= 2, `the stale tick draws them: ${times.map((t) => t - start).join(', ')}`);
  });

  it('leaves no timer or listener behind once disposed', async () => {
    const { server, model, clock, refreshes, manager } = await setup({ resources: ['configmaps'], namespaces: ['default'] });
    server.create('configmaps', { metadata: { name: 'late', namespace: 'default' } });
    await until(() => model.getChildren(root(model, 'configmaps')).some((n) => n.kind === 'object'), () => 'the add');
    model.dispose();
    assert.equal(clock.pendingTimers, 0);
    refreshes.length = 0;
    server.create('configmaps', { metadata: { name: 'later', namespace: 'default' } });
    await until(() => manager.entries()[0].informer?.store.size === 2, () => 'the second add');
    clock.advance(1000);
    assert.deepEqual(refreshes, []);
  });
});
