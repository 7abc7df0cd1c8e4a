import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, Emitter, seededRandom, systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { DrawnRows, ResourcesTree, rowLook, WatchTreeModel, type RowDecorationChange, type RowDecorator, type ViewNode } from '../../src/ui/tree';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

/** A tree of plain nodes whose looks and children a test sets. */
class Row {
  constructor(
    readonly id: string,
    public look = id,
    public children: Row[] = [],
  ) {}
}

/** Draws `rows` as VS Code would: each row's item, and the children of `expanded` ones. */
function draw(drawn: DrawnRows<Row>, rows: readonly Row[], expanded: ReadonlySet<string>): void {
  for (const row of rows) {
    drawn.drew(row, row.look);
    if (!expanded.has(row.id)) continue;
    drawn.listed(row, row.children);
    draw(drawn, row.children, expanded);
  }
}

describe('a refresh names only the rows that would be drawn differently (menu commands keep their row)', () => {
  const tree = () => {
    const a = new Row('pods/shop/a');
    const b = new Row('pods/shop/b');
    const shop = new Row('pods/shop', 'shop', [a, b]);
    const pods = new Row('pods', 'pods · 2', [shop]);
    const drawn = new DrawnRows<Row>({ lookOf: (r) => r.look, childrenOf: (r) => r.children });
    draw(drawn, [pods], new Set(['pods', 'pods/shop']));
    return { a, b, shop, pods, drawn };
  };

  it('a parent that looks the same with the same children is not named; its changed rows are', () => {
    const { a, pods, drawn } = tree();
    assert.deepEqual(drawn.narrow([pods]), [], 'nothing changed: nothing to refresh');
    a.look = 'a · CrashLoopBackOff';
    assert.deepEqual(
      drawn.narrow([pods]).map((r) => r.id),
      ['pods/shop/a'],
    );
  });

  it('a parent whose own row changed is named (its children come again with it)', () => {
    const { a, pods, drawn } = tree();
    pods.look = 'pods · 3';
    a.look = 'changed too';
    assert.deepEqual(
      drawn.narrow([pods]).map((r) => r.id),
      ['pods'],
    );
  });

  it('a parent whose children came, went or moved is named', () => {
    const { a, b, shop, pods, drawn } = tree();
    shop.children = [b, a];
    assert.deepEqual(
      drawn.narrow([pods]).map((r) => r.id),
      ['pods/shop'],
    );
    shop.children = [a];
    assert.deepEqual(
      drawn.narrow([pods]).map((r) => r.id),
      ['pods/shop'],
    );
  });

  it('a child that is a new node object under a drawn id is reached through its parent, which is named', () => {
    const { a, shop, pods, drawn } = tree();
    shop.children = [a, new Row('pods/shop/b', 'b · new object')];
    assert.deepEqual(
      drawn.narrow([pods]).map((r) => r.id),
      ['pods/shop'],
    );
  });

  it('rows never drawn are named as they come; nothing under a row whose children were never asked for', () => {
    const { a, drawn } = tree();
    const unseen = new Row('deployments', 'deployments', [new Row('x')]);
    assert.deepEqual(drawn.narrow([unseen]), [unseen]);
    const collapsed = new Row('services', 'services', [new Row('svc', 'svc')]);
    drawn.drew(collapsed, collapsed.look);
    collapsed.children[0].look = 'svc changed';
    assert.deepEqual(drawn.narrow([collapsed]), [], 'its children are asked for when it is expanded');
    assert.deepEqual(drawn.narrow([a, a]), [], 'named twice, unchanged: once, not at all');
  });
});

