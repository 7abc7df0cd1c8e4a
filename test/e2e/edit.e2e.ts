/**
 * Editing live objects in the browser: the packaged .vsix in code-server on the simulated
 * cluster, one code-server for the scenarios in this order (each leaves the ConfigMap
 * shop/api-config open for editing and clean, or says otherwise).
 *
 * U01 opens a ConfigMap from its row's "Edit YAML" and types: VS Code for the Web's auto save
 *     does not apply to it (no "Failed to save", the buffer stays dirty, nothing written); the
 *     status bar says once that Save writes to the cluster.
 * A01 saves it: the server has the change, the editor says the watch confirmed it, the watch
 *     log has the write.
 * A02 the object changes on the server while the buffer is dirty: the editor says so at once,
 *     naming the field manager and the field.
 * A03 saving then rebases the edit: both changes on the server (the README's "Acting on
 *     objects" screenshot).
 * U05 an overlapping change: the save opens VS Code's merge editor and writes nothing; a second
 *     change on the server updates that merge (one Merging tab); the title bar's Complete Merge
 *     writes the user's value in one action, the other fields kept, and closes the merge.
 * A05 server-side apply: a dry-run diff before the apply; then a field another manager owns:
 *     the conflict explained (who owns what, what force takes), forced only when confirmed
 *     (the README's second screenshot).
 * A06 invalid YAML and a 422: problems on the right lines, nothing sent, nothing lost.
 * U04 a 422 reverted: the row's "update failed" and the Problems panel's entry go with it.
 * A11 saving while the API server is down keeps the buffer dirty with the reason; the next
 *     save, with the server back, works.
 * Screenshots in test-results/e2e/ (a01-… to a11-…).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi } from './pages';
import { EditDocument } from './pages/edit-document';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const NS = 'shop';
const CM = 'api-config';
/** The editable document's tab (kind∕name, as the live documents are named). */
const TAB = `ConfigMap\u2215${CM}.yaml`;

