/**
 * Debug in place (issue 32) in the browser: the packaged .vsix in code-server on the simulated
 * cluster. X20 reads the previous run of the crash-looping `payments/ledger-6d5f7c8b9-z9w4c`; X21
 * follows every container of a pod with an init container; X22 searches (`/`, `n`) and filters
 * (`f`) a live log; X23 adds an ephemeral debug container to the distroless `payments/signer` and
 * attaches to it; X24 opens a file of `payments/postgres-0` from Browse Container Files…; X25 copies
 * that would write outside the chosen folder are refused; X26 a Download… from grafana, whose image
 * has no tar. Terminals are read from xterm's DOM rows (`pages/log-terminal.ts`), the file dialogs
 * are VS Code's own (`pages/file-dialog.ts`). Screenshots in test-results/e2e/ (x20-… to x26-…).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pack } from 'tar-stream';
import { WorkbenchUi } from './pages';
import { ActionUi } from './pages/actions';
import { FileDialog } from './pages/file-dialog';
import { LogTerminal } from './pages/log-terminal';
import { hoverText } from './support/hover';
import { podRowTitle } from './support/pod-title';
import { poll } from './support/poll';
import type { KubeObject } from '../../src/informer';
import { podObject, DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { TAR_OUTPUT_ANNOTATION } from '../support/apiserver/pod-image';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const CRASHED = 'ledger-6d5f7c8b9-z9w4c';
const LIVE = 'ledger-6d5f7c8b9-b7n2k';
/** A pod of three containers, one of them an init container that ran: made by this file. */
const IMPORTER = 'importer-0';
/** A pod whose image's tar answers `tar c…` with an entry that climbs out (`../`): made by this file. */
const HOSTILE = 'backup-0';
const ESCAPED = 'kube-watch-e2e-escaped.txt';
const PREFIXED = /^\[pod\/importer-0\/(\w+)\] (.*)$/;
const BATCH = /batch=(\d+) /;

/** A tar archive whose entries are written as given (a compromised container's tar). */
async function hostileArchive(entries: Array<{ name: string; text: string }>): Promise<Buffer> {
  const archive = pack();
  for (const e of entries) archive.entry({ name: e.name, size: Buffer.byteLength(e.text) }, e.text);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      out.push(path.posix.join(rel, name));
      if (fs.lstatSync(path.join(d, name)).isDirectory()) walk(path.join(d, name), path.posix.join(rel, name));
    }
  };
  walk(dir, '');
  return out;
}