describe('the Resources view refreshes only the rows an answer changed', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('an access answer that changes the actions of a pod row names that row, not the pods row or the namespace above it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-drawn-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const server = await FakeApiServer.start({ timeScale: 20, token: 't' });
    cleanups.push(() => server.close());
    const pod = (name: string) => ({
      metadata: { namespace: 'shop', name },
      spec: { containers: [{ name: 'main', image: 'nginx' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'main', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] },
    });
    for (const name of ['a', 'b', 'c']) server.create('pods', pod(name));
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'ctx', token: 't' });
    const manager = new WatchManager({ contexts: [], resources: ['pods'], namespaces: [], kubeconfigPath: kubeconfig }, { clock: acceleratedClock(50, seededRandom(5)), informerOptions: { requestTimeoutMs: 600_000 } });
    cleanups.push(() => manager.stop());
    // The actions a row offers, as the access reviews answer them: a shell on b once it is allowed.
    const allowed = new Set<string>();
    const decorations = new Emitter<RowDecorationChange>();
    const decorator: RowDecorator = {
      decorate: (row, p) => ({ ...p, contextValue: `${p.contextValue}${allowed.has(row.name) ? '.shell' : ''}` }),
      tooltip: () => undefined,
      onDidChange: (listener) => decorations.on(listener),
    };
    const model = new WatchTreeModel(manager, { clock: systemClock, throttleMs: 10, decorator });
    const view = new ResourcesTree(model, manager, systemClock);
    cleanups.push(() => view.dispose());
    cleanups.push(() => model.dispose());
    await manager.start();
    await until(() => manager.entries().every((e) => e.informer && e.state.synced), () => JSON.stringify(manager.entries().map((e) => e.state.phase)));
    const pods = view.getChildren().find((n) => n.kind === 'resource');
    assert.ok(pods);
    await until(() => view.getChildren(pods).length > 0 && /^watching/.test(view.present(pods).description ?? ''), () => `the pods row watching with its rows: ${view.present(pods).description}`);

    const lookOf = (n: ViewNode) => rowLook(n, view.present(n));
    const drawn = new DrawnRows<ViewNode>({ lookOf, childrenOf: (n) => view.getChildren(n) });
    /** What VS Code does with every row expanded: draws each row, and lists the children of each parent. */
    const drawAll = (nodes: readonly ViewNode[]) => {
      for (const n of nodes) {
        drawn.drew(n, lookOf(n));
        const children = view.getChildren(n);
        if (children.length === 0) continue;
        drawn.listed(n, children);
        drawAll(children);
      }
    };
    drawAll(view.getChildren());
    const named: string[][] = [];
    // The watch's rows only: All resources reads discovery meanwhile, on its own.
    const watchRow = (n: ViewNode) => n.kind === 'resource' || n.kind === 'namespace' || n.kind === 'object';
    const sub = view.onDidChange((nodes) => {
      const rows = nodes?.filter(watchRow);
      if (!rows || rows.length === 0) return;
      const refreshed = drawn.narrow(rows);
      named.push(refreshed.map((n) => n.id));
      drawAll(refreshed); // VS Code draws them again

    });
    cleanups.push(() => sub.dispose());

    // Every row of the watch may read differently: the model asks for the watch's row, which reads the same.
    allowed.add('b');
    decorations.fire({ entryIds: manager.entries().map((e) => e.id) });
    await until(() => named.length > 0, () => 'a refresh');
    const shop = view.getChildren(pods)[0];
    const rowOf = (name: string) => view.getChildren(shop).find((n) => view.present(n).label === name);
    const b = rowOf('b');
    assert.ok(b);
    // Rows of young pods read differently each second (their age): they may come too, never their parents.
    assert.ok(named[0].includes(b.id), JSON.stringify(named));
    assert.ok(!named.flat().includes(pods.id) && !named.flat().includes(shop.id), `neither the pods row nor shop is redrawn: ${JSON.stringify(named)}`);

    // Nothing reads differently but the ages: the same.
    named.length = 0;
    decorations.fire({ entryIds: manager.entries().map((e) => e.id) });
    await until(() => named.length > 0, () => 'a refresh');
    assert.ok(!named.flat().includes(pods.id) && !named.flat().includes(shop.id), JSON.stringify(named));

    // An ephemeral container of c starts: the row reads the same, its tooltip does not. VS Code
    // asks for a tooltip again only for a row it redraws: the row is named.
    named.length = 0;
    const c = server.get('pods', 'shop', 'c')!;
    const spec = { ...(c.spec as object), ephemeralContainers: [{ name: 'debugger-abcde', image: 'busybox', targetContainerName: 'main' }] };
    const waiting = [{ name: 'debugger-abcde', image: 'busybox', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }];
    server.update('pods', { ...c, spec, status: { ...(c.status as object), ephemeralContainerStatuses: waiting } });
    await until(() => named.flat().includes(rowOf('c')?.id ?? '-'), () => `the row of c named: ${JSON.stringify(named)}`);
    named.length = 0;
    const c2 = server.get('pods', 'shop', 'c')!;
    const running = [{ ...waiting[0], state: { running: { startedAt: '2026-11-28T08:00:00Z' } } }];
    server.update('pods', { ...c2, status: { ...(c2.status as object), ephemeralContainerStatuses: running } });
    await until(() => named.flat().includes(rowOf('c')?.id ?? '-'), () => `the row of c named again once it runs: ${JSON.stringify(named)}`);
    // Named for what its tooltip says, whatever its description does (a young pod's age ticks too).
    const cRow = rowOf('c')!;
    const look = JSON.parse(rowLook(cRow, view.present(cRow))) as unknown[];
    assert.match(String(look[5]), /ephemeral container debugger-abcde \(image busybox, target main\): Running since/);
  });
});