describe('Editing live objects in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let doc: EditDocument;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const data = () => (cluster.server.get('configmaps', NS, CM)?.data ?? {}) as Record<string, string>;
  /** A change on the server by a named field manager, as a controller would make it. */
  const serverChange = (manager: string, change: Record<string, string>) => {
    const cm = cluster.server.get('configmaps', NS, CM)!;
    cluster.server.update('configmaps', { ...cm, data: { ...(cm.data as Record<string, string>), ...change } }, { manager });
  };
  const notifications = () => bench.notifications();
  const waitForNotification = (what: string, match: RegExp, timeoutMs = 60_000) => poll(what, notifications, (n) => n.some((t) => match.test(t)), { timeoutMs });
  const clearNotifications = async () => {
    await ui.quickPick.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
  };

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
    ui = new WorkbenchUi(bench.page);
    doc = new EditDocument(bench.page);
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

  /** Focuses the tab whose file name is `name` (the edit document after a diff opened beside it). */
  const focusTab = async (name: string) => {
    await bench.page.locator(`.monaco-workbench .part.editor .tab[aria-label="${name}"]`).first().click();
    await poll(`the tab ${name}`, () => ui.editor.activeTabTitle(), (t) => t.startsWith(name), { timeoutMs: 20_000 });
  };
  /** Clicks a button of the notification whose text matches. */
  const clickNotificationButton = async (match: RegExp, button: string) => {
    const toast = bench.page.locator('.notifications-toasts .notification-toast', { hasText: match }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    await toast.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).first().click();
  };
  it('U01 auto save does not apply to a live object: no "Failed to save", the buffer stays dirty, nothing written; the status bar says Save writes to the cluster', async () => {
    await ui.tree.expand(['configmaps']);
    await ui.tree.expand(['configmaps', NS]);
    await ui.menu.run(['configmaps', NS, CM], 'Edit YAML');
    await poll('the edit tab', () => ui.editor.activeTabTitle(), (t) => t.includes(`${CM}.yaml`), { timeoutMs: 60_000 });
    const start = await poll('the object without server fields', () => doc.text(), (l) => l.includes("  DB_POOL: '10'"), { timeoutMs: 60_000 });
    assert.ok(!start.some((l) => /resourceVersion|managedFields|uid:|creationTimestamp/.test(l)), `no server fields in\n${start.join('\n')}`);

    // VS Code for the Web saves after a delay by default (1 s): not live objects.
    const writes = () => cluster.server.requests.filter((r) => r.method !== 'GET' && r.name === CM).length;
    const before = writes();
    await doc.replace("DB_POOL: '10'", "DB_POOL: '20'");
    await bench.page.locator('.statusbar-item', { hasText: /Auto save does not apply to api-config, a live object: Save \(Ctrl\+S\) writes it to the cluster/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
    // Auto save would have run 1 s after the typing (VS Code for the Web's default delay); a negative needs a wait.
    await new Promise((r) => setTimeout(r, 4000));
    assert.deepEqual((await notifications()).filter((t) => /Failed to save|auto save/i.test(t)), [], 'no error, no notification');
    assert.equal(writes(), before, 'nothing written by auto save');
    assert.equal(await doc.isDirty(), true, 'the edit is still unsaved');
    assert.equal(data().DB_POOL, '10');
    await shoot('u01-no-auto-save');
  });

  it('A01 save the edit: the server has it and the watch confirms it', async () => {
    // The watch held back a moment: the row says the update is pending until the watch shows it.
    const release = cluster.server.holdWatches('configmaps');
    await doc.save();
    await poll('the change on the server', async () => data().DB_POOL, (v) => v === '20', { timeoutMs: 60_000 });
    const rowText = async () => {
      const r = await ui.tree.waitForRow(['configmaps', NS, CM]);
      return `${r.description} [${r.icon ?? ''}]`;
    };
    await poll('the row pending', rowText, (t) => /update pending/.test(t) && /sync~spin/.test(t), { timeoutMs: 30_000 });
    await shoot('a01-edit-pending');
    release();
    await poll('the row confirmed', rowText, (t) => /update done/.test(t) && /check/.test(t), { timeoutMs: 30_000 });
    const rv = cluster.server.get('configmaps', NS, CM)!.metadata.resourceVersion;
    await doc.waitForStatus('the save confirmed by the watch', (t) => t === `Saved: rv ${rv}, confirmed by the watch`);
    await poll('the tab saved', () => doc.isDirty(), (d) => !d, { timeoutMs: 15_000 });
    const saves = cluster.server.requests.filter((r) => (r.method === 'PUT' || r.method === 'PATCH') && r.name === CM);
    assert.deepEqual(saves.map((r) => [r.method, r.status, r.query.fieldManager]), [['PATCH', 200, 'kube-watch']], 'one update (a merge patch: it cannot create), as the field manager kube-watch');
    await shoot('a01-edit-saved');
  });

  it('A02 the object changes on the server while the buffer is dirty: the editor says so at once', async () => {
    await doc.replace("DB_POOL: '20'", "DB_POOL: '21'");
    await poll('the tab marked dirty', () => doc.isDirty(), (d) => d, { timeoutMs: 15_000 });
    serverChange('kube-controller-manager', { CACHE_TTL: '60s' });
    await doc.waitForStatus('the change on the server announced', (t) => /^Changed on the server \d+ s ago by kube-controller-manager: 1 field \(data\.CACHE_TTL\)$/.test(t));
    // The actions: in the title bar at once, and as lenses above the YAML once VS Code asks for them.
    await bench.page.locator('.editor-actions .action-label[aria-label="Rebase My Edit onto the Server"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    const text = await doc.text();
    assert.ok(text.includes("  DB_POOL: '21'") && !text.some((l) => l.includes('CACHE_TTL')), 'the buffer is the user’s, untouched');
    await shoot('a02-changed-on-server');
  });

  it('A03 saving rebases a change that does not overlap: both changes on the server', async () => {
    await doc.save();
    await poll('both changes on the server', async () => data(), (d) => d.DB_POOL === '21' && d.CACHE_TTL === '60s', { timeoutMs: 60_000 });
    await waitForNotification('the rebase said', /Saved on top of kube-controller-manager's change to data\.CACHE_TTL: both are on the cluster \(rv \d+\)\./);
    await poll('the buffer showing both', () => doc.text(), (l) => l.includes("  DB_POOL: '21'") && l.includes('  CACHE_TTL: 60s'), { timeoutMs: 30_000 });
    assert.equal(await doc.isDirty(), false);
    const rv = cluster.server.get('configmaps', NS, CM)!.metadata.resourceVersion;
    await doc.waitForStatus('the rebased save confirmed', (t) => t === `Saved: rv ${rv}, confirmed by the watch (rebased onto kube-controller-manager's change to data.CACHE_TTL)`);
    await shoot('a03-rebased');
    await clearNotifications();
  });

  it('U05 an overlapping change opens one merge; a second server change updates it; the visible Complete Merge writes it in one action and closes it', async () => {
    await doc.replace("DB_POOL: '21'", "DB_POOL: '30'");
    await poll('the tab marked dirty', () => doc.isDirty(), (d) => d, { timeoutMs: 15_000 });
    serverChange('kube-controller-manager', { DB_POOL: '25' });
    await doc.waitForStatus('the overlapping change announced', (t) => /by kube-controller-manager: 1 field \(data\.DB_POOL\)$/.test(t));
    await doc.save();
    await waitForNotification('the save refused', /Failed to save 'ConfigMap∕api-config\.yaml': .*your edit and the server's change by kube-controller-manager overlap \(data\.DB_POOL\): nothing was written/);
    await poll('the merge editor', () => ui.editor.activeTabTitle(), (t) => /^Merging: ConfigMap∕api-config\.yaml/.test(t), { timeoutMs: 60_000 });
    await bench.page.locator('.merge-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(data().DB_POOL, '25', 'nothing written while the merge is open');
    await shoot('a04-merge-editor');
    const mergeTabs = () => bench.page.locator('.monaco-workbench .part.editor .tab', { hasText: /Merging: ConfigMap∕api-config\.yaml/ }).count();

    // The controller changes the field again, and the user saves again: the same merge, moved on.
    serverChange('kube-controller-manager', { DB_POOL: '26' });
    await focusTab(TAB);
    await doc.waitForStatus('the second change said in the merge', (t) => /the server changed again during the merge \(once, now rv \d+\): "On the server" shows it$/.test(t));
    await doc.save();
    await poll('the merge editor again', () => ui.editor.activeTabTitle(), (t) => /^Merging: ConfigMap∕api-config\.yaml/.test(t), { timeoutMs: 60_000 });
    assert.equal(await mergeTabs(), 1, 'one merge, reused');
    assert.equal(data().DB_POOL, '26');

    await ui.quickPick.runCommand('Merge Editor: Accept All Incoming Changes from Left');
    const complete = bench.page.locator('.editor-actions .action-label[aria-label="Complete Merge and Write to the Cluster"]').first();
    await complete.waitFor({ state: 'visible', timeout: 30_000 });
    await shoot('u05-complete-merge');
    await complete.click();
    await poll('the resolved value on the server, in one action', async () => data(), (d) => d.DB_POOL === '30' && d.CACHE_TTL === '60s', { timeoutMs: 60_000 });
    await poll('the merge closed', mergeTabs, (n) => n === 0, { timeoutMs: 30_000 });
    await focusTab(TAB);
    await poll('the edit clean again', () => doc.isDirty(), (d) => !d, { timeoutMs: 30_000 });
    await clearNotifications();
  });

  it('A05 server-side apply: a dry-run diff first; a field another manager owns is a conflict explained, forced only when confirmed', async () => {
    await doc.insertLineAfter("DB_POOL: '30'", "  RETRIES: '3'");
    await ui.quickPick.runCommand('Kube Watch: Apply Server-Side…');
    await poll('the dry-run diff', () => ui.editor.activeTabTitle().catch(() => ''), (t) => t.includes('after server-side apply (dry run)'), { timeoutMs: 60_000 }).catch(() => undefined);
    await waitForNotification('the dry run summed up', /Apply ConfigMap shop\/api-config server-side as kube-watch\? The dry run changes 1 field: data\.RETRIES\./);
    assert.equal(data().RETRIES, undefined, 'the dry run stored nothing');
    await bench.page.locator('.notifications-toasts .notification-toast .monaco-button', { hasText: /^Apply$/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await shoot('a05-dry-run-preview');
    await clickNotificationButton(/The dry run changes 1 field: data\.RETRIES/, 'Apply');
    await poll('the applied field on the server', async () => data().RETRIES, (v) => v === '3', { timeoutMs: 60_000 });
    await clearNotifications();

    serverChange('kube-controller-manager', { POOL_MAX: '50' });
    await focusTab(TAB);
    await poll('the clean buffer following the server', () => doc.text(), (l) => l.includes("  POOL_MAX: '50'"), { timeoutMs: 60_000 });
    await doc.replace("POOL_MAX: '50'", "POOL_MAX: '60'");
    await ui.quickPick.runCommand('Kube Watch: Apply Server-Side…');
    const dialog = await ui.dialog.waitUntilOpen(60_000);
    assert.equal(dialog.message, 'Server-side apply of ConfigMap shop/api-config conflicts with kube-controller-manager');
    assert.ok(
      dialog.detail.includes('data.POOL_MAX is managed by kube-controller-manager: forcing the apply makes Kube Watch their manager and takes it from kube-controller-manager, which may set them back.'),
      `the conflict explained: ${JSON.stringify(dialog.detail)}`,
    );
    assert.ok(dialog.buttons.includes('Preview Forced Apply'), JSON.stringify(dialog.buttons));
    assert.equal(data().POOL_MAX, '50', 'nothing applied');
    await shoot('a05-apply-conflict');
    await ui.dialog.box.locator('.dialog-buttons .monaco-button', { hasText: /^Preview Forced Apply$/ }).click();
    await waitForNotification('the forced dry run', /Force-apply ConfigMap shop\/api-config server-side as kube-watch\? The dry run changes 1 field: data\.POOL_MAX\./);
    await clickNotificationButton(/Force-apply ConfigMap/, 'Force Apply');
    await poll('the forced value on the server', async () => data().POOL_MAX, (v) => v === '60', { timeoutMs: 60_000 });
    const owners = (cluster.server.get('configmaps', NS, CM)!.metadata.managedFields as { manager: string; operation: string; fieldsV1: { 'f:data'?: Record<string, unknown> } }[])
      .filter((e) => e.fieldsV1['f:data']?.['f:POOL_MAX'] !== undefined)
      .map((e) => `${e.manager}/${e.operation}`);
    assert.deepEqual(owners, ['kube-watch/Apply'], 'force took the field from kube-controller-manager');
    await focusTab(TAB);
    await clearNotifications();
  });

  it('A06 invalid YAML and a 422 show as problems on their lines; nothing is sent and nothing is lost', async () => {
    await doc.insertLineAfter('CACHE_TTL: 60s', '   broken: indentation');
    const syntax = await poll('the YAML error in the Problems panel', () => doc.problems(), (rows) => rows.some((r) => /YAML: /.test(r)), { timeoutMs: 30_000 });
    const before = cluster.server.requests.filter((r) => r.method !== 'GET').length;
    await doc.save();
    await waitForNotification('the save refused before sending', /Failed to save 'ConfigMap∕api-config\.yaml': .*nothing was sent: line \d+: YAML: /);
    assert.equal(cluster.server.requests.filter((r) => r.method !== 'GET').length, before, 'nothing reached the server');
    void syntax;
    await doc.replace('   broken: indentation', '  note: fixed');
    await doc.insertLineAfter('app: api', '    bad key!: x');
    await doc.save();
    await waitForNotification('the 422 in words', /The server found a field invalid \(metadata\.labels\[bad key!\]\): nothing was saved\. See the Problems panel; your edit is kept\./);
    const rows = await poll('the 422 on its line', () => doc.problems(), (r) => r.some((x) => /metadata\.labels: Invalid value: "bad key!"/.test(x) && /\[Ln 8, Col \d+\]/.test(x)), { timeoutMs: 30_000 });
    assert.ok(rows.length > 0);
    const text = await doc.text();
    assert.ok(text.includes('    bad key!: x') && text.includes('  note: fixed'), 'both edits still in the buffer');
    assert.equal(await doc.isDirty(), true);
    assert.equal(data().note, undefined, 'nothing saved');
    await shoot('a06-problems');
    await doc.replace('bad key!: x', 'tier: backend');
    await doc.save();
    await poll('the fixed edit on the server', async () => cluster.server.get('configmaps', NS, CM)!.metadata.labels?.tier, (v) => v === 'backend', { timeoutMs: 60_000 });
    await clearNotifications();
    await bench.page.keyboard.press('Control+Shift+M');
  });

  it('U04 a 422 reverted: the row\'s "update failed" and the Problems panel\'s entry go with the edit, at once', async () => {
    await focusTab(TAB);
    await doc.insertLineAfter('tier: backend', '    bad key!: y');
    await doc.save();
    await waitForNotification('the 422 in words', /The server found a field invalid \(metadata\.labels\[bad key!\]\)/);
    const rowText = async () => (await ui.tree.waitForRow(['configmaps', NS, CM])).description ?? '';
    await poll('the row showing the failure', rowText, (t) => /failed/.test(t), { timeoutMs: 30_000 });
    await poll('the problem listed', () => doc.problems(), (r) => r.some((x) => /bad key!/.test(x)), { timeoutMs: 30_000 });
    await ui.quickPick.runCommand('File: Revert File');
    await poll('the edit reverted', () => doc.isDirty(), (d) => !d, { timeoutMs: 15_000 });
    // The mark would otherwise last a minute, and the problem as long as VS Code keeps the document.
    await poll('the row without the failure', rowText, (t) => !/failed/.test(t), { timeoutMs: 20_000 });
    await poll('the Problems panel without it', () => doc.problems(), (r) => !r.some((x) => /bad key!/.test(x)), { timeoutMs: 20_000 });
    await clearNotifications();
    await bench.page.keyboard.press('Control+Shift+M');
  });

  it('A11 saving while the API server is down keeps the buffer dirty with the reason; the next save works', async () => {
    await focusTab(TAB);
    await cluster.goDown();
    await doc.replace('note: fixed', 'note: offline');
    await doc.save();
    await waitForNotification('the outage in words', /Failed to save 'ConfigMap∕api-config\.yaml': .*The cluster is unreachable \(.*\): nothing was saved\. Your edit is kept; save again to retry\./);
    assert.equal(await doc.isDirty(), true, 'the buffer stays dirty');
    await shoot('a11-save-while-down');
    await cluster.comeUp();
    const n = DEFAULT_WATCHED.length;
    await ui.statusBar.waitForKubeWatch(`${n}/${n}`, (s) => s.text === `${n}/${n}` && !s.spinning, { timeoutMs: 120_000 });
    await clearNotifications();
    await doc.save();
    await poll('the edit on the server', async () => data().note, (v) => v === 'offline', { timeoutMs: 60_000 });
    await poll('the tab saved', () => doc.isDirty(), (d) => !d, { timeoutMs: 30_000 });
    await shoot('a11-saved-after-outage');
  });
});
