/**
 * `npm start` as a newcomer meets it: the sandbox (scripts/sandbox/main.ts) started as a child
 * process with code-server, its printed address opened in Chromium. Kube Watch must come up by
 * itself on the simulated cluster (view, tree, status bar, log), follow a fault typed in the
 * sandbox's terminal, and everything must stop on Ctrl-C. Takes the README's screenshot into
 * test-results/e2e/sandbox-readme.png (it never rewrites a tracked file; copy it to
 * docs/screenshot.png by hand to refresh the README).
 *
 * The sandbox installs the .vsix `npm run test:e2e` packaged (E2E_VSIX overrides), with
 * `--port 0 --no-faults --no-link`, so that a sandbox a person runs at the same time keeps its
 * port and its kubeconfig link, and no timed fault disturbs the checks.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/vscode/code-server.mjs';
import { SANDBOX_LINES, SandboxProcess, groupAlive, groupLeftAfter, groupMembers, killGroup, refused } from '../sandbox/sandbox-process';
import { KUBE_WATCH, WorkbenchUi, type TreeRow } from './pages';
import { poll } from './support/poll';
import { defaultVsixPath, repoRoot } from './support/workbench';

/** The roots the sandbox's workspace settings ask for (scripts/sandbox/workspace/.vscode/settings.json). */
const ROOTS = ['pods', 'deployments.apps', 'replicasets.apps', 'services', 'configmaps', 'events', 'widgets.example.com', 'nodes', 'cronjobs.batch'];
const NAMESPACES = ['batch', 'default', 'kube-system', 'monitoring', 'payments', 'shop'];
const WATCHING = /^watching · [\d,]+(?: [a-z.]+)? · rv \d+$/;
const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const SCREENSHOT = path.join(RESULTS, 'sandbox-readme.png');

