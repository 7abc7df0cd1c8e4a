/**
 * Helm releases in the browser (issue 33, item 1), on a code-server of its own. The simulated
 * cluster holds releases in helm's own storage format (test/support/helm-releases.ts, seeded by
 * SimulatedCluster as the sandbox does): `monitoring/observability` (3 revisions), `shop/web`
 * (2), `payments/ledger` (stuck in pending-upgrade at 3) and `kube-system/coredns` (ConfigMap
 * driver). A stub `helm` first on code-server's PATH records its arguments, one a line.
 *
 * H01 the Helm Releases view lists them by namespace with revision and status, from the labels
 *     (no release payload read to list them).
 * H02 a revision opened: the read-only document has the user-supplied and computed values, the
 *     objects with their live state (each with a Reveal lens that selects its row in Resources)
 *     and the manifest.
 * H03 Compare Helm Revisions…: VS Code's diff editor, revision 1's values left, revision 2's right.
 * H04 Roll Back… through the stub helm: the modal names context, release and revisions; helm got
 *     --kube-context, the kubeconfig the view read and --namespace.
 * H05 the stuck release: a warning icon and, as its first child, what usually unsticks it.
 * Screenshots in test-results/e2e/ (h0N-…).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContextMenu, SidebarTree, WorkbenchUi } from './pages';
import { EditDocument } from './pages/edit-document';
import { poll } from './support/poll';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const HELM_VIEW = 'Helm Releases';
const RELEASE_PAYLOAD = /^\/api\/v1\/namespaces\/[^/]+\/(secrets|configmaps)\/sh\.helm\.release\.v1\./;

describe('Helm releases in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let helm: SidebarTree;
  let menu: ContextMenu;
  let doc: EditDocument;
  const stubDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-e2e-helm-'));
  const argsFile = path.join(stubDir, 'helm-args.txt');

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const payloadReads = () => cluster.server.requests.filter((r) => r.method === 'GET' && RELEASE_PAYLOAD.test(r.path));
  const paneHeader = (title: string) => bench.page.locator('.monaco-workbench .part.sidebar .pane-header', { has: bench.page.locator('h3.title', { hasText: new RegExp(`^${title}$`) }) }).first();
  /** Opens (or closes) a pane of the Kube Watch container by its header. */
  const setPane = async (title: string, expanded: boolean) => {
    const header = paneHeader(title);
    await poll(`the ${title} pane ${expanded ? 'open' : 'closed'}`, async () => {
      const now = (await header.getAttribute('aria-expanded')) === 'true';
      if (now !== expanded) await header.click();
      return (await header.getAttribute('aria-expanded')) === 'true';
    }, (e) => e === expanded, { timeoutMs: 30_000, intervalMs: 1_000 });
  };
  const modified = () => bench.page.locator('.monaco-diff-editor .editor.modified .lines-content > .view-lines').first();
  const original = () => bench.page.locator('.monaco-diff-editor .editor.original .lines-content > .view-lines').first();
  const textOf = async (l: ReturnType<typeof modified>) => ((await l.innerText()) ?? '').replace(/\u00a0/g, ' ');

  /** The whole active document, read a screenful at a time (Monaco draws only the lines in view) and put in order by each line's position. */
  const documentText = async (): Promise<string> => {
    await doc.toTop();
    const seen = new Map<number, string>();
    for (let page = 0; page < 20; page++) {
      const lines = await doc.editor.locator('.view-lines .view-line').evaluateAll((els) => els.map((el) => ({ top: parseFloat((el as unknown as { style: { top: string } }).style.top || '0'), text: (el.textContent ?? '').replace(/\u00a0/g, ' ') })));
      const before = seen.size;
      for (const l of lines) seen.set(l.top, l.text);
      if (page > 0 && seen.size === before) break;
      await bench.page.keyboard.press('PageDown');
    }
    return [...seen.entries()].sort(([a], [b]) => a - b).map(([, t]) => t).join('\n');
  };

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    // The stub: records its arguments, one a line, and answers as helm does.
    fs.writeFileSync(path.join(stubDir, 'helm'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\necho "Rollback was a success! Happy Helming!"\n`, { mode: 0o755 });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({
      vsix: defaultVsixPath(),
      env: { KUBECONFIG: cluster.kubeconfigPath },
      pathFirst: stubDir,
      // Side by side at this width (VS Code would draw a narrow diff inline).
      settings: { 'diffEditor.useInlineViewWhenSpaceIsLimited': false, 'diffEditor.renderSideBySide': true },
      viewport: { width: 1600, height: 1000 },
    });
    ui = new WorkbenchUi(bench.page);
    helm = new SidebarTree(bench.page, HELM_VIEW);
    menu = new ContextMenu(bench.page, helm);
    doc = new EditDocument(bench.page);
    await ui.openKubeWatch();
    await ui.statusBar.waitForKubeWatch('5/5', (s) => s.text === '5/5' && !s.spinning, { timeoutMs: 120_000 });
    await setPane('Resources', false);
    await setPane(HELM_VIEW, true);
    await helm.waitUntilVisible();
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
    await ui?.dismissOverlays().catch(() => undefined);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
    fs.rmSync(stubDir, { recursive: true, force: true });
  });

  it('H01 the Helm Releases view lists the releases by namespace with revision and status, from their labels alone', async () => {
    const expected: [string, string, RegExp][] = [
      ['kube-system', 'coredns', /^rev 1 · deployed · /],
      ['monitoring', 'observability', /^rev 3 · deployed · /],
      ['payments', 'ledger', /^rev 3 · pending-upgrade · /],
      ['shop', 'web', /^rev 2 · deployed · /],
    ];
    for (const [ns, name, description] of expected) await helm.waitForRow([ns, name], (r) => description.test(r.description), { timeoutMs: 60_000 });
    assert.deepEqual((await helm.rows()).filter((r) => r.level === 1).map((r) => r.label), ['kube-system', 'monitoring', 'payments', 'shop'], 'namespaces in order');
    await helm.expand(['shop', 'web']);
    const revisions = await poll('the history of shop/web', () => helm.children(['shop', 'web']), (rs) => rs.length === 2, { timeoutMs: 30_000 });
    assert.deepEqual(revisions.map((r) => `${r.label} ${r.description.split(' · ')[0]}`), ['rev 2 deployed', 'rev 1 superseded']);
    // Listed from the labels: the watches asked for owner=helm, and no revision's payload was read.
    const listed = cluster.server.requests.filter((r) => /\/(secrets|configmaps)$/.test(r.path) && r.query?.labelSelector === 'owner=helm');
    assert.ok(listed.some((r) => r.path === '/api/v1/secrets') && listed.some((r) => r.path === '/api/v1/configmaps'), `the owner=helm lists: ${JSON.stringify(listed.map((r) => r.path))}`);
    assert.deepEqual(payloadReads().map((r) => r.path), [], 'no release payload read to list them');
    await shoot('h01-helm-releases');
  });

  it('H02 a revision opened: user-supplied and computed values, the objects with their live state (Reveal selects the row in Resources), the manifest', async () => {
    await helm.click(['shop', 'web']);
    await poll('the release document', () => ui.editor.activeTabTitle(), (t) => t.startsWith('web revision 2.yaml'), { timeoutMs: 60_000 });
    const text = await poll('the decoded revision', documentText, (t) => t.includes('# ---- MANIFEST') && t.includes('kind: Service'), { timeoutMs: 60_000 });
    assert.match(text, /^# Helm release web in shop \(context \S+\)$/m);
    assert.match(text, /^# revision 2: deployed/m);
    assert.match(text, /^# chart web-1\.4\.0, app version 2\.4\.1$/m);
    const section = (title: string) => text.split(`# ---- ${title}`)[1]?.split('# ----')[0] ?? '';
    const user = section('USER-SUPPLIED VALUES');
    assert.match(user, /^replicaCount: 2$/m, user);
    assert.match(user, /^ {2}tag: 2\.4\.1$/m, user);
    assert.doesNotMatch(user, /repository:/, 'the chart’s defaults are not user-supplied');
    const computed = section('COMPUTED VALUES');
    assert.match(computed, /^ {2}repository: registry\.example\.com\/shop\/web$/m, computed);
    assert.match(computed, /^ {2}tag: 2\.4\.1$/m, computed);
    assert.match(computed, /^ {2}port: 80$/m, computed);
    const objects = section('OBJECTS');
    assert.match(objects, /^# {3}Deployment shop\/web: \d+\/\d+ ready$/m, objects);
    assert.match(objects, /^# {3}Service shop\/web: present$/m, objects);
    assert.match(objects, /^# {3}ConfigMap shop\/web-config: present$/m, objects);
    assert.match(text, /^# ---- HOOKS\n# {3}Job web-db-migrate \(pre-upgrade\)/m);
    assert.match(text, /^ {10}image: registry\.example\.com\/shop\/web:2\.4\.1$/m, 'the manifest');
    // Read-only: typing changes nothing.
    await doc.focus();
    await bench.page.keyboard.type('typed');
    assert.equal(await doc.isDirty(), false);
    await shoot('h02-release-document');

    // Reveal: the Deployment's row selected in the Resources tree.
    await doc.toTop();
    await poll('the Reveal lenses', () => doc.lenses(), (l) => l.includes('Reveal Deployment web in Resources'), { timeoutMs: 60_000 });
    // A reveal is idempotent: a click that VS Code dropped (a lens redrawn under it) is made again.
    const selectedDeployment = (s: string[][]) => s.some((p) => p.join(' › ') === 'deployments.apps › shop › web');
    await poll('the Deployment selected in Resources after a click on its Reveal lens', async () => {
      await doc.clickLens('Reveal Deployment web in Resources');
      return poll('the Deployment selected', () => ui.tree.selected(), selectedDeployment, { timeoutMs: 15_000 }).catch(() => [] as string[][]);
    }, selectedDeployment, { timeoutMs: 90_000, intervalMs: 500 });
    await shoot('h02-revealed-in-resources');
    await setPane('Resources', false);
    await setPane(HELM_VIEW, true);
  });

  it('H03 Compare Helm Revisions…: the diff editor with revision 1’s values on the left and revision 2’s on the right', async () => {
    await menu.run(['shop', 'web'], 'Compare Helm Revisions…');
    await ui.quickPick.waitForPicker('Compare revision 2 with…');
    await ui.quickPick.pick('rev 1');
    await ui.quickPick.waitForPicker('Compare values or manifest?');
    await ui.quickPick.pick('values');
    await modified().waitFor({ state: 'visible', timeout: 60_000 });
    await poll('the tab of the diff', () => ui.editor.activeTabTitle(), (t) => t.includes('web: values rev 1 ↔ rev 2'), { timeoutMs: 30_000 });
    const right = await poll('revision 2’s values', () => textOf(modified()), (t) => /replicaCount: 2/.test(t) && /tag: 2\.4\.1/.test(t), { timeoutMs: 60_000 });
    const left = await poll('revision 1’s values', () => textOf(original()), (t) => /replicaCount: 1/.test(t), { timeoutMs: 60_000 });
    assert.doesNotMatch(left, /tag: 2\.4\.1/, 'revision 1 ran the chart’s tag');
    assert.match(right, /# user-supplied values/);
    await shoot('h03-history-diff');
  });

  it('H04 Roll Back… through helm on the PATH: the confirmation names context, release and revisions; helm got --kube-context, the kubeconfig read and --namespace', async () => {
    fs.rmSync(argsFile, { force: true });
    await menu.run(['shop', 'web'], 'Roll Back Helm Release…');
    await ui.quickPick.waitForPicker('Roll back to revision…');
    await ui.quickPick.pick('rev 1');
    const asked = await ui.dialog.waitUntilOpen(30_000);
    assert.equal(asked.message, `Roll back release web in namespace shop on context ${cluster.context} from revision 2 to revision 1?`);
    assert.ok(asked.buttons.includes('Roll Back'), JSON.stringify(asked.buttons));
    assert.ok(asked.detail.join(' ').includes(`helm rollback web 1 --kube-context ${cluster.context}`), asked.detail.join('\n'));
    await shoot('h04-rollback-confirmation');
    await ui.dialog.box.locator('.dialog-buttons .monaco-button', { hasText: /^Roll Back$/ }).click();
    const args = await poll('the arguments helm got', async () => (fs.existsSync(argsFile) ? fs.readFileSync(argsFile, 'utf8').trimEnd().split('\n') : []), (a) => a.length > 0, { timeoutMs: 60_000 });
    assert.deepEqual(args, ['rollback', 'web', '1', '--kube-context', cluster.context, '--kubeconfig', cluster.kubeconfigPath, '--namespace', 'shop', '--wait']);
    await poll('helm’s answer', () => bench.notifications(), (n) => n.some((x) => x.includes(`helm rollback of web on ${cluster.context} finished`)), { timeoutMs: 60_000 });
    await shoot('h04-rollback-done');
  });

  it('H05 a release stuck in pending-upgrade: a warning icon and, first under it, what usually unsticks it', async () => {
    const row = await helm.waitForRow(['payments', 'ledger'], (r) => /^rev 3 · pending-upgrade/.test(r.description), { timeoutMs: 60_000 });
    assert.equal(row.icon, 'warning');
    await helm.expand(['payments', 'ledger']);
    const children = await poll('the advice under ledger', () => helm.children(['payments', 'ledger']), (cs) => cs.length === 4, { timeoutMs: 30_000 });
    assert.equal(children[0].icon, 'warning');
    assert.equal(children[0].label, 'Stuck in pending-upgrade at revision 3: the upgrade never finished and helm refuses other operations. Roll back to revision 2, the last deployed one (helm rollback ledger 2).');
    assert.deepEqual(children.slice(1).map((c) => c.label), ['rev 3', 'rev 2', 'rev 1']);
    // Its document says it too, at the top.
    await helm.click(['payments', 'ledger']);
    await poll('the ledger document', () => ui.editor.activeTabTitle(), (t) => t.startsWith('ledger revision 3.yaml'), { timeoutMs: 60_000 });
    await poll('the advice in the document', documentText, (t) => /^# ⚠ Stuck in pending-upgrade at revision 3: .* Roll back to revision 2/m.test(t), { timeoutMs: 60_000 });
    await shoot('h05-stuck-release');
  });
});
