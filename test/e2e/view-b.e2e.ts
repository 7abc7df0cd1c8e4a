/**
 * Issue 23, parts 2 to 6, as a person sees them in code-server through Chromium: a user whose
 * RBAC allows only some namespaces gets those and no red (V18), a type forbidden everywhere is
 * one quiet row (V19), All resources adds and removes a CRD's watch (V20), Find Object reveals a
 * pod in a collapsed namespace (V22), the Events warnings-only filter (V23), a Deployment's
 * ReplicaSet and its Pods (V24), a Service's Pods (V25), and two contexts side by side (V26).
 *
 * Its own code-server and two simulated clusters (`simulated`, and `staging` for V26, both in
 * KUBECONFIG); the packaged .vsix. Run with
 * `npx mocha --import=tsx --timeout 300000 test/e2e/view-b.e2e.ts` after `npm run package`.
 * In this order: V18 and V19 run as the namespace-limited user, then the user is given everything
 * and the watches restarted. Nothing asserts on time: every check polls the screen with a generous
 * bound. Screenshots in test-results/e2e/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUBE_WATCH, WorkbenchUi } from './pages';
import { CATALOG } from './pages/sidebar-tree';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import type { PolicyRule } from '../support/apiserver/access-policy';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const WATCHED = [...DEFAULT_WATCHED, 'secrets'];
/** A user of a shared cluster: everything but Secrets in payments and shop, and the namespaces' names. */
const TEAM_USER: PolicyRule[] = [
  {
    verbs: ['get', 'list', 'watch'],
    apiGroups: ['', 'apps', 'discovery.k8s.io', 'example.com', 'events.k8s.io'],
    resources: ['pods', 'services', 'configmaps', 'events', 'deployments', 'replicasets', 'endpointslices', 'widgets'],
    namespaces: ['payments', 'shop'],
    binding: 'team',
  },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'], binding: 'namespace-lister' },
];
const COUNTS = /^(\d+)\/(\d+)$/;

