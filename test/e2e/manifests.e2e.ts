/**
 * Workspace manifests in the browser: the packaged .vsix in code-server on the simulated cluster,
 * a workspace folder of manifests, one code-server for the scenarios in this order.
 *
 * D01 a file in sync shows so, naming the context.
 * D02 a scale on the cluster turns its lens to drifted; Show Diff shows only spec.replicas.
 * D03 Apply (confirmed, the conflict with the scaler taken when confirmed) returns it to in sync,
 *     confirmed by the watch.
 * D04 an object deleted on the cluster, and one never there.
 * D05 a 422 of the dry run on the right line (Problems).
 * D06 a kustomization folder, rendered with kubectl kustomize (or the one line without kubectl).
 * D07 a stale watch never says in sync (the API server stopped).
 * D08 a type the user may not read: cannot read: forbidden.
 * Screenshots in test-results/e2e/ (d01-… to d08-…).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi } from './pages';
import { Dialog } from './pages/dialog';
import { EditDocument } from './pages/edit-document';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const SANDBOX_MANIFESTS = path.join(repoRoot, 'scripts', 'sandbox', 'workspace', 'manifests');
const read = (file: string) => fs.readFileSync(path.join(SANDBOX_MANIFESTS, file), 'utf8');
const hasKubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
})();

const FILES: Record<string, string> = {
  'shop/web.yaml': read('shop/web.yaml'),
  'shop/cache.yaml': read('shop/cache.yaml'),
  'shop/api-config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api-config\n  namespace: shop\n  labels:\n    app: api\ndata:\n  DB_POOL: "10"\n',
  'shop/bad.yaml': ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: bad', '  namespace: shop', 'spec:', '  replicas: -1', '  selector:', '    matchLabels: {app: bad}', '  template:', '    metadata:', '      labels: {app: bad}', '    spec:', '      containers:', '      - name: main', '        image: nginx', ''].join('\n'),
  'shop/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: web-token\n  namespace: shop\nstringData:\n  token: abc\n',
  'overlay/kustomization.yaml': read('overlay/kustomization.yaml'),
  'overlay/report-settings.yaml': read('overlay/report-settings.yaml'),
};

describe('Workspace manifests in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let doc: EditDocument;
  let dialog: Dialog;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const replicas = () => (cluster.server.get('deployments.apps', 'shop', 'web')?.spec as { replicas: number }).replicas;

  /** Opens a workspace file with Go to File (Ctrl+P), as a person would. */
  const openFile = async (file: string) => {
    await ui.dismissOverlays();
    await bench.page.keyboard.press('Control+P');
    const input = bench.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(file);
    // The file's own row (its name and its folder), clicked once: Enter would take whichever row has the focus.
    const row = bench.page.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(file) }).filter({ hasText: path.dirname(file) }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    await poll(`the tab of ${file}`, () => ui.editor.activeTabTitle(), (t) => t.startsWith(path.basename(file)), { timeoutMs: 30_000 });
  };
  const lens = (what: string, match: RegExp, timeoutMs = 60_000) => doc.waitForLens(what, (l) => l.some((t) => match.test(t)), { timeoutMs });

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, workspaceFiles: FILES });
    ui = new WorkbenchUi(bench.page);
    doc = new EditDocument(bench.page);
    dialog = new Dialog(bench.page);
    await ui.openKubeWatch();
    const n = DEFAULT_WATCHED.length;
    await ui.statusBar.waitForKubeWatch(`${n}/${n}`, (s) => s.text === `${n}/${n}` && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('D01 a file in sync shows so above each document, naming the context', async () => {
    await openFile('shop/web.yaml');
    const lenses = await doc.waitForLens('both documents in sync', (l) => l.filter((t) => t === `in sync · ${cluster.context}`).length === 2, { timeoutMs: 90_000 }).catch(async (err: Error) => {
      // What the drift is, for the failure's message: the diff's two sides and the object on the server.
      await doc.clickLens('Show Diff').catch(() => undefined);
      const diff = bench.page.locator('.monaco-diff-editor').first();
      const sides = await Promise.all(['original', 'modified'].map((side) => diff.locator(`.editor.${side} .view-line`).allInnerTexts().catch(() => [])));
      throw new Error(`${err.message}\nlive:\n${sides[0].join('\n')}\nafter apply:\n${sides[1].join('\n')}\non the server: ${JSON.stringify(cluster.server.get('deployments.apps', 'shop', 'web'))}`);
    });
    assert.ok(!lenses.some((t) => /drifted|Apply/.test(t)), lenses.join(' | '));
    await shoot('d01-in-sync');
  });

  it('D02 a scale on the cluster turns the lens to drifted; Show Diff shows only spec.replicas', async () => {
    const web = cluster.server.get('deployments.apps', 'shop', 'web')!;
    cluster.server.update('deployments.apps', { ...web, spec: { ...(web.spec as object), replicas: 5 } }, { manager: 'kubectl' });
    await lens('drifted', /^drifted · 1 field \(spec\.replicas\)/);
    await doc.clickLens('Show Diff');
    await poll('the diff editor', () => ui.editor.activeTabTitle(), (t) => t.includes('live on') && t.includes('after apply'), { timeoutMs: 30_000 });
    const diff = bench.page.locator('.monaco-diff-editor').first();
    const changed = await poll(
      'one changed line each side',
      async () => ({
        removed: await diff.locator('.editor.original .line-delete').count(),
        added: await diff.locator('.editor.modified .line-insert').count(),
        right: await diff.locator('.editor.modified .view-line').allInnerTexts(),
        left: await diff.locator('.editor.original .view-line').allInnerTexts(),
      }),
      (d) => d.removed === 1 && d.added === 1 && d.right.some((t) => /replicas: 2/.test(t.replace(/\u00a0/g, ' '))) && d.left.some((t) => /replicas: 5/.test(t.replace(/\u00a0/g, ' '))),
      { timeoutMs: 30_000 },
    );
    assert.equal(changed.added, 1);
    await shoot('d02-drifted-diff');
    await bench.page.keyboard.press('Control+W');
  });

  it('D03 Apply, confirmed with the context named and the scaler\'s field taken only when confirmed, returns it to in sync, confirmed by the watch', async () => {
    await poll('the manifest tab', () => ui.editor.activeTabTitle(), (t) => t.startsWith('web.yaml'), { timeoutMs: 15_000 });
    await lens('drifted', /^drifted/);
    await doc.clickLens('Apply');
    const confirm = await dialog.waitUntilOpen();
    assert.match([confirm.message, ...confirm.detail].join(' '), new RegExp(`Apply Deployment shop/web to context "${cluster.context}"`));
    await bench.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: /^Apply$/ }).first().click();
    // The first dialog closes and the conflict's opens in its place.
    const conflict = await poll('the conflict explained', () => dialog.read().catch(() => ({ message: '', detail: [], buttons: [] })), (d) => /managed by/.test([d.message, ...d.detail].join(' ')), { timeoutMs: 30_000 });
    assert.match([conflict.message, ...conflict.detail].join(' '), /spec\.replicas is managed by kubectl: forcing the apply makes Kube Watch their manager/);
    assert.equal(replicas(), 5, 'nothing applied before the conflict was confirmed');
    await bench.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: 'Apply, taking these fields' }).first().click();
    await poll('the result', () => bench.notifications(), (n) => n.some((t) => /Deployment shop\/web: applied, confirmed by the watch/.test(t)), { timeoutMs: 60_000 });
    assert.equal(replicas(), 2);
    await lens('in sync again', new RegExp(`^in sync · ${cluster.context}$`));
    await shoot('d03-applied');
  });

  it('D04 an object deleted on the cluster says when; one never there says not on the cluster · Apply', async () => {
    await openFile('shop/api-config.yaml');
    await lens('in sync', /^in sync/);
    cluster.server.delete('configmaps', 'shop', 'api-config');
    await lens('deleted', /^deleted on the cluster \d+ s ago/);
    await openFile('shop/cache.yaml');
    const missing = await lens('missing', /^not on the cluster/);
    assert.ok(missing.includes('Apply'), missing.join(' | '));
    // The Workspace section of the view counts them (api-config deleted, cache and bad never there).
    const section = await ui.tree.waitForRow(['Workspace'], (r) => /\b\d+ missing\b/.test(r.description) && /\b1 refused\b/.test(r.description), { timeoutMs: 60_000 });
    assert.match(section.description, /^\d+ files · /);
    await shoot('d04-deleted-and-missing');
  });

  it('D05 the dry run\'s 422 is a problem on its own line', async () => {
    await openFile('shop/bad.yaml');
    await lens('refused', /^refused by the cluster/);
    const rows = await poll('the problem', () => doc.problems(), (r) => r.some((t) => /spec\.replicas/.test(t) && /Ln 7\b/.test(t)), { timeoutMs: 60_000 });
    assert.ok(rows.some((t) => /greater than or equal to 0/.test(t)), rows.join('\n'));
    await shoot('d05-problem-on-its-line');
    await bench.page.keyboard.press('Control+Shift+M');
  });

  it('D06 a kustomization folder: its rendered objects\' states above the kustomization', async () => {
    await openFile('overlay/kustomization.yaml');
    if (hasKubectl) await lens('the rendered ConfigMap', /^ConfigMap batch\/report-settings: in sync/);
    else await lens('the line without kubectl', /kubectl is not on the PATH/);
    await shoot('d06-kustomization');
  });

  it('D07 a stale watch never says in sync: the API server stops, the lens says unreachable and when it was last in sync', async () => {
    await openFile('shop/web.yaml');
    await lens('in sync', /^in sync/);
    await cluster.goDown();
    const seen: string[][] = [];
    try {
      await poll('the lens to say the cluster is unreachable', async () => {
        await doc.toTop();
        seen.push(await doc.lenses());
        return seen[seen.length - 1];
      }, (l) => l.some((t) => /^cluster (unreachable|reconnecting|stopped).* · last seen in sync \d+ s ago/.test(t)), { timeoutMs: 120_000 });
      await shoot('d07-stale');
      // From the first lens that is not in sync on, none says in sync while the server is down.
      const first = seen.findIndex((l) => !l.some((t) => t.startsWith('in sync')));
      assert.ok(seen.slice(first).every((l) => !l.some((t) => t.startsWith('in sync'))), JSON.stringify(seen.slice(first)));
    } finally {
      await cluster.comeUp();
    }
    await lens('in sync again', /^in sync/, 120_000);
  });

  it('D08 a type the user may not read: cannot read: forbidden', async () => {
    const forbidden = cluster.forbid('secrets');
    try {
      await openFile('shop/secret.yaml');
      await lens('forbidden', /^cannot read: forbidden/, 90_000);
      await shoot('d08-forbidden');
    } finally {
      forbidden.lift();
    }
  });
});
