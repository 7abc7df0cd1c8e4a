import assert from 'node:assert/strict';
import type { WatchManager } from '../../src/manager';
import { StatusBarFeed, type StatusBarModel } from '../../src/ui/status';
import { WatchTreeModel } from '../../src/ui/tree/watch-tree-model';
import type { TreeNode } from '../../src/ui/tree/tree-node';
import { ManualClock, UiRig, until } from './lifecycle-rig';

const RESOURCES = ['configmaps', 'secrets', 'services', 'pods', 'events'];

describe('status bar feed, with the tree, against the local API server', function () {
  this.timeout(60_000);
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  /**
   * A real manager over the local server; the tree model and the status bar feed on one manual
   * clock, wired as the extension wires them. Records what each shows: the status bar's drawn
   * model, and the tree's resource rows as VS Code renders them after each refresh.
   */
  async function setup(options: { withTree: boolean }) {
    const server = await rig.server({ token: 'token-a' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx-a', token: 'token-a' });
    server.create('configmaps', { metadata: { name: 'cm', namespace: 'default' }, data: { n: '0' } });
    const manager = rig.manager({ resources: RESOURCES, namespaces: ['default'] });
    const clock = new ManualClock(Date.now());
    const model = new WatchTreeModel(manager, { clock });
    const drawn: StatusBarModel[] = [];
    const feed = new StatusBarFeed(manager, clock, (m) => drawn.push(m), options.withTree ? { viewChanges: (l) => model.onDidChange(l) } : {});
    /** The tree's rows as last rendered (VS Code asks for the items right after a refresh). */
    let treeRows = new Map<TreeNode, string>();
    const renderTree = () => (treeRows = new Map(model.getChildren().map((n) => [n, model.present(n).description ?? ''])));
    model.onDidChange(renderTree);
    renderTree();
    await manager.start();
    await until(() => manager.entries().every((e) => e.state.phase === 'watching' && e.state.synced), () => JSON.stringify(manager.entries().map((e) => e.state.phase)));
    clock.advance(1000);
    return { server, manager, clock, model, feed, drawn, treeWatching: () => [...treeRows.values()].filter((d) => d.startsWith('watching')).length, dispose: () => (feed.dispose(), model.dispose()) };
  }

  /** Moves the clock in 50 ms steps until `done`, calling `sample` after each step (the caller samples each entries change too). */
  async function drive(manager: WatchManager, clock: ManualClock, done: () => boolean, sample: () => void): Promise<void> {
    await until(
      () => {
        clock.advance(50);
        sample();
        return done();
      },
      () => JSON.stringify(manager.entries().map((e) => e.state.phase)),
      30_000,
    );
  }

  it('V13 the status bar and the tree never disagree on how many watch, through an outage and the recovery', async () => {
    const { server, manager, clock, drawn, treeWatching, dispose } = await setup({ withTree: true });
    const samples: [number, number][] = [];
    const sample = () => samples.push([drawn[drawn.length - 1].watching, treeWatching()]);
    const sampling = manager.onDidChangeEntries(sample);
    await server.goDown();
    await drive(manager, clock, () => manager.entries().every((e) => e.state.phase !== 'watching'), sample);
    await server.comeUp();
    await drive(manager, clock, () => manager.entries().every((e) => e.state.phase === 'watching') && drawn[drawn.length - 1].watching === RESOURCES.length && treeWatching() === RESOURCES.length, sample);
    sampling.dispose();
    dispose();
    const disagreements = samples.filter(([bar, tree]) => bar !== tree);
    assert.ok(samples.some(([bar]) => bar === 0), 'the outage was seen');
    assert.deepEqual(disagreements, [], `sampled ${samples.length} times`);
  });

  it('V13 (the check can fail) drawing on every entries change, ahead of the tree, is caught disagreeing', async () => {
    const { server, manager, clock, drawn, treeWatching, dispose } = await setup({ withTree: false });
    const samples: [number, number][] = [];
    const sample = () => samples.push([drawn[drawn.length - 1].watching, treeWatching()]);
    const sampling = manager.onDidChangeEntries(sample);
    await server.goDown();
    await drive(manager, clock, () => manager.entries().every((e) => e.state.phase !== 'watching'), sample);
    sampling.dispose();
    dispose();
    assert.ok(samples.some(([bar, tree]) => bar !== tree), `${JSON.stringify(samples)}: the old wiring lets the status bar run ahead of the tree`);
  });

  it('V05 the tooltip resourceVersions follow the tree while all is healthy, at most one tooltip draw a second', async () => {
    const { server, manager, clock, model, drawn, dispose } = await setup({ withTree: true });
    const configmaps = manager.entries().find((e) => e.resource === 'configmaps');
    assert.ok(configmaps);
    const before = drawn.length;
    const start = clock.now();
    for (let i = 1; i <= 30; i++) {
      server.update('configmaps', { metadata: { name: 'cm', namespace: 'default' }, data: { n: String(i) } });
      const rv = server.resourceVersion;
      await until(() => manager.entry(configmaps.id)?.stats.resourceVersion === rv, () => `rv ${rv}`);
      clock.advance(100);
    }
    clock.advance(2000);
    const rv = manager.entry(configmaps.id)?.stats.resourceVersion ?? '';
    const last = drawn[drawn.length - 1];
    assert.match(last.tooltip, new RegExp(`\\| \\$\\(eye\\) ctx-a/configmaps in default \\| watching \\| ${rv} \\|`), 'the tooltip shows the newest resourceVersion');
    const node = model.getChildren().find((n) => model.present(n).label === 'configmaps');
    assert.ok(node);
    assert.equal(model.present(node).description?.replace(/ · \d+ /, ' '), `watching · rv ${rv}`, 'the tree shows the same');
    const draws = drawn.length - before;
    const seconds = (clock.now() - start) / 1000;
    assert.ok(draws >= 2, `the tooltip followed (${draws} draws)`);
    assert.ok(draws <= Math.ceil(seconds) + 1, `throttled: ${draws} draws in ${seconds} s of the clock`);
    dispose();
  });
});
