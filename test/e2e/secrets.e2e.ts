/**
 * A Secret's values in the browser (W12: revealed values never reach disk), on a code-server of
 * its own: the scenario reloads the window, which the shared scenarios of edit.e2e.ts must not see.
 *
 * W12 Edit YAML on a Secret, Reveal (confirmed): the decoded value shows, and the document takes
 *     no typing (never dirty). Edit value… (the lens above the key, an input box) writes a new
 *     value at once. A workspace file left dirty is backed up by VS Code under the user data dir's
 *     User/Backups; the window reloads; no file under the user data dir (or the workspace) holds
 *     the old or the new value, and no restored editor shows them, while the dirty file comes back.
 * Screenshots in test-results/e2e/ (w12-…).
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
const WATCHED = [...DEFAULT_WATCHED, 'secrets'];
const NS = 'shop';
const SECRET = 'db-credentials';
/** Values no other file would hold by chance. */
const OLD_VALUE = 'w12-old-value-6b1e94';
const NEW_VALUE = 'w12-new-value-d37a05';
const CANARY = 'w12-control-2f8c51';
const CONTROL_FILE = 'w12-notes.txt';
const TAB = `Secret\u2215${SECRET}.yaml`;
const MASK = '••••••';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Every file under `dir` whose bytes hold any of `needles`, with the needle found. */
function filesHolding(dir: string, needles: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const bytes = fs.readFileSync(p);
        for (const n of needles) if (bytes.includes(n)) out.push(`${p} (${n})`);
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

describe('A Secret’s values in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let doc: EditDocument;
  /** The page's own dialogs (a beforeunload prompt would be one), accepted and kept. */
  const pageDialogs: string[] = [];

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const serverValue = () => ((cluster.server.get('secrets', NS, SECRET)?.data ?? {}) as Record<string, string>).password;
  const n = WATCHED.length;
  const allWatching = () => ui.statusBar.waitForKubeWatch(`${n}/${n}`, (s) => s.text === `${n}/${n}` && !s.spinning, { timeoutMs: 120_000 });
  const tabs = () => bench.page.locator('.monaco-workbench .part.editor .tab').evaluateAll((els) => els.map((t) => `${t.getAttribute('aria-label') ?? ''}${t.classList.contains('dirty') ? ' [dirty]' : ''}`));
  /** What is secret: the values, decoded and as the server keeps them. */
  const SECRETS = [OLD_VALUE, NEW_VALUE, b64(OLD_VALUE), b64(NEW_VALUE)];

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    cluster.server.create('secrets', { metadata: { namespace: NS, name: SECRET }, type: 'Opaque', data: { password: b64(OLD_VALUE) } });
    // Auto save off (VS Code for the Web saves after a second by default): the control file stays
    // dirty, so VS Code has something to back up.
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, settings: { 'kubeWatch.resources': WATCHED, 'files.autoSave': 'off' } });
    fs.writeFileSync(path.join(bench.workspace, CONTROL_FILE), 'notes\n');
    bench.page.on('dialog', (d) => {
      pageDialogs.push(`${d.type()}: ${d.message()}`);
      void d.accept().catch(() => undefined);
    });
    ui = new WorkbenchUi(bench.page);
    doc = new EditDocument(bench.page);
    await ui.openKubeWatch();
    await allWatching();
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('W12 [browser] revealed Secret values are read-only, Edit value… writes at once, and after a reload with a backed-up dirty file no file under the user data dir and no restored editor holds the old or new value', async () => {
    // 1. Edit YAML, masked; Reveal, confirmed: the decoded value, and a document that takes no typing.
    await ui.tree.expand(['secrets']);
    await ui.tree.expand(['secrets', NS]);
    await ui.menu.run(['secrets', NS, SECRET], 'Edit YAML');
    await poll('the edit tab', () => ui.editor.activeTabTitle(), (t) => t.startsWith(TAB), { timeoutMs: 60_000 });
    await poll('the value masked', () => doc.text(), (l) => l.some((x) => x.includes(`password: ${MASK}`)), { timeoutMs: 60_000 });
    await ui.quickPick.runCommand('Kube Watch: Reveal Secret Values to Edit Them');
    const asked = await ui.dialog.waitUntilOpen(30_000);
    assert.equal(asked.message, `Reveal the values of Secret "${SECRET}"?`);
    await ui.dialog.box.locator('.dialog-buttons .monaco-button', { hasText: /^Reveal$/ }).click();
    const revealed = await poll('the decoded value', () => doc.text(), (l) => l.some((x) => x.includes(`password: ${OLD_VALUE}`)), { timeoutMs: 60_000 });
    await doc.focus();
    await bench.page.keyboard.press('Control+End');
    await bench.page.keyboard.type('typed');
    // A read-only editor says so where the cursor is.
    await bench.page.locator('.monaco-editor-overlaymessage', { hasText: /Editor is read-only because the file is read-only/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await doc.text(), revealed, 'the keystrokes changed nothing');
    assert.equal(await doc.isDirty(), false, 'a revealed document is never dirty');
    await shoot('w12-revealed-read-only');

    // 2. Edit value…: the lens above the key, the input box; written at once.
    // The lenses are drawn a moment after the reveal. Looked for without clicking the tab on every
    // poll (EditDocument.waitForLens's toTop): a click every quarter second kept VS Code from ever
    // drawing them (3 runs of 3); the short document is at its top already.
    await poll('the Edit value… lens', () => doc.lenses(), (l) => l.includes('Edit value…'), { timeoutMs: 60_000 });
    await doc.clickLens('Edit value…');
    await ui.quickPick.widget.waitFor({ state: 'visible', timeout: 30_000 });
    await poll('the value’s input box', () => ui.quickPick.title(), (t) => t === `data.password of Secret "${SECRET}"`, { timeoutMs: 30_000 });
    assert.equal(await ui.quickPick.input.inputValue(), OLD_VALUE, 'the input box offers the value shown');
    await ui.quickPick.input.fill(NEW_VALUE);
    await shoot('w12-edit-value');
    await bench.page.keyboard.press('Enter');
    await poll('the new value on the server', async () => serverValue(), (v) => v === b64(NEW_VALUE), { timeoutMs: 60_000 });
    await poll('the write said', () => bench.notifications(), (t) => t.some((x) => new RegExp(`Saved data\\.password of Secret ${NS}/${SECRET} \\(rv \\d+\\)`).test(x)), { timeoutMs: 60_000 });
    await ui.tree.waitForRow(['secrets', NS, SECRET], (r) => /update (pending|done)/.test(r.description ?? ''), { timeoutMs: 30_000 });
    await poll('the new value shown', () => doc.text(), (l) => l.some((x) => x.includes(`password: ${NEW_VALUE}`)), { timeoutMs: 60_000 });
    assert.equal(await doc.isDirty(), false);
    await shoot('w12-value-written');

    // 3. An ordinary file made dirty: VS Code backs it up under User/Backups.
    await bench.page.keyboard.press('Control+P');
    await ui.quickPick.widget.waitFor({ state: 'visible', timeout: 15_000 });
    await ui.quickPick.input.fill(CONTROL_FILE);
    await ui.quickPick.widget.locator('.monaco-list-row', { hasText: CONTROL_FILE }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await bench.page.keyboard.press('Enter');
    await poll('the control file open', () => ui.editor.activeTabTitle(), (t) => t.startsWith(CONTROL_FILE), { timeoutMs: 30_000 });
    await bench.page.locator('.monaco-workbench .part.editor .editor-group-container.active .monaco-editor').first().click();
    await bench.page.keyboard.press('Control+Home');
    await bench.page.keyboard.type(`${CANARY}\n`);
    await poll('the control file dirty', tabs, (t) => t.some((x) => x.startsWith(CONTROL_FILE) && x.endsWith('[dirty]')), { timeoutMs: 15_000 });
    const backups = path.join(bench.userDataDir, 'User', 'Backups');
    await poll('VS Code’s backup of the control file', async () => filesHolding(backups, [CANARY]), (f) => f.length > 0, { timeoutMs: 60_000 });
    assert.deepEqual(filesHolding(bench.userDataDir, SECRETS), [], 'no file under the user data dir holds a value (before the reload)');
    await shoot('w12-control-backed-up');

    // 4. Reload: the workbench and Kube Watch again; the values nowhere on disk, nor on screen.
    const before = await tabs();
    await bench.reload();
    await poll('the restored control file, dirty', tabs, (t) => t.some((x) => x.startsWith(CONTROL_FILE) && x.endsWith('[dirty]')), { timeoutMs: 120_000 });
    await ui.openKubeWatch();
    await allWatching();
    const after = await tabs();
    assert.deepEqual(pageDialogs, [], 'the reload asked nothing (nothing dirty that VS Code could not back up)');
    // VS Code restores the edit tab (read from the extension once it is active again): masked and clean.
    const secretTab = after.find((t) => t.startsWith(TAB));
    assert.ok(secretTab !== undefined && !secretTab.endsWith('[dirty]'), `the edit tab restored, clean: ${JSON.stringify(after)}`);
    await bench.page.locator(`.monaco-workbench .part.editor .tab[aria-label^="${TAB}"]`).first().click();
    await poll('the restored edit tab, masked', () => doc.text(), (l) => l.some((x) => x.includes(`password: ${MASK}`)), { timeoutMs: 60_000 });
    const shown = await bench.page.locator('.monaco-workbench .part.editor').innerText();
    for (const v of SECRETS) assert.ok(!shown.includes(v), `no editor shows ${v}: ${JSON.stringify({ before, after })}`);
    assert.deepEqual(filesHolding(bench.userDataDir, SECRETS), [], 'no file under the user data dir holds a value (after the reload)');
    assert.deepEqual(filesHolding(bench.workspace, SECRETS), [], 'no file in the workspace holds a value');
    assert.ok(filesHolding(backups, [CANARY]).length > 0, 'the backups are still there to look at');
    await shoot('w12-after-reload');
  });
});