describe('npm start: the sandbox in the browser (code-server, Chromium)', function () {
  this.timeout(240_000);
  let sandbox: SandboxProcess;
  let browser: Browser | undefined;
  let page: Page;
  let ui: WorkbenchUi;
  let address: string;
  let kubeconfig: string;
  let codeServerPid: number;

  const rowsOf = async (parent: string[]) => ui.tree.children(parent);
  const labelsOf = async (parent: string[]) => (await rowsOf(parent)).map((r) => r.label);
  const waitAllWatching = async (timeoutMs = 90_000) => {
    await poll(
      'every resource node to be watching',
      async () => (await rowsOf([])).map((r) => `${r.label}: ${r.description}`),
      (rows) => rows.length === ROOTS.length && rows.every((r) => WATCHING.test(r.split(': ')[1] ?? '')),
      { timeoutMs },
    );
    return ui.statusBar.waitForKubeWatch(`${ROOTS.length}/${ROOTS.length}`, (s) => s.text === `${ROOTS.length}/${ROOTS.length}` && s.icon === 'eye' && !s.spinning, { timeoutMs });
  };

  before(async function () {
    this.timeout(600_000);
    const vsix = defaultVsixPath();
    if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package`);
    sandbox = SandboxProcess.start(['--port', '0', '--no-faults', '--no-link', '--vsix', vsix]);
    address = (await sandbox.waitFor(SANDBOX_LINES.address, 480_000))[1];
    kubeconfig = (await sandbox.waitFor(SANDBOX_LINES.kubeconfig, 5_000))[1];
    codeServerPid = Number((await sandbox.waitFor(SANDBOX_LINES.codeServerPid, 5_000))[1]);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    ui = new WorkbenchUi(page);
    await page.goto(address, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
  });

  after(async function () {
    this.timeout(60_000);
    await browser?.close().catch(() => {});
    if (sandbox?.running) {
      await sandbox.stop('SIGINT', 30_000).catch((err: Error) => process.stderr.write(`${err.message}\n`));
    }
    if (codeServerPid && groupAlive(codeServerPid)) killGroup(codeServerPid, 'SIGKILL');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      fs.mkdirSync(RESULTS, { recursive: true });
      await page?.screenshot({ path: path.join(RESULTS, 'sandbox-failed.png') }).catch(() => {});
      process.stderr.write(`--- the sandbox's output ---\n${sandbox?.output.slice(-60).join('\n')}\n`);
    }
  });

  it('prints the address, and Kube Watch opens by itself with the simulated resources', async () => {
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+\/\?folder=/);
    assert.ok(fs.existsSync(kubeconfig), kubeconfig);
    // Nobody clicks the activity bar: the sandbox's profile shows the view and its log.
    await ui.tree.waitUntilVisible(120_000);
    await ui.tree.resizeSideBar(540);
    await waitAllWatching();
    assert.deepEqual(await labelsOf([]), ROOTS);
    const status = await ui.statusBar.readKubeWatch();
    assert.equal(status.ariaLabel, `Kube Watch: ${ROOTS.length} of ${ROOTS.length} watches live`);
    assert.equal(await ui.output.channel(), KUBE_WATCH.channel, 'the Kube Watch log is shown');

    await ui.tree.expand(['pods']);
    await poll('the pods namespaces', () => labelsOf(['pods']), (labels) => labels.join() === NAMESPACES.join());

    // Pods of several phases.
    await ui.tree.expand(['pods', 'payments']);
    // The generated parts of its name left out, the owner's name whole, its status whole beside it (V27): "ledger…z9w4c CrashLoopBackOff".
    const ledger = await poll('the crash-looping ledger pod', async () => (await ui.tree.children(['pods', 'payments'])).find((r) => r.label === 'ledger…z9w4c'), (r) => r !== undefined);
    assert.match(ledger!.description, /^(CrashLoopBackOff|Running · 0\/1 · \d+ restarts)/);
    const postgres = await ui.tree.waitForRow(['pods', 'payments', 'postgres-0']);
    assert.match(postgres.description, /^Running · 1\/1/);
    assert.equal(postgres.icon, 'pass');
    await ui.tree.expand(['pods', 'batch']);
    const done = await ui.tree.waitForRow(['pods', 'batch', 'nightly…7hxkq']);
    assert.match(done.description, /^Completed · 0\/1/);
    const failed = await ui.tree.waitForRow(['pods', 'batch', 'db-migrate…ck2fd']);
    assert.match(failed.description, /^Error · 0\/1/);
    assert.equal(failed.icon, 'error');
    await ui.tree.expand(['pods', 'default']);
    assert.match((await ui.tree.waitForRow(['pods', 'default', 'debug'])).description, /^ContainerCreating · 0\/1/);
    await ui.tree.collapse(['pods']);

    // Deployments, ReplicaSets and the custom resource type.
    await ui.tree.expand(['deployments.apps', 'payments']);
    assert.match((await ui.tree.waitForRow(['deployments.apps', 'payments', 'ledger'])).description, /^Stuck 1\/2 ready/);
    await ui.tree.collapse(['deployments.apps']);
    await ui.tree.expand(['replicasets.apps', 'kube-system']);
    assert.match((await ui.tree.waitForRow(['replicasets.apps', 'kube-system', 'coredns-5d78c9869d'])).description, /^2\/2 ready · 2 current/);
    await ui.tree.collapse(['replicasets.apps']);
    await ui.tree.expand(['widgets.example.com']);
    await poll('the widgets namespaces', () => labelsOf(['widgets.example.com']), (labels) => labels.join() === 'payments,shop');
    await ui.tree.expand(['widgets.example.com', 'shop']);
    // Printed with its CRD's printer columns (Phase, Size; Color is -o wide only).
    await ui.tree.waitForRow(['widgets.example.com', 'shop', 'blue-widget'], (r) => /^(Ready|Reconciling) · size \d · \d+[smhd]/.test(r.description));
    await ui.tree.collapse(['widgets.example.com']);
  });

  it('follows a fault typed in the sandbox terminal: expiry, relist, back to live', async () => {
    const rvOf = (description: string) => Number(/rv (\d+)$/.exec(description)?.[1] ?? NaN);
    const before = new Map((await ui.tree.children([])).map((r) => [r.label, rvOf(r.description)]));
    const mark = sandbox.mark;
    sandbox.type('expire');
    await sandbox.waitFor(/FAULT expiry: /, 10_000, mark);
    await ui.output.maximize();
    await ui.output.filter('expired,relisting');
    await ui.output.waitForLines(
      'an expiry and a relist for every watch',
      (lines) => ROOTS.every((r) => lines.some((l) => l.message.startsWith(`[simulated/${r}] expired: resourceVersion`)) && lines.some((l) => l.message.startsWith(`[simulated/${r}] relisting: expired`))),
      { timeoutMs: 60_000 },
    );
    const [, relists, changed] = (await sandbox.waitFor(/OK expiry over: (\d+) relists(, shop\/web-config changed)?/, 60_000, mark));
    assert.ok(Number(relists) >= ROOTS.length, `a relist per watch, by the server's count (${relists})`);
    assert.ok(changed, 'the sandbox changed an object while the watches were away');
    await ui.output.filter('');
    await ui.output.restore();
    await waitAllWatching();
    // What changed while the watches were away came in through the relist: the configmaps watch is past it.
    const after = new Map((await ui.tree.children([])).map((r) => [r.label, rvOf(r.description)]));
    assert.ok(after.get('configmaps')! > before.get('configmaps')!, `configmaps: rv ${before.get('configmaps')} before the expiry, ${after.get('configmaps')} after`);
    for (const r of ROOTS) assert.ok(after.get(r)! >= before.get(r)!, `${r}: rv ${before.get(r)} before, ${after.get(r)} after, never back in time`);
  });

  it('takes the README screenshot: the tree with pods of several phases, the status bar, the log', async () => {
    await ui.dismissOverlays();
    await ui.tree.collapseAll();
    await ui.tree.expand(['pods']);
    for (const ns of ['payments', 'batch', 'shop']) await ui.tree.expand(['pods', ns]);
    await ui.tree.expand(['deployments.apps', 'payments']);
    await ui.tree.expand(['deployments.apps', 'shop']);
    // An object's YAML in the editor, live: the crash-looping ledger replica.
    const ledger = await ui.tree.waitForRow(['pods', 'payments', 'ledger…z9w4c']);
    await page.locator(`.monaco-workbench .part.sidebar .monaco-list-row[data-index="${ledger.index}"]`).click();
    await page.locator('.monaco-workbench .part.editor .tab.active').filter({ hasText: 'ledger-6d5f7c8b9-z9w4c' }).waitFor({ state: 'visible', timeout: 30_000 });
    await ui.output.selectChannel(KUBE_WATCH.channel);
    await waitAllWatching();
    // Rows of several phases on screen.
    const shown = await ui.tree.rows();
    const icons = new Set(shown.filter((r: TreeRow) => r.path[0] === 'pods' && r.level === 3).map((r) => r.icon));
    for (const icon of ['pass', 'error']) assert.ok(icons.has(icon), `a pod row with the ${icon} icon (${[...icons].join(', ')})`);
    // No toast over the shot (say what it was, for the record).
    const toasts = await page.locator('.notifications-toasts .notification-list-item').allTextContents();
    if (toasts.length > 0) {
      process.stderr.write(`      (clearing notifications: ${toasts.join(' | ')})\n`);
      await ui.quickPick.runCommand('Notifications: Clear All Notifications');
    }
    // A taller panel (drag the sash above it), scrolled to the newest log line; the mouse where it shows no hover.
    const panel = await ui.output.part.boundingBox();
    if (panel) {
      const sashes = await page.locator('.monaco-workbench .monaco-sash.horizontal').evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })));
      const sash = sashes.find((r) => r.width > 100 && Math.abs(r.y + r.height / 2 - panel.y) < 6);
      if (sash) {
        const x = sash.x + sash.width / 2;
        const y = sash.y + sash.height / 2;
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x, y - 120, { steps: 8 });
        await page.mouse.up();
      }
    }
    const log = await page.locator('.monaco-workbench .part.panel .monaco-editor').first().boundingBox();
    if (log) {
      await page.mouse.click(log.x + log.width / 2, log.y + log.height / 2);
      await page.keyboard.press('Control+End');
    }
    // The focus back on the YAML (no caret in the log, the tree's selection calm), the mouse where it shows no hover.
    await page.locator('.monaco-workbench .part.editor .tab.active').click();
    for (const key of ['Control+Home', 'ArrowDown', 'ArrowDown', 'End']) await page.keyboard.press(key); // after "metadata:", on no word
    await page.mouse.move(300, 860);
    await page.waitForTimeout(1500);
    await waitAllWatching();
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });

  it('stops everything on Ctrl-C: exit 0, code-server and the cluster gone, the folder removed', async () => {
    await browser?.close();
    browser = undefined;
    const apiServer = (await sandbox.waitFor(SANDBOX_LINES.apiServer, 1_000))[1];
    const exit = await sandbox.stop('SIGINT', 60_000);
    assert.deepEqual(exit, { code: 0, signal: null }, sandbox.all);
    assert.match(sandbox.all, SANDBOX_LINES.stopped);
    const early = [...groupMembers(codeServerPid), ...groupMembers(sandbox.pid)];
    if (early.length > 0) process.stderr.write(`      (right after the exit: ${early.join('; ')})\n`);
    assert.deepEqual(await groupLeftAfter(codeServerPid, 2000), [], "no process of code-server's group is left");
    // (tsx's esbuild service, a child of the sandbox, ends a moment after it.)
    assert.deepEqual(await groupLeftAfter(sandbox.pid, 3000), [], 'no process of the sandbox is left');
    assert.equal(await refused(new URL(address).origin), true, 'code-server no longer listens');
    assert.equal(await refused(apiServer), true, 'the API server no longer listens');
    assert.equal(fs.existsSync(path.dirname(kubeconfig)), false, 'the temporary folder is gone');
  });
});