describe('Debug in place in the browser: previous logs, all containers, search and filter, Debug Pod…, container files (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let actions: ActionUi;
  let dialog: FileDialog;
  let terminal: LogTerminal;
  let local: string;
  /** postgres-0's working directory (X24 reads it from the picker's title). */
  let postgresDir: string | undefined;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));

  /** Follow Logs… from the palette on `pod`; `picker`: the pod has several containers or a previous run, so the container picker shows. */
  async function followLogs(pod: string, picker: boolean): Promise<void> {
    await ui.quickPick.runCommand('Kube Watch: Follow Logs…');
    await ui.quickPick.waitForPicker('Follow Logs: pick a pod or a workload');
    await ui.quickPick.input.fill(pod);
    await ui.quickPick.pick(pod);
    if (picker) await ui.quickPick.waitForPicker(`Follow Logs: ${pod}`);
  }

  /** Kills every terminal (one a test left open too, so that the next reads its own). */
  async function killTerminal(): Promise<void> {
    if (!(await terminal.isOpen())) return;
    await terminal.restore();
    await ui.quickPick.runCommand('Terminal: Kill All Terminals');
    await poll('no terminal left', () => terminal.isOpen(), (open) => !open, { timeoutMs: 30_000 });
  }

  /** Browse Container Files… from the pod's row: the folder picker of its working directory; returns that directory. */
  async function browse(namespace: string, pod: string, rowTitle = pod): Promise<string> {
    await ui.tree.expand(['pods']);
    await ui.tree.expand(['pods', namespace]);
    await ui.menu.run(['pods', namespace, rowTitle], 'Browse Container Files…');
    const prefix = `${namespace}/${pod} (main): `;
    await poll('the folder picker', async () => ({ open: await ui.quickPick.isOpen(), title: await ui.quickPick.title(), items: (await ui.quickPick.items()).map((i) => i.label) }), (s) => s.open && s.title.startsWith(prefix) && s.items.some((l) => l.endsWith('Download This Folder…')), { timeoutMs: 60_000 });
    return (await ui.quickPick.title()).slice(prefix.length);
  }

  /** Picks a row of the folder picker by the end of its label (its icon comes first). */
  async function pickRow(label: string): Promise<void> {
    const item = await poll(`the picker row ${label}`, () => ui.quickPick.items(), (items) => items.some((i) => i.label.endsWith(label)), { timeoutMs: 30_000 });
    await ui.quickPick.pick(item.find((i) => i.label.endsWith(label))!.label);
  }

  /**
   * The notification whose message `accept`s, from the toasts or, where VS Code put it only in
   * the notification center (the bell's dot: a toast can be kept back while a picker is open),
   * from the center, opened for it.
   */
  async function notification(what: string, accept: (message: string) => boolean): Promise<string> {
    const messages = () => bench.page.locator('.notification-list-item-message').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()));
    const all = await poll(
      what,
      async () => {
        const seen = await messages();
        if (seen.some(accept)) return seen;
        if (!(await bench.page.locator('.notifications-center.visible').isVisible().catch(() => false))) await bench.page.locator('[id="status.notifications"]').first().click().catch(() => undefined);
        return messages();
      },
      (seen) => seen.some(accept),
      { timeoutMs: 60_000 },
    );
    return all.find(accept)!;
  }

  /** Clears the notifications and closes the center. */
  async function clearNotifications(): Promise<void> {
    await ui.quickPick.runCommand('Notifications: Clear All Notifications');
    if (await bench.page.locator('.notifications-center.visible').isVisible().catch(() => false)) await ui.quickPick.runCommand('Notifications: Hide Notifications');
  }

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    local = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-e2e-debug-'));
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    // importer-0: a finished import (Succeeded, so the log writer leaves it alone and the whole log
    // fits on screen): the init container `migrate`, then `main` and `sidecar`, each with its lines.
    const importer = podObject('payments', IMPORTER, { labels: { app: 'importer' }, phase: 'Succeeded' }) as KubeObject & { spec: Record<string, unknown>; status: Record<string, unknown> };
    const at = (s: number) => new Date(Date.now() - 120_000 + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const done = (name: string, from: number, to: number) => ({ name, ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0, startedAt: at(from), finishedAt: at(to) } } });
    cluster.server.create('pods', {
      ...importer,
      spec: { ...importer.spec, restartPolicy: 'Never', initContainers: [{ name: 'migrate', image: 'registry.example.com/importer-migrate:1.0' }], containers: [{ name: 'main', image: 'registry.example.com/importer:1.0' }, { name: 'sidecar', image: 'registry.example.com/log-shipper:2.1' }] },
      status: { ...importer.status, initContainerStatuses: [done('migrate', 0, 3)], containerStatuses: [done('main', 4, 20), done('sidecar', 4, 21)] },
    } as never);
    for (const [container, lines, from] of [
      ['migrate', ['applied migration 0001_create_batches', 'applied migration 0002_add_currency', 'migrations done'], 1],
      ['main', ['importing settlements.csv', 'imported 1200 rows', 'import done'], 5],
      ['sidecar', ['shipping logs to loki', 'shipped 3 batches', 'shipper stopped'], 6],
    ] as const) {
      lines.forEach((text, i) => {
        const t = Date.now() - 120_000 + (from + i * 5) * 1000;
        cluster.server.podLogs.append('payments', IMPORTER, container, `${new Date(t).toISOString()} ${text}`, t);
      });
    }
    // backup-0: files to browse, and a tar that sends `../` entries for any archive it is asked to write.
    const archive = await hostileArchive([{ name: `../${ESCAPED}`, text: 'escaped\n' }]);
    cluster.createPod('payments', HOSTILE, { labels: { app: 'backup' }, annotations: { 'kube-watch.test/files': 'true', [TAR_OUTPUT_ANNOTATION]: archive.toString('base64') } });

    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, // DOM rows the test reads, and small enough that a log line fits on one row.
    settings: { 'terminal.integrated.gpuAcceleration': 'off', 'terminal.integrated.fontSize': 9 } });
    ui = new WorkbenchUi(bench.page);
    actions = new ActionUi(bench.page, ui.tree);
    dialog = new FileDialog(bench.page);
    terminal = new LogTerminal(bench.page);
    await ui.openKubeWatch();
    const all = `${DEFAULT_WATCHED.length}/${DEFAULT_WATCHED.length}`;
    await ui.statusBar.waitForKubeWatch(all, (s) => s.text === all && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
    if (local) fs.rmSync(local, { recursive: true, force: true });
  });

  it('X20 the previous log of a crashed container: offered first in Follow Logs…, its terminal headed by the reason and exit code, its lines the previous run\'s', async () => {
    await followLogs(CRASHED, true);
    const items = await ui.quickPick.items();
    assert.equal(items[0]?.label, 'main (previous)', `the previous run first: ${items.map((i) => i.label).join(', ')}`);
    assert.match(items[0].description, /^the last terminated run, before restart 6: Error, exit code 1, finished /);
    await ui.quickPick.pick('main (previous)');
    await poll('the log terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.maximize();
    const rows = await terminal.waitForRows('the heading and the crash', (r) => r.some((x) => x.includes('panic: settlement state unavailable')) && r.some((x) => x.includes('end of the previous run')), { timeoutMs: 60_000 });
    const heading = rows.findIndex((r) => /^── previous run of main \(before restart 6\): Error, exit code 1, finished \S+ ──$/.test(r));
    assert.ok(heading >= 0, `the heading says how the run ended: ${rows.join('\n')}`);
    const log = rows.slice(heading + 1);
    const crash = ['ERROR could not load settlement state: relation "settlement_batches" does not exist', 'panic: settlement state unavailable', 'exit status 1'];
    for (const line of crash) assert.ok(log.some((r) => r.endsWith(line)), `the previous run's line "${line}" under the heading: ${rows.join('\n')}`);
    assert.ok(log.findIndex((r) => r.includes('ledger 3.2.0 starting')) < log.findIndex((r) => r.includes('panic: settlement state unavailable')), 'the run from its start to its crash');
    assert.equal(log.filter((r) => r.includes('ledger 3.2.0 starting')).length, 1, 'one run: the current run\'s start is not in it');
    await shoot('x20-previous-log');
    await killTerminal();
  });

  it('X21 All containers: every line prefixed with its container, the init container\'s included', async () => {
    await killTerminal();
    await followLogs(IMPORTER, true);
    const items = await ui.quickPick.items();
    const allItem = items.find((i) => i.label === 'All containers');
    assert.equal(allItem?.description, 'main, sidecar, migrate', JSON.stringify(items));
    assert.equal(items.find((i) => i.label === 'migrate')?.description, 'init container');
    await ui.quickPick.pick('All containers');
    await poll('the log terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.maximize();
    const rows = await terminal.waitForRows('every container\'s lines and the end of the log', (r) => r.filter((x) => PREFIXED.test(x)).length >= 9 && r.some((x) => x.includes('the log ended')), { timeoutMs: 60_000 });
    const byContainer = new Map<string, string[]>();
    for (const row of rows) {
      const m = PREFIXED.exec(row);
      if (/applied migration|migrations done|importing|imported|import done|shipp/.test(row)) assert.ok(m, `every log line prefixed with its container: ${row}`);
      if (m && !m[2].startsWith('──')) byContainer.set(m[1], [...(byContainer.get(m[1]) ?? []), m[2].replace(/^\S+Z /, '')]);
    }
    assert.deepEqual(Object.fromEntries([...byContainer].sort()), {
      main: ['importing settlements.csv', 'imported 1200 rows', 'import done'],
      migrate: ['applied migration 0001_create_batches', 'applied migration 0002_add_currency', 'migrations done'],
      sidecar: ['shipping logs to loki', 'shipped 3 batches', 'shipper stopped'],
    }, rows.join('\n'));
    await shoot('x21-all-containers');
    await killTerminal();
  });

  it('X22 search and filter on a live log: `/` highlights a match, `n` moves to the next; `f` keeps only the matching lines while new ones arrive', async () => {
    await killTerminal();
    await followLogs(LIVE, false);
    await poll('the log terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.maximize();
    await terminal.waitForRows('five lines', (r) => r.filter((x) => BATCH.test(x)).length >= 5, { timeoutMs: 60_000 });

    await bench.page.keyboard.type('/');
    await actions.answerInput('entries=');
    const first = await poll('a current match on screen and the match line', async () => ({ hl: await terminal.highlighted(), rows: await terminal.rows() }), (s) => s.hl.length === 1 && s.rows.some((r) => /match \d+ of \d+ · n next/.test(r)), { timeoutMs: 30_000 });
    assert.equal(first.hl[0].text.toLowerCase(), 'entries=', 'the current match is the text searched');
    const at = (s: typeof first) => Number(BATCH.exec(s.hl[0].row)?.[1]);
    const index = (s: typeof first) => Number(/match (\d+) of/.exec(s.rows.find((r) => /match \d+ of \d+ · n next/.test(r))!)![1]);
    const batch1 = at(first);
    assert.ok(Number.isInteger(batch1), `the current match is on a log line: ${first.hl[0].row}`);
    await shoot('x22-search');
    await bench.page.keyboard.type('n');
    const second = await poll('the current match moved', async () => ({ hl: await terminal.highlighted(), rows: await terminal.rows() }), (s) => s.hl.length === 1 && s.rows.some((r) => /match \d+ of \d+ · n next/.test(r)) && index(s) !== index(first) && at(s) !== batch1, { timeoutMs: 30_000 });
    assert.equal(second.hl[0].text.toLowerCase(), 'entries=');
    // (The highlight and the match line are read one after the other: both must have moved.)
    assert.ok(Number.isInteger(at(second)), `the current match is on a log line: ${second.hl[0].row}`);
    await bench.page.keyboard.press('Escape');

    await bench.page.keyboard.type('f');
    await actions.answerInput('/batch=\\d*[05] /');
    const filtered = await terminal.waitForRows('the filter in force', (r) => r.some((x) => x.includes('only matching lines are shown')) && r.filter((x) => BATCH.test(x)).length >= 1, { timeoutMs: 30_000 });
    const last = (r: string[]) => Math.max(...r.filter((x) => BATCH.test(x)).map((x) => Number(BATCH.exec(x)![1])));
    const before = last(filtered);
    // New lines keep coming: one line in five passes the filter.
    const later = await terminal.waitForRows('two new matching lines', (r) => last(r) >= before + 10, { timeoutMs: 60_000 });
    const shown = later.filter((x) => BATCH.test(x)).map((x) => Number(BATCH.exec(x)![1]));
    assert.deepEqual(shown.filter((n) => n % 5 !== 0), [], `only the lines whose batch ends in 0 or 5: ${shown.join(',')}`);
    for (let i = 1; i < shown.length; i++) assert.equal(shown[i], shown[i - 1] + 5, `every matching line once and in order: ${shown.join(',')}`);
    await shoot('x22-filter-live');
    await killTerminal();
  });

  it('X23 Debug Pod… on the distroless signer: the ephemeral container is added (the server\'s pod has it), the row\'s tooltip lists it as it starts, the terminal attaches and a typed command answers', async () => {
    await killTerminal();
    const release = cluster.server.ephemeral.holdStarts();
    let released = false;
    try {
      await ui.tree.expand(['pods']);
      await ui.tree.expand(['pods', 'payments']);
      await ui.menu.run(['pods', 'payments', 'signer'], 'Debug Pod…');
      await ui.quickPick.waitForPicker("Debug Pod signer: the debug container's image");
      await ui.quickPick.pick('busybox');
      await poll('the debug terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
      const waiting = await terminal.waitForRows('the container added and waiting', (r) => r.some((x) => /Waiting for debug container debugger-\w{5} to start \(ContainerCreating\)/.test(x)), { timeoutMs: 60_000 });
      assert.ok(waiting.some((r) => /Adding debug container debugger-\w{5} \(image busybox, in the process namespace of container main\) to pod payments\/signer/.test(r)), waiting.join('\n'));
      const onServer = cluster.server.get('pods', 'payments', 'signer') as KubeObject;
      const ephemeral = ((onServer.spec as { ephemeralContainers?: Array<{ name: string; image: string; targetContainerName?: string; stdin?: boolean; tty?: boolean }> }).ephemeralContainers ?? []);
      assert.equal(ephemeral.length, 1, JSON.stringify(onServer.spec));
      const name = ephemeral[0].name;
      assert.match(name, /^debugger-\w{5}$/);
      assert.deepEqual({ image: ephemeral[0].image, target: ephemeral[0].targetContainerName, stdin: ephemeral[0].stdin, tty: ephemeral[0].tty }, { image: 'busybox', target: 'main', stdin: true, tty: true });

      await terminal.restore();
      const row = async () => ui.tree.list.locator(`.monaco-list-row[data-index="${(await ui.tree.row(['pods', 'payments', 'signer']))!.index}"] .monaco-icon-label`);
      const tipWaiting = await hoverText(bench.page, row, new RegExp(`ephemeral container ${name} \\(image busybox, target main\\): Waiting \\(ContainerCreating\\)`), 'the signer row\'s tooltip with the waiting debug container');
      assert.match(tipWaiting, /Running/);
      await shoot('x23-debug-tooltip-waiting');
      release();
      released = true;
      // Running, as the server has it (the row's hover may keep the tooltip VS Code resolved first:
      // see the closing note of issue 32; test/ui/drawn-rows.test.ts checks the row is redrawn).
      await poll('the debug container running on the server', async () => cluster.server.get('pods', 'payments', 'signer') as KubeObject, (p) => ((p.status as { ephemeralContainerStatuses?: Array<{ state?: { running?: unknown } }> }).ephemeralContainerStatuses ?? []).some((s) => s.state?.running !== undefined), { timeoutMs: 60_000 });
      await bench.page.mouse.move(900, 600);

      await terminal.maximize();
      await terminal.waitForRows('attached', (r) => r.some((x) => x.includes("Attached. If you don't see a command prompt, try pressing enter.")), { timeoutMs: 60_000 });
      await terminal.part.locator('.terminal-wrapper.active .xterm, .terminal-wrapper:visible .xterm').first().click();
      await bench.page.keyboard.type('echo debug-$((6*7)) in $(basename $PWD | cut -c1-14)\n');
      await terminal.waitForRows('the answer', (r) => r.some((x) => x.trim() === 'debug-42 in kube-watch-pod'), { timeoutMs: 30_000 });
      await shoot('x23-debug-pod');
      await killTerminal();
    } finally {
      if (!released) release();
    }
  });

  it('X24 Browse Container Files… on postgres-0: a file opened from the container shows its content in a read-only editor', async () => {
    postgresDir = await browse('payments', 'postgres-0');
    assert.ok(postgresDir.startsWith('/'), postgresDir);
    const listed = (await ui.quickPick.items()).map((i) => i.label);
    for (const entry of ['app/', 'README.md']) assert.ok(listed.some((l) => l.endsWith(entry)), `${entry} listed: ${listed.join(', ')}`);
    await pickRow('app/');
    await poll('the folder app', () => ui.quickPick.title(), (t) => t === `payments/postgres-0 (main): ${postgresDir}/app`, { timeoutMs: 30_000 });
    // A file opens beside the picker, which stays: one click on its row.
    await ui.quickPick.widget.locator('.quick-input-list .monaco-list-row').filter({ has: bench.page.locator('.label-name', { hasText: /config\.yaml$/ }) }).first().click();
    // (The picker stays over the editor: read the lines as drawn.)
    await poll('config.yaml in an editor', () => ui.editor.visibleLines(), (lines) => lines.slice(0, 3).join('\n') === 'port: 8080\nname: web\nlogLevel: info', { timeoutMs: 60_000 });
    assert.match(await ui.editor.activeTabTitle(), /config\.yaml/);
    await ui.quickPick.close();
    // A keystroke in the editor: refused, and said where the cursor is.
    await ui.editor.linesAt('start');
    await bench.page.keyboard.type('x');
    await bench.page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await ui.editor.visibleLines())[0], 'port: 8080', 'the text unchanged');
    assert.equal(fs.readFileSync(path.join(postgresDir, 'app', 'config.yaml'), 'utf8'), 'port: 8080\nname: web\nlogLevel: info\n');
    await shoot('x24-container-file');
    await ui.quickPick.runCommand('View: Close All Editors');
  });

  it('X25 a copy whose archive entry would land outside the folder is refused in words and nothing lands outside: Upload… of a folder whose symlink points out, and (the UI cannot make a `../` entry) Download… from an image whose tar sends one', async () => {
    // A folder a user would upload, with a link that leads out of it.
    const evil = path.join(local, 'evil');
    fs.mkdirSync(evil);
    fs.writeFileSync(path.join(evil, 'notes.txt'), 'notes\n');
    fs.symlinkSync('../../outside-target', path.join(evil, 'secrets'));
    const dir = postgresDir ?? (await browse('payments', 'postgres-0'));
    if (postgresDir) await browse('payments', 'postgres-0');
    const inside = tree(dir);
    await pickRow('Upload Into This Folder…');
    await ui.quickPick.waitForPicker(`Upload into ${dir} of payments/postgres-0 (main)`);
    await ui.quickPick.pick('A Folder…');
    await dialog.chooseFolder(`Upload into ${dir} of payments/postgres-0 (main)`, evil);
    await ui.dialog.waitUntilOpen();
    assert.match((await ui.dialog.read()).message, /Upload evil into /);
    await actions.clickDialogButton('Upload');
    const refused = await notification('the upload refused', (m) => m.startsWith('Upload refused'));
    assert.match(refused, /the entry "evil\/secrets" is a symbolic link to "\.\.\/\.\.\/outside-target", which points outside the folder being uploaded/);
    assert.match(refused, /Nothing was written outside the folder it was copied to/);
    assert.deepEqual(tree(dir), inside, 'nothing written in the container\'s folder');
    // (The folder beside it is the machine's shared /tmp: what the link would reach, by name.)
    for (const name of ['outside-target', 'evil', 'secrets']) assert.equal(fs.existsSync(path.join(path.dirname(dir), name)), false, `nothing at ${path.join(path.dirname(dir), name)}`);
    await shoot('x25-upload-refused');
    await clearNotifications();
    await ui.quickPick.close();

    // A `../` entry: backup-0's tar sends one for any archive it writes.
    const into = path.join(local, 'downloads');
    fs.mkdirSync(into);
    fs.writeFileSync(path.join(into, 'keep.txt'), 'kept\n');
    const hostileDir = await browse('payments', HOSTILE);
    await pickRow('Download This Folder…');
    await dialog.chooseFolder(`Download ${hostileDir} from payments/${HOSTILE} (main) into…`, into);
    const escaped = await notification('the download refused', (m) => m.startsWith('Download refused'));
    assert.match(escaped, new RegExp(`the entry "\\.\\./${ESCAPED.replace(/\./g, '\\.')}"`));
    assert.match(escaped, /Nothing was written outside the folder it was copied to; an archive like this is what a compromised container could send/);
    assert.equal(fs.existsSync(path.join(local, ESCAPED)), false, `nothing at ${path.join(local, ESCAPED)}`);
    assert.equal(fs.existsSync(path.join(path.dirname(local), ESCAPED)), false);
    for (const p of tree(local)) assert.ok(!p.endsWith(ESCAPED), `no ${ESCAPED} anywhere under ${local}: ${p}`);
    await shoot('x25-download-refused');
    await clearNotifications();
    await ui.quickPick.close();
  });

  it('X26 an image without tar (grafana): Download… says in words that the image has no tar', async () => {
    const grafana = (cluster.server.list('pods') as KubeObject[]).find((p) => p.metadata.namespace === 'monitoring' && p.metadata.name?.startsWith('grafana-'))!;
    const dir = await browse('monitoring', grafana.metadata.name!, podRowTitle(grafana));
    assert.match(await ui.quickPick.placeholder(), /tar/, 'the picker says how files are listed and that tar is missing');
    const into = path.join(local, 'grafana');
    fs.mkdirSync(into);
    fs.writeFileSync(path.join(into, 'keep.txt'), 'kept\n');
    await pickRow('Download This Folder…');
    await dialog.chooseFolder(`Download ${dir} from monitoring/${grafana.metadata.name} (main) into…`, into);
    const said = await notification('the download refused for want of tar', (m) => m.startsWith('Download: '));
    assert.match(said, /^Download: The image has no tar: Download and Upload copy files through tar in the container, as kubectl cp does, and monitoring\/grafana-\S+ \(container main\) has none/);
    assert.deepEqual(tree(into), ['keep.txt'], 'nothing written');
    await shoot('x26-no-tar');
    await clearNotifications();
    await ui.quickPick.close();
  });
});