describe('Kube Watch in the browser: scope from permissions, All resources, Find, ownership, contexts (V18 to V26)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let staging: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const allLive = (what: string, timeoutMs = 120_000) =>
    ui.statusBar.waitForKubeWatch(what, (s) => {
      const m = COUNTS.exec(s.text);
      return m !== null && m[1] === m[2] && s.icon === 'eye' && !s.spinning && s.background === 'none';
    }, { timeoutMs });

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    const log = (name: string) => (m: string) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[${name}] ${m}\n`);
    cluster = await SimulatedCluster.start({ log: log('simulated') });
    staging = await SimulatedCluster.start({ context: 'staging', log: log('staging') });
    cluster.server.access.setRules(TEAM_USER);
    bench = await Workbench.start({
      vsix: defaultVsixPath(),
      env: { KUBECONFIG: [cluster.kubeconfigPath, staging.kubeconfigPath].join(path.delimiter) },
      settings: { 'kubeWatch.resources': WATCHED },
    });
    ui = new WorkbenchUi(bench.page);
    await ui.activityBar.waitForItem(KUBE_WATCH.container);
    await ui.activityBar.open(KUBE_WATCH.container);
    await ui.tree.waitUntilVisible();
    await ui.tree.resizeSideBar(560);
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
    await staging?.stop();
  });

  it('V18 a user who may list only payments and shop gets those namespaces, said above the tree, and no red', async () => {
    await poll('the scope line', () => ui.tree.message(), (m) => m === 'Showing simulated · payments, shop: the namespaces you may list', { timeoutMs: 120_000 });
    // Five types in two namespaces each; Secrets are not allowed and not counted.
    const status = await allLive('10/10, no background');
    assert.equal(status.text, '10/10');
    await ui.tree.expand(['pods']);
    const namespaces = await poll('the namespaces of pods', () => ui.tree.children(['pods']), (rs) => rs.length === 2 && rs.every((r) => /^watching · \d+ pods? · rv \d+$/.test(r.description)));
    assert.deepEqual(namespaces.map((r) => r.label), ['payments', 'shop']);
    assert.equal(cluster.server.requests.filter((r) => r.status === 403).length, 0, 'no request was refused');
    await shoot('V18-namespace-user');
    await ui.tree.collapse(['pods']);
  });

  it('V19 Secrets, forbidden everywhere, are one quiet row that never turns the status bar red', async () => {
    const row = await ui.tree.waitForRow(['secrets'], (r) => r.description === 'not allowed for you');
    assert.equal(row.expanded, undefined, 'nothing under it: no stale rows');
    assert.equal(row.icon, 'circle-slash');
    // Past the 30 s after which a refusal turns the status bar red: still green, still 10/10.
    await new Promise((r) => setTimeout(r, 32_000));
    const status = await ui.statusBar.readKubeWatch();
    assert.equal(status.background, 'none');
    assert.equal(status.text, '10/10');
    assert.equal((await ui.tree.row(['secrets']))?.description, 'not allowed for you');
    await shoot('V19-not-allowed-quiet');
    // Everything allowed from now on: Restart decides again where each type is watched.
    cluster.server.access.allowAll();
    await ui.quickPick.runCommand('Kube Watch: Restart All Watches');
    await poll('the scope line', () => ui.tree.message(), (m) => m === 'Showing simulated · all namespaces', { timeoutMs: 120_000 });
    await allLive('6/6');
    await ui.tree.waitForRow(['secrets'], (r) => /^watching/.test(r.description));
  });

  it('V20 All resources lists the CRD under its API group; a click watches it, Stop Watching removes it', async () => {
    await ui.tree.collapseAll();
    await ui.tree.expand([CATALOG, 'example.com']);
    const type = await ui.tree.waitForRow([CATALOG, 'example.com', 'widgets.example.com'], (r) => r.description === 'Widget · v1');
    assert.equal(type.icon, 'symbol-class');
    await ui.tree.click([CATALOG, 'example.com', 'widgets.example.com']);
    await ui.tree.waitForRow(['widgets.example.com'], (r) => /^watching · \d+(?: widgets)? · rv \d+$/.test(r.description), { timeoutMs: 90_000 });
    // Watched, and (once its watch has listed) how many objects it holds: the row drawn for the last time before the click.
    await ui.tree.waitForRow([CATALOG, 'example.com', 'widgets.example.com'], (r) => /^Widget · v1 · watched · \d+ widgets?$/.test(r.description) && r.icon === 'eye', { timeoutMs: 60_000 });
    await shoot('V20-all-resources-watch-crd');
    // A click that lands while the row re-renders reaches the row, not its button: clicked again until the watch goes.
    await poll(
      'the watch stopped from the row\'s Stop Watching',
      async () => {
        const rows = await ui.tree.children([]);
        if (!rows.some((r) => r.label === 'widgets.example.com')) return true;
        await ui.tree.clickInlineAction([CATALOG, 'example.com', 'widgets.example.com'], 'Stop Watching').catch(() => undefined);
        return false;
      },
      (gone) => gone,
      { timeoutMs: 60_000, intervalMs: 3_000 },
    );
    await ui.tree.waitForRow([CATALOG, 'example.com', 'widgets.example.com'], (r) => r.description === 'Widget · v1');
    await ui.tree.collapse([CATALOG]);
  });

  it('V22 Find Object reveals a pod in a collapsed namespace', async () => {
    await ui.tree.collapseAll();
    await ui.quickPick.runCommand('Kube Watch: Find Object…');
    await ui.quickPick.waitForPicker('Kube Watch: Find Object');
    await ui.quickPick.input.fill('postgres');
    const items = await poll('postgres-0 among the objects', () => ui.quickPick.items(), (is) => is.some((i) => i.label === 'postgres-0'));
    assert.equal(items.find((i) => i.label === 'postgres-0')?.description, 'Pod · payments');
    await ui.quickPick.pick('postgres-0');
    await poll('the pod row selected', () => ui.tree.selected(), (s) => s.some((p) => p.join('/') === 'pods/payments/postgres-0'), { timeoutMs: 30_000 });
    await shoot('V22-find-object-revealed');
  });

  it('V23 Events, warnings only: the row says so, and only Warning events are under it', async () => {
    await ui.tree.collapseAll();
    await ui.tree.clickInlineAction(['events'], 'Warnings Only (toggle)');
    await ui.tree.waitForRow(['events (warnings only)']);
    await ui.tree.expand(['events (warnings only)', 'payments']);
    const rows = await poll('the warning events of payments', () => ui.tree.children(['events (warnings only)', 'payments']), (rs) => rs.length > 0);
    assert.ok(rows.every((r) => /Warning/.test(r.description)), rows.map((r) => `${r.label}: ${r.description}`).join('\n'));
    const all = cluster.server.list('events', 'payments');
    assert.equal(rows.length, all.filter((e) => (e as { type?: string }).type === 'Warning').length);
    await shoot('V23-events-warnings-only');
    await ui.tree.clickInlineAction(['events (warnings only)'], 'Warnings Only (toggle)');
    await ui.tree.waitForRow(['events']);
  });

  it('V24 a Deployment expands to its ReplicaSet, and that to its Pods', async () => {
    await ui.tree.collapseAll();
    await ui.tree.expand(['deployments.apps', 'shop', 'web']);
    const sets = await poll('the ReplicaSet of shop/web', () => ui.tree.children(['deployments.apps', 'shop', 'web']), (rs) => rs.length === 1 && /^web-/.test(rs[0].label));
    await ui.tree.expand(['deployments.apps', 'shop', 'web', sets[0].label]);
    const pods = await poll('its Pods', () => ui.tree.children(['deployments.apps', 'shop', 'web', sets[0].label]), (rs) => rs.length === 2 && rs.every((r) => /^Running/.test(r.description)));
    assert.equal(pods.length, cluster.server.list('pods', 'shop').filter((p) => (p.metadata as { name?: string }).name?.startsWith(sets[0].label)).length);
    await shoot('V24-deployment-replicaset-pods');
  });

  it('V25 a Service expands to the Pods its EndpointSlices name', async () => {
    await ui.tree.collapseAll();
    await ui.tree.expand(['services', 'shop', 'web']);
    const pods = await poll('the Pods of shop/web', () => ui.tree.children(['services', 'shop', 'web']), (rs) => rs.length === 2 && rs.every((r) => /^Running/.test(r.description) && r.icon !== undefined));
    assert.ok(pods.every((p) => p.label.startsWith('web')), pods.map((p) => p.label).join(', '));
    await shoot('V25-service-pods');
  });

  it('V26 Add Context: two contexts side by side, each a top row with its own health; the status bar names the current context', async () => {
    await ui.tree.collapseAll();
    await ui.quickPick.runCommand('Kube Watch: Add Context…');
    await ui.quickPick.waitForPicker('Add Context');
    await ui.quickPick.pick('staging');
    const roots = await poll('a row per context', () => ui.tree.children([]), (rs) => rs.length === 2 && rs.every((r) => /^(\d+)\/\1 watching$/.test(r.description)), { timeoutMs: 120_000 });
    assert.deepEqual(roots.map((r) => r.label), ['simulated', 'staging']);
    await ui.tree.waitForRow(['staging', 'pods'], (r) => /^watching · /.test(r.description));
    await ui.tree.waitForRow(['staging', CATALOG]);
    await allLive('both contexts live');
    const context = await poll('the context item', () => ui.statusBar.item('kubeWatch.context').innerText(), (t) => /simulated/.test(t));
    assert.match(context, /simulated/);
    // The staging cluster goes down: its row says so, the other stays well.
    await staging.goDown();
    await ui.tree.waitForRow(['staging'], (r) => /^0\/\d+ watching · /.test(r.description), { timeoutMs: 120_000 });
    assert.match((await ui.tree.row(['simulated']))?.description ?? '', /^(\d+)\/\1 watching$/);
    await shoot('V26-two-contexts');
    await staging.comeUp();
  });
});
