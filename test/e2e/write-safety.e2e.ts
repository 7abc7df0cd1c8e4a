/**
 * The write-safety rows as a person sees them (issue 28, docs/write-safety.md): the packaged
 * .vsix in code-server through Chromium, on two local API servers that both have `shop/web` (a
 * ConfigMap and a Deployment of the same names) and one kubeconfig file with the contexts
 * `staging` and `prod`, current-context staging. In this order, one code-server for all:
 *
 * W03 a ConfigMap deleted on the server while its edit is open and dirty: Save is refused in
 *     words (deleted; Save As New Object… re-creates it), nothing sent; Save As New Object…
 *     asks, then creates it with the edit's content.
 * W05 a Deployment's env reordered by the user while the server reordered it otherwise: the
 *     save opens VS Code's merge editor with the list as one conflict (never merged line by line
 *     into a variable twice) and writes nothing; taken from the left and saved, the user's order.
 * W01 an edit of staging's ConfigMap, dirty, when the kubeconfig's current-context is rewritten
 *     to prod (a temp file renamed over it, as kubectl does): Save is refused naming both
 *     contexts, nothing reaches prod, the buffer keeps the text; a Scale… on staging's
 *     Deployment confirmed after the switch is refused likewise.
 *
 * Run with `npx mocha --import=tsx --timeout 300000 test/e2e/write-safety.e2e.ts` after
 * `npm run package`. Nothing asserts on time: every check polls the screen. Screenshots in
 * test-results/e2e/ (w01-…, w03-…, w05-…).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { WorkbenchUi } from './pages';
import { ActionUi } from './pages/actions';
import { EditDocument } from './pages/edit-document';
import { poll } from './support/poll';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const WATCHED = ['configmaps', 'deployments.apps'];
const NS = 'shop';
const ENV = [
  { name: 'ENV_A', value: 'alpha' },
  { name: 'ENV_B', value: 'bravo' },
  { name: 'ENV_C', value: 'charlie' },
];

type Env = { name: string; value: string }[];

describe('Write safety in the browser: wrong context, deleted object, ambiguous list merge (W01, W03, W05)', function () {
  this.timeout(300_000);
  let staging: SimulatedCluster;
  let prod: SimulatedCluster;
  let kubeconfigDir: string;
  let kubeconfigPath: string;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let doc: EditDocument;
  let actions: ActionUi;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  /** Requests that change something (access reviews left out: they only ask). */
  const writes = (cluster: SimulatedCluster, since = 0) => cluster.server.requests.slice(since).filter((r) => r.method !== 'GET' && !r.path.includes('selfsubject'));
  const notifications = () => bench.notifications();
  const waitForNotification = (what: string, match: RegExp, timeoutMs = 60_000) => poll(what, notifications, (n) => n.some((t) => match.test(t)), { timeoutMs }).then((n) => n.find((t) => match.test(t))!);
  const clearNotifications = async () => {
    await ui.quickPick.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
  };
  const envOf = (cluster: SimulatedCluster): Env => {
    const d = cluster.server.get('deployments.apps', NS, 'web') as { spec: { template: { spec: { containers: { env?: Env }[] } } } } | undefined;
    return d?.spec.template.spec.containers[0].env ?? [];
  };

  /** Rewrites the kubeconfig's current-context as `kubectl config use-context` does: a temp file renamed over it. */
  const useContext = (context: string) => {
    const config = yaml.load(fs.readFileSync(kubeconfigPath, 'utf8')) as Record<string, unknown>;
    config['current-context'] = context;
    const temp = path.join(kubeconfigDir, `.kubeconfig-${process.pid}.tmp`);
    fs.writeFileSync(temp, yaml.dump(config));
    fs.renameSync(temp, kubeconfigPath);
  };
  /** The view follows the current context: the line above the tree names it, and every watch is live again. */
  const waitForContext = async (context: string) => {
    await poll(`the view showing ${context}`, () => ui.tree.message(), (m) => m === `Showing ${context} · all namespaces`, { timeoutMs: 120_000 });
    await ui.statusBar.waitForKubeWatch(`${WATCHED.length}/${WATCHED.length} on ${context}`, (s) => s.text === `${WATCHED.length}/${WATCHED.length}` && !s.spinning, { timeoutMs: 120_000 });
  };
  /** Waits until the toast whose text matches has stopped moving (it slides in), for a screenshot that shows it. */
  const toastSettled = async (match: RegExp) => {
    const toast = bench.page.locator('.notifications-toasts .notification-toast', { hasText: match }).first();
    let last = '';
    await poll('the notification in place', async () => {
      const box = await toast.boundingBox();
      const now = box ? `${Math.round(box.x)},${Math.round(box.y)}` : '';
      const settled = now !== '' && now === last;
      last = now;
      return settled;
    }, (s) => s, { timeoutMs: 20_000 }).catch(() => undefined);
    // A long message without buttons shows on one line: expanded, the screenshot has all of it.
    await toast.hover().catch(() => undefined);
    const expand = toast.locator('.codicon-notifications-expand').first();
    if (await expand.isVisible().catch(() => false)) {
      await expand.click().catch(() => undefined);
      await poll('the notification expanded', () => toast.locator('.notification-list-item.expanded').count(), (n) => n > 0, { timeoutMs: 10_000 }).catch(() => undefined);
    }
  };
  /** Opens the row's Edit YAML and waits for the document to show `line`. */
  const openEdit = async (rowPath: string[], tab: string, line: string) => {
    await ui.tree.expand([rowPath[0]]);
    await ui.tree.expand([rowPath[0], rowPath[1]]);
    // A menu click can land while the menu is still laying out and do nothing: choose again then.
    for (let attempt = 1; ; attempt++) {
      await actions.openMenu(rowPath);
      await actions.choose('Edit YAML');
      const opened = await poll(`the edit tab ${tab}`, () => ui.editor.activeTabTitle(), (t) => t.startsWith(tab), { timeoutMs: attempt < 3 ? 20_000 : 60_000 }).then(() => true, (err: unknown) => {
        if (attempt >= 3) throw err;
        return false;
      });
      if (opened) break;
      await actions.closeMenu();
    }
    await poll(`the object in ${tab}`, () => doc.text(), (l) => l.some((x) => x.includes(line)), { timeoutMs: 60_000 });
  };
  /** Closes the active editor without saving it (the dirty prompt answered "Don't Save"). */
  const closeWithoutSaving = async () => {
    await doc.focus();
    await ui.quickPick.runCommand('View: Revert and Close Editor');
  };

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    const log = (name: string) => (m: string) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[${name}] ${m}\n`);
    staging = await SimulatedCluster.start({ context: 'staging', log: log('staging'), podLogEveryMs: 0 });
    prod = await SimulatedCluster.start({ context: 'prod', log: log('prod'), podLogEveryMs: 0 });
    for (const cluster of [staging, prod]) {
      cluster.server.create('configmaps', { metadata: { namespace: NS, name: 'web', labels: { app: 'web' } }, data: { GREETING: `hello from ${cluster.context}`, WORKERS: '4' } });
      const deployment = cluster.server.get('deployments.apps', NS, 'web')!;
      const spec = structuredClone(deployment.spec) as { template: { spec: { containers: Record<string, unknown>[] } } };
      spec.template.spec.containers[0].env = ENV;
      cluster.server.update('deployments.apps', { ...deployment, spec });
    }
    // One kubeconfig with both contexts, as a person who works on both has it.
    kubeconfigDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-w01-'));
    kubeconfigPath = path.join(kubeconfigDir, 'config');
    const parts = [staging, prod].map((c) => yaml.load(fs.readFileSync(c.kubeconfigPath, 'utf8')) as Record<string, unknown[]>);
    const merged = {
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      clusters: parts.flatMap((p) => p.clusters),
      users: parts.flatMap((p) => p.users),
      contexts: parts.flatMap((p) => p.contexts),
      'current-context': 'staging',
    };
    fs.writeFileSync(kubeconfigPath, yaml.dump(merged));
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: kubeconfigPath }, settings: { 'kubeWatch.resources': WATCHED, 'files.autoSave': 'off' } });
    ui = new WorkbenchUi(bench.page);
    doc = new EditDocument(bench.page);
    actions = new ActionUi(bench.page, ui.tree);
    await ui.openKubeWatch();
    await waitForContext('staging');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && bench) {
      await shoot(`w-failed-${this.currentTest.title.slice(0, 3)}`).catch(() => {});
      process.stderr.write(`--- code-server and page output (last 60 lines) ---\n${bench.diagnostics.slice(-60).join('\n')}\n`);
    }
    await actions?.closeMenu().catch(() => {});
    await ui?.dismissOverlays().catch(() => {});
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await staging?.stop();
    await prod?.stop();
    if (kubeconfigDir) fs.rmSync(kubeconfigDir, { recursive: true, force: true });
  });

  it('W03 a ConfigMap deleted on the server while its edit is dirty: Save is refused in words, Save As New Object… asks and re-creates it with the edit', async () => {
    const tab = 'ConfigMap\u2215web-config.yaml';
    await openEdit(['configmaps', NS, 'web-config'], tab, 'LOG_LEVEL: info');
    await doc.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug');
    await poll('the tab marked dirty', () => doc.isDirty(), (d) => d, { timeoutMs: 15_000 });
    staging.server.delete('configmaps', NS, 'web-config');
    await doc.waitForStatus('the deletion shown in the edit', (t) => /^Deleted on the server/.test(t), { timeoutMs: 60_000 });
    const mark = staging.server.requests.length;
    await doc.save();
    const refusal = await waitForNotification('the save refused', /ConfigMap shop\/web-config was deleted on the server at .*: nothing was saved\. Your edit is kept; Save As New Object… re-creates it from your edit/);
    assert.doesNotMatch(refusal, /\bat [A-Za-z]+\.[a-z]+ \(|Error:/, 'words, no stack trace');
    assert.deepEqual(writes(staging, mark), [], 'nothing sent: an update would not bring it back blind');
    assert.equal(staging.server.get('configmaps', NS, 'web-config'), undefined);
    assert.equal(await doc.isDirty(), true, 'the edit is kept, unsaved');
    await shoot('w03-save-refused-deleted');
    await clearNotifications();

    await doc.focus();
    await ui.quickPick.runCommand('Kube Watch: Save As New Object…');
    const dialog = await ui.dialog.waitUntilOpen(60_000);
    assert.equal(dialog.message, 'Create ConfigMap shop/web-config on context "staging" from your edit?');
    assert.ok(dialog.detail.join(' ').includes('It was deleted on the server.'), dialog.detail.join('\n'));
    assert.ok(dialog.buttons.includes('Create Object'), JSON.stringify(dialog.buttons));
    assert.deepEqual(writes(staging, mark), [], 'nothing sent before the confirmation');
    await shoot('w03-save-as-new-confirm');
    await actions.clickDialogButton('Create Object');
    const created = await poll('the object back on the server', async () => staging.server.get('configmaps', NS, 'web-config'), (o) => o !== undefined, { timeoutMs: 60_000 });
    assert.deepEqual(created!.data, { LOG_LEVEL: 'debug', FEATURE_CHECKOUT: 'on' }, 'the edit’s content');
    assert.deepEqual(writes(staging, mark).map((r) => [r.method, r.resource, r.status]), [['POST', 'configmaps', 201]], 'one create');
    await waitForNotification('the creation said', /Created ConfigMap shop\/web-config from your edit \(uid .+, rv \d+\)\./);
    await poll('the edit saved', () => doc.isDirty(), (d) => !d, { timeoutMs: 30_000 });
    await ui.tree.waitForRow(['configmaps', NS, 'web-config'], undefined, { timeoutMs: 60_000 });
    await shoot('w03-recreated');
    await clearNotifications();
    await ui.quickPick.runCommand('View: Close Editor');
  });

  it('W05 a Deployment env list reordered by the user and, otherwise, by the server: one conflict in the merge editor, nothing written; resolved there, the user’s order is saved with each variable once', async () => {
    const tab = 'Deployment\u2215web.yaml';
    await openEdit(['deployments.apps', NS, 'web'], tab, 'ENV_A');
    // The user swaps the first two variables: ENV_B, ENV_A, ENV_C (each line retyped, as a person would).
    await doc.replace('name: ENV_A', 'name: ENV_X');
    await doc.replace('value: alpha', 'value: xray');
    await doc.replace('name: ENV_B', 'name: ENV_A');
    await doc.replace('value: bravo', 'value: alpha');
    await doc.replace('name: ENV_X', 'name: ENV_B');
    await doc.replace('value: xray', 'value: bravo');
    await poll('the tab marked dirty', () => doc.isDirty(), (d) => d, { timeoutMs: 15_000 });
    // The server moves the last one up: ENV_A, ENV_C, ENV_B.
    const live = staging.server.get('deployments.apps', NS, 'web')!;
    const spec = structuredClone(live.spec) as { template: { spec: { containers: { env: Env }[] } } };
    spec.template.spec.containers[0].env = [ENV[0], ENV[2], ENV[1]];
    staging.server.update('deployments.apps', { ...live, spec }, { manager: 'config-sync' });
    // (A reorder keeps the same fields, so managedFields still name who set the list first.)
    await doc.waitForStatus('the server change announced', (t) => /^Changed on the server .*spec\.template\.spec\.containers\[0\]\.env/.test(t), { timeoutMs: 60_000 });
    const mark = staging.server.requests.length;
    await doc.save();
    await waitForNotification('the save refused as an overlap', /Failed to save 'Deployment∕web\.yaml': .*overlap .*nothing was written/);
    await poll('the merge editor', () => ui.editor.activeTabTitle(), (t) => /^Merging: Deployment∕web\.yaml/.test(t), { timeoutMs: 60_000 });
    const merge = bench.page.locator('.merge-editor').first();
    await merge.waitFor({ state: 'visible', timeout: 30_000 });
    // The list is one conflict the person decides: never merged line by line into ENV_B twice.
    await poll('one conflict in the merge editor', () => merge.innerText(), (t) => /\b1 Conflicts? Remaining/.test(t), { timeoutMs: 30_000 });
    assert.deepEqual(writes(staging, mark), [], 'nothing written');
    assert.deepEqual(envOf(staging).map((e) => e.name), ['ENV_A', 'ENV_C', 'ENV_B'], 'the server’s order stands');
    await shoot('w05-merge-editor');
    await clearNotifications();

    // The person keeps their order: accepted from the left, then Complete Merge writes it in one action.
    await ui.quickPick.runCommand('Merge Editor: Accept All Incoming Changes from Left');
    await poll('no conflict left', () => merge.innerText(), (t) => /\b(0|No) Conflicts? Remaining/.test(t) || /No Remaining Conflicts/.test(t), { timeoutMs: 30_000 }).catch(() => undefined);
    const complete = bench.page.locator('.editor-actions .action-label[aria-label="Complete Merge and Write to the Cluster"]').first();
    await complete.waitFor({ state: 'visible', timeout: 30_000 });
    await complete.click();
    await poll('the person’s order on the server', async () => envOf(staging).map((e) => e.name).join(','), (o) => o === 'ENV_B,ENV_A,ENV_C', { timeoutMs: 60_000 });
    assert.deepEqual(envOf(staging), [ENV[1], ENV[0], ENV[2]], 'each variable once, with its value');
    await poll('the merge closed', () => ui.editor.activeTabTitle(), (t) => !/^Merging:/.test(t), { timeoutMs: 30_000 });
    await bench.page.locator(`.monaco-workbench .part.editor .tab[aria-label="${tab}"]`).first().click().catch(() => undefined);
    await poll('the edit saved', () => doc.isDirty(), (d) => !d, { timeoutMs: 30_000 });
    await clearNotifications();
    await ui.quickPick.runCommand('View: Close Editor');
  });

  it('W01 the current context rewritten to prod while staging’s ConfigMap is edited: Save is refused naming both contexts, nothing reaches prod, the edit is kept', async () => {
    const tab = 'ConfigMap\u2215web.yaml';
    await openEdit(['configmaps', NS, 'web'], tab, 'GREETING: hello from staging');
    await doc.replace("WORKERS: '4'", "WORKERS: '8'");
    await poll('the tab marked dirty', () => doc.isDirty(), (d) => d, { timeoutMs: 15_000 });
    const prodMark = prod.server.requests.length;
    const stagingMark = staging.server.requests.length;
    const prodBefore = structuredClone(prod.server.get('configmaps', NS, 'web'));

    useContext('prod');
    await waitForContext('prod');
    await poll('the context in the status bar', () => ui.statusBar.item('kubeWatch.context').innerText(), (t) => /prod/.test(t), { timeoutMs: 60_000 }).catch(() => undefined);

    await doc.save();
    const refusal = await waitForNotification(
      'the save refused, both contexts named',
      /This object is from context "staging" \(server https:\/\/[^)]+\); the current context is now "prod" \(server https:\/\/[^)]+\): nothing was sent/,
    );
    assert.ok(refusal.includes(staging.url) && refusal.includes(prod.url), refusal);
    assert.deepEqual(writes(prod, prodMark), [], 'no write reached prod');
    assert.deepEqual(writes(staging, stagingMark), [], 'nor staging: nothing was sent');
    assert.deepEqual(prod.server.get('configmaps', NS, 'web'), prodBefore, 'prod’s ConfigMap unchanged');
    assert.equal((staging.server.get('configmaps', NS, 'web')!.data as Record<string, string>).WORKERS, '4');
    assert.equal(await doc.isDirty(), true, 'the buffer is still dirty');
    assert.ok((await doc.text()).some((l) => l.includes("WORKERS: '8'")), 'the typed change is still there');
    await toastSettled(/This object is from context "staging"/);
    await shoot('w01-save-refused-other-context');
    await clearNotifications();
    await closeWithoutSaving();
  });

  it('W01 Scale… planned on staging and confirmed after the context switched to prod: refused naming both contexts, prod untouched', async () => {
    useContext('staging');
    await waitForContext('staging');
    await ui.tree.collapseAll();
    await ui.tree.expand(['deployments.apps']);
    await ui.tree.expand(['deployments.apps', NS]);
    await poll('Scale… offered once the access reviews answered', () => actions.openMenu(['deployments.apps', NS, 'web']).then(async (i) => (i.includes('Scale…') ? i : (await actions.closeMenu(), i))), (i) => i.includes('Scale…'), { timeoutMs: 90_000 });
    await actions.choose('Scale…');
    await actions.answerInput('5');
    const dialog = await ui.dialog.waitUntilOpen(60_000);
    assert.match(dialog.message, /^Scale Deployment shop\/web from 2 to 5 replicas\?$/);
    assert.ok(dialog.detail.some((l) => l.includes('--context staging')), dialog.detail.join('\n'));
    const prodMark = prod.server.requests.length;
    const stagingMark = staging.server.requests.length;

    // kubectl config use-context prod, while the confirmation is up.
    useContext('prod');
    await poll('the view showing prod behind the dialog', () => ui.tree.message(), (m) => m === 'Showing prod · all namespaces', { timeoutMs: 120_000 });
    await actions.clickDialogButton('Scale');
    const refusal = await waitForNotification('the scale refused, both contexts named', /This object is from context "staging" .*the current context is now "prod" .*nothing was sent\. The plan was not sent to the new context/);
    assert.match(refusal, /^Scale Deployment shop\/web/);
    assert.deepEqual(writes(prod, prodMark), [], 'no write reached prod');
    assert.deepEqual(writes(staging, stagingMark), [], 'nor staging');
    for (const cluster of [prod, staging]) assert.equal((cluster.server.get('deployments.apps', NS, 'web')!.spec as { replicas: number }).replicas, 2, `${cluster.context} still at 2 replicas`);
    // prod's web as the view shows it now: still 2 of 2.
    // The tree was drawn again for prod: its rows are expanded until web shows (an expansion made
    // while the rows were replaced may be lost with them).
    await poll(
      "prod's web row",
      async () => {
        await ui.tree.expand(['deployments.apps']);
        await ui.tree.expand(['deployments.apps', NS]);
        return ui.tree.row(['deployments.apps', NS, 'web']);
      },
      (r) => r !== undefined && /^2\/2 ready/.test(r.description),
      { timeoutMs: 90_000 },
    );
    await toastSettled(/Scale Deployment shop\/web: This object is from context "staging"/);
    await shoot('w01-scale-refused-other-context');
    await clearNotifications();
  });
});
