/**
 * A newcomer's first hour (issue 29), as a person sees it in code-server through Chromium, at the
 * side bar's default width (300 px, never resized):
 * U09 names cut consistently: the pods of one Deployment show the same owner part
 * (`ledger…b7n2k`, `ledger…z9w4c`) with their status whole, each resource row shows its count,
 * and a Port Forwards row shows its state;
 * U08 a filter on a resource row (its inline Filter…) makes it count what it shows (`N of M`),
 * and the namespace rows under it `N of M pods`;
 * U07 a user without pods/exec and pods/portforward is not offered Open Shell, Run Command and
 * Port Forward on a pod row, while Delete… is.
 *
 * Its own code-server and simulated cluster (no churn: the counts hold still); the packaged .vsix.
 * Run with `npx mocha --import=tsx --timeout 300000 test/e2e/first-hour.e2e.ts` after
 * `npm run package`. Nothing asserts on time: every check polls the screen with a generous bound.
 * Screenshots in test-results/e2e/ (U09-…, U08-…, U07-…).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUBE_WATCH, SidebarTree, WorkbenchUi } from './pages';
import { ActionUi } from './pages/actions';
import { poll } from './support/poll';
import { podRowTitle } from './support/pod-title';
import { descriptionFieldsShown, labelFieldsShown, measureRows, type RowFields } from './support/row-geometry';
import type { KubeObject } from '../../src/informer';
import { matchesFilter } from '../../src/ui/tree/node-filter';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const ROOTS = [...DEFAULT_WATCHED];
const ALL = `${ROOTS.length}/${ROOTS.length}`;
/** The stream actions' menu labels (package.json). */
const STREAM_ITEMS = ['Open Shell…', 'Run Command…', 'Port Forward…'];

