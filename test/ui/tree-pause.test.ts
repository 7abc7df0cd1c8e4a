import assert from 'node:assert/strict';
import { WatchTreeModel } from '../../src/ui/tree/watch-tree-model';
import type { TreeNode } from '../../src/ui/tree/tree-node';
import { themeColors } from '../../src/ui/tree/tone';
import { ManualClock, UiRig, until } from './lifecycle-rig';

/**
 * Pause freezes the tree and draws it stale (the README's promise), instead of emptying it; resume
 * keeps the rows until each watch has listed again, then drops what the list no longer has.
 * A real WatchManager against the local API server, stopped and started as the Pause and Resume
 * commands do (the model told first on pause, last on resume).
 */
describe('tree: pause freezes and draws stale', () => {
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  function render(model: WatchTreeModel, node?: TreeNode, depth = 0): string[] {
    return model.getChildren(node).flatMap((child) => {
      const p = model.present(child);
      return [`${'  '.repeat(depth)}${p.label}${p.description ? ` · ${p.description}` : ''}`, ...render(model, child, depth + 1)];
    });
  }

  it('V28 pause keeps every row, "paused" on the watch and "stale N s · paused" on its objects; resume drops only what is gone', async () => {
    const server = await rig.server({ token: 't' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 't' });
    for (const name of ['a', 'b', 'c']) server.create('configmaps', { metadata: { name, namespace: 'default' } });
    const clock = new ManualClock();
    const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'] }, clock);
    const model = new WatchTreeModel(m, { clock, throttleMs: 0 });
    await m.start();
    await until(() => m.entries()[0]?.state.phase === 'watching' && render(model).length === 4, () => render(model).join('\n'));
    const before = render(model);
    assert.match(before[0], /^configmaps · watching · 3 · rv \d+$/);

    model.setPaused(true);
    await m.stop();
    assert.equal(m.entries().length, 0, 'the manager stopped every watch');
    clock.advance(5_000);
    const paused = render(model);
    assert.equal(paused.length, 4, `the tree keeps its rows:\n${paused.join('\n')}`);
    assert.equal(paused[0], 'configmaps · paused · 3', 'the label names the type: the count bare where room is short');
    for (const row of paused.slice(1)) assert.match(row, /^ {2}[abc] · stale 5 s · paused/);
    const objectRow = model.getChildren(model.getChildren()[0])[0];
    assert.equal(model.present(objectRow).icon?.color, themeColors.grey, 'drawn greyed');
    assert.match(model.tooltip(objectRow) ?? '', /paused/);

    // Gone while paused: 'b'. Resume: the rows stay until the list, then 'b' goes.
    server.delete('configmaps', 'default', 'b');
    server.create('configmaps', { metadata: { name: 'd', namespace: 'default' } });
    await m.start();
    model.setPaused(false);
    await until(() => render(model).join('\n').includes('  d') && !render(model).join('\n').includes('  b'), () => render(model).join('\n'));
    await until(() => /watching/.test(render(model)[0]), () => render(model).join('\n'));
    assert.deepEqual(
      render(model).slice(1).map((r) => r.trim().split(' ')[0]),
      ['a', 'c', 'd'],
    );
    model.dispose();
  });

  it('V28 (the check can fail) without the freeze, the manager stopping empties the tree', async () => {
    const server = await rig.server({ token: 't' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 't' });
    server.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
    const clock = new ManualClock();
    const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'] }, clock);
    const model = new WatchTreeModel(m, { clock, throttleMs: 0 });
    await m.start();
    await until(() => render(model).length === 2, () => render(model).join('\n'));
    await m.stop();
    assert.deepEqual(render(model), []);
    model.dispose();
  });
});