describe('The first hour in the browser: names cut consistently, filtered counts, streams by permission (U07, U08, U09)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let actions: ActionUi;
  let forwards: SidebarTree;
  /** Undoes what a test did to the server's access policy beyond its rules. */
  let restoreAccess: (() => void) | undefined;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const serverPods = (namespace?: string) => cluster.server.list('pods', namespace).filter((p) => !p.metadata.deletionTimestamp) as KubeObject[];

  /** The rendered rows of `tree` under `parent` with where their fields end. */
  async function geometry(tree: SidebarTree, parent: readonly string[]): Promise<RowFields[]> {
    const children = new Set((await tree.children(parent)).map((r) => r.index));
    return (await measureRows(tree.list)).filter((g) => children.has(g.index));
  }

  /** The context menu's items of the row at `rowPath`, the menu closed again. */
  async function menuOf(rowPath: string[]): Promise<string[]> {
    const items = await actions.openMenu(rowPath);
    await actions.closeMenu();
    return items;
  }

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
    ui = new WorkbenchUi(bench.page);
    actions = new ActionUi(bench.page, ui.tree);
    forwards = new SidebarTree(bench.page, 'Port Forwards');
    await ui.activityBar.waitForItem(KUBE_WATCH.container);
    // The view at the side bar's default width: never resized in this file.
    await ui.activityBar.open(KUBE_WATCH.container);
    await ui.tree.waitUntilVisible();
    await ui.statusBar.waitForKubeWatch(ALL, (s) => s.text === ALL && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && bench) {
      await shoot(`FAILED-${this.currentTest.title.slice(0, 3)}`).catch(() => {});
      process.stderr.write(`--- code-server and page output (last 60 lines) ---\n${bench.diagnostics.slice(-60).join('\n')}\n`);
    }
    await actions?.closeMenu().catch(() => {});
    await ui?.dismissOverlays().catch(() => {});
    restoreAccess?.();
    restoreAccess = undefined;
    cluster?.server.access.allowAll();
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('U09 at the default side bar width (300 px) the pods of one Deployment show the same owner part, each resource row its count, a Port Forwards row its state', async () => {
    const sidebar = await bench.page.locator('.monaco-workbench .part.sidebar').boundingBox();
    assert.ok(sidebar && Math.abs(sidebar.width - 300) <= 4, `the side bar at its default width: ${sidebar?.width}`);
    const problems: string[] = [];

    // Resource rows: the state and the count whole (`deployments.apps  watching · 6 · rv N`).
    const counted = (r: RowFields) => Number(/^watching · ([\d,]+)(?: [a-z.]+)? · rv \d+$/.exec(r.description)?.[1].replace(/,/g, '') ?? NaN);
    const roots = await poll('every resource row watching with the server\'s count', () => geometry(ui.tree, []), (rs) => rs.length === ROOTS.length && rs.every((r) => counted(r) === cluster.server.list(r.label).length), { timeoutMs: 60_000 });
    for (const r of roots) {
      if (!descriptionFieldsShown(r, 2)) problems.push(`the count of "${r.label}" is cut: "${r.description}" (count ending at ${r.descriptionFieldRights[1]?.toFixed(0)} px, clipped at ${r.clipRight.toFixed(0)} px)`);
    }

    // The pods of one Deployment: one owner part, each title and status whole.
    for (const [namespace, owner] of [['payments', 'ledger'], ['shop', 'web']]) {
      const pods = serverPods(namespace).filter((p) => p.metadata.name?.startsWith(`${owner}-`));
      assert.ok(pods.length >= 2, `${namespace}/${owner} has ${pods.length} pods`);
      const titles = pods.map((p) => podRowTitle(p)).sort();
      for (const t of titles) assert.match(t, new RegExp(`^${owner}…[a-z0-9]{5}$`), 'the owner\'s name whole, the generated hash left out');
      await ui.tree.expand(['pods', namespace]);
      const rows = await poll(`the ${owner} pods under pods › ${namespace}`, () => geometry(ui.tree, ['pods', namespace]), (rs) => titles.every((t) => rs.some((r) => r.label === t && r.descriptionFieldRights.length > 0)));
      for (const r of rows.filter((g) => titles.includes(g.label))) {
        if (!labelFieldsShown(r, 1)) problems.push(`the title "${r.label}" is cut (ends at ${r.labelFieldRights[0]?.toFixed(0)} px, clipped at ${r.clipRight.toFixed(0)} px)`);
        if (!descriptionFieldsShown(r, 1)) problems.push(`the status "${r.description.split(' · ')[0]}" of "${r.label}" is cut (ends at ${r.descriptionFieldRights[0]?.toFixed(0)} px, clipped at ${r.clipRight.toFixed(0)} px)`);
      }
      if (namespace === 'payments') {
        const crashing = rows.find((r) => r.label === 'ledger…z9w4c');
        assert.equal(crashing?.description, 'CrashLoopBackOff', 'a status too long for every field is shown alone, beside the same owner part');
        await shoot('U09-default-width-pods');
      }
      await ui.tree.collapse(['pods']);
    }

    // A Port Forwards row: its state first and whole.
    await ui.tree.expand(['services', 'shop']);
    await actions.openMenu(['services', 'shop', 'web']);
    await actions.choose('Port Forward…');
    await poll('the local port input', async () => ({ open: await ui.quickPick.isOpen(), title: await ui.quickPick.title() }), (s) => s.open && s.title === 'Port Forward: web 80', { timeoutMs: 20_000 });
    await ui.quickPick.input.fill('0');
    await bench.page.keyboard.press('Enter');
    const [forward] = await poll('the forward ready in the Port Forwards view', () => geometry(forwards, []), (rs) => rs.length === 1 && /^ready · svc\/web 80 → :\d+$/.test(rs[0].label), { timeoutMs: 60_000 });
    if (!labelFieldsShown(forward, 2)) problems.push(`the forward "${forward.label}" is cut (ends at ${forward.labelFieldRights[0]?.toFixed(0)} px, clipped at ${forward.clipRight.toFixed(0)} px)`);
    await ui.tree.collapse(['services']);
    await shoot('U09-default-width-forward');
    assert.deepEqual(problems, [], `side bar ${sidebar.width} px wide`);
  });

  it('U08 a text filter from a resource row\'s inline Filter…: the row counts "N of M", the namespace rows under it "N of M pods"; cleared, the whole count again', async () => {
    const filter = { text: 'web' };
    await ui.tree.clickInlineAction(['pods'], 'Filter…');
    await actions.answerInput(filter.text);
    const filtered = 'pods ("web")';
    const all = serverPods();
    const shown = all.filter((p) => matchesFilter(p, filter));
    assert.ok(shown.length > 0 && shown.length < all.length, `the filter shows ${shown.length} of ${all.length} pods`);
    const row = await ui.tree.waitForRow([filtered], (r) => new RegExp(`^watching · ${shown.length} of ${all.length}(?: pods)? · rv \\d+$`).test(r.description), { timeoutMs: 30_000 });
    assert.ok(row.description.startsWith('watching · '), 'the state first');
    // Away from the row (its inline actions, drawn while it is hovered or focused, cover its end): the count whole at 300 px.
    await bench.page.mouse.click(800, 400);
    await poll(`the count of ${filtered} whole on screen`, async () => (await geometry(ui.tree, [])).find((g) => g.label === filtered), (g) => g !== undefined && descriptionFieldsShown(g, 2), { timeoutMs: 20_000 });
    await ui.tree.expand([filtered]);
    const namespaces = await poll('the namespace rows counting what they show', () => ui.tree.children([filtered]), (rs) => rs.length > 0 && rs.every((r) => /^\d+ of \d+ pods?$/.test(r.description)));
    for (const ns of namespaces) {
      const inNamespace = serverPods(ns.label);
      const matched = inNamespace.filter((p) => matchesFilter(p, filter)).length;
      assert.equal(ns.description, `${matched} of ${inNamespace.length} pod${inNamespace.length === 1 ? '' : 's'}`, ns.label);
    }
    assert.ok(namespaces.some((ns) => ns.label === 'shop'), 'shop, where the web pods are, is shown');
    await shoot('U08-filtered-counts');
    await ui.tree.collapse([filtered]);
    await ui.tree.clickInlineAction([filtered], 'Clear Filter');
    await ui.tree.waitForRow(['pods'], (r) => new RegExp(`^watching · ${all.length}(?: pods)? · rv \\d+$`).test(r.description), { timeoutMs: 30_000 });
  });

  it('U07 a user without pods/exec and pods/portforward is not offered Open Shell, Run Command and Port Forward on a pod row, while Delete… is', async () => {
    const pod = serverPods('shop').map((p) => p.metadata.name!).filter((n) => n.startsWith('web-')).sort()[0];
    const row = ['pods', 'shop', podRowTitle(cluster.server.get('pods', 'shop', pod) as KubeObject)];
    await ui.tree.expand(['pods', 'shop']);
    // Everything allowed first: the streams are offered (what the test below must not see).
    const everything = await poll('the stream actions offered once the access reviews answered', () => menuOf(row), (i) => STREAM_ITEMS.every((s) => i.includes(s)) && i.includes('Delete…'), { timeoutMs: 60_000 });
    assert.ok(everything.includes('Delete…'));
    // What the server refuses from now on: a stream missing from a menu counts only once its question was answered no
    // (a question not answered yet offers nothing either).
    const policy = cluster.server.access;
    const decide = policy.decide.bind(policy);
    const refused = new Set<string>();
    policy.decide = (a) => {
      const decision = decide(a);
      if (!decision.allowed) refused.add(`${a.verb} ${a.resource}/${a.subresource ?? ''} in ${a.namespace ?? ''}`);
      return decision;
    };
    restoreAccess = () => {
      policy.decide = decide;
    };
    // Every write and read, but no create on pods/exec and pods/portforward.
    policy.setRules([
      { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'], binding: 'viewer' },
      { verbs: ['create', 'update', 'patch', 'delete', 'deletecollection'], apiGroups: ['', 'apps'], resources: ['pods', 'pods/eviction', 'deployments', 'deployments/scale', 'replicasets', 'replicasets/scale', 'services', 'configmaps'], binding: 'editor' },
    ]);
    // Restart All Watches asks the access questions again (the user's rights may have changed).
    await ui.quickPick.runCommand(KUBE_WATCH.commands.restartAll);
    await ui.statusBar.waitForKubeWatch(ALL, (s) => s.text === ALL && !s.spinning, { timeoutMs: 120_000 });
    const streamsRefused = () => refused.has('create pods/exec in shop') && refused.has('create pods/portforward in shop');
    await poll('the access reviews of pods/exec and pods/portforward in shop answered no', async () => [...refused], streamsRefused, { timeoutMs: 60_000 });
    const items = await poll('the pod row offering Delete… but no stream', () => menuOf(row), (i) => i.includes('Delete…') && !STREAM_ITEMS.some((s) => i.includes(s)), { timeoutMs: 60_000 });
    assert.deepEqual(items.filter((i) => STREAM_ITEMS.includes(i)), []);
    assert.ok(items.includes('Copy Name'), items.join(', '));
    await actions.openMenu(row);
    await shoot('U07-no-streams');
    await actions.closeMenu();
    // A Deployment row likewise: Scale… but no Port Forward….
    await ui.tree.collapse(['pods']);
    await ui.tree.expand(['deployments.apps', 'shop']);
    // (Its writes asked and answered yes: then the menu is drawn from answers, and the forward's was no.)
    await poll('the deployment row offering Scale… and Delete… but no Port Forward…', () => menuOf(['deployments.apps', 'shop', 'web']), (i) => i.includes('Scale…') && i.includes('Delete…') && !i.includes('Port Forward…'), { timeoutMs: 60_000 });
    await ui.tree.collapse(['deployments.apps']);
  });
});
