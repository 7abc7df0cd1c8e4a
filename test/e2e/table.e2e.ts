/**
 * The resource table (issue 30, items 1 and 2), in the browser: the packaged .vsix in
 * code-server on the simulated cluster. In this order, one code-server for all:
 * T01 opens deployments from the tree's menu and pods by `:pods`; T02 sorts by RESTARTS and AGE;
 * T03 filters by text and by `-l`; T04 a pod's restarts change on the server: one cell flashes,
 * the focus stays on its pod; T05 a deleted pod's row fades, then goes; T06 the keys l, s, e, y,
 * ctrl+d open the tree's flows (the delete's confirmation cancelled); T08 keyboard-only with the
 * grid's ARIA; T07 the API server down: the banner and every row say stale, then live again;
 * T12 a hidden and a moved column kept across a reload of the window.
 * Screenshots in test-results/e2e/ (t01-table-pods.png … t12-columns-after-reload.png).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi } from './pages';
import { TablePanel, type TableView } from './pages/table-panel';
import { LogTerminal } from './pages/log-terminal';
import { poll } from './support/poll';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';
import { durationSeconds } from '../../src/ui/table/sort-key';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const WATCHED = ['pods', 'deployments.apps', 'services'];
const POD = 'web-7d9f8b6c4-2xkqp';
const CRASHING = 'ledger-6d5f7c8b9-z9w4c';

describe('The resource table in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let table: TablePanel;
  let terminal: LogTerminal;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const livePods = () => cluster.server.list('pods').filter((p) => !p.metadata.deletionTimestamp);
  const column = (v: TableView, header: string) => v.headers.indexOf(header);
  const cellsOf = (v: TableView, header: string) => v.rows.map((r) => r.cells[column(v, header)]);
  const rowOf = (v: TableView, name: string) => v.rows.find((r) => r.cells[column(v, 'NAME')] === name);
  /** The pods table in front with the grid focused and the row of `name` focused. */
  const backToTable = async (name?: string) => {
    await table.tab('pods').first().click();
    const drawn = await table.waitFor('drawn', (v) => v.title.startsWith('pods'));
    if (drawn.filter !== '') await typeFilter('');
    await table.waitFor('rows', (v) => v.total > 0);
    if (name) await table.clickRow(name);
    await table.focusGrid();
    if (name) await table.waitFor(`${name} focused`, (v) => v.focusedLabel.includes(name) || v.rows.some((r) => r.classes.includes('focused') && r.cells.includes(name)));
  };
  /** `/` from the grid, then the text typed into the filter box once it has the focus. */
  const typeFilter = async (text: string) => {
    await table.focusGrid();
    await poll('the grid focused', () => table.activeId(), (id) => id === 'grid', { timeoutMs: 10_000 });
    await table.press('/');
    await poll('the filter box focused', () => table.activeId(), (id) => id === 'filter', { timeoutMs: 10_000 });
    await table.typeInFilter(text);
    await table.waitFor(`the filter "${text}"`, (v) => v.filter === text);
  };

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, settings: { 'kubeWatch.resources': WATCHED, 'terminal.integrated.gpuAcceleration': 'off', 'files.autoSave': 'off' } });
    ui = new WorkbenchUi(bench.page);
    table = new TablePanel(bench.page);
    terminal = new LogTerminal(bench.page);
    await ui.openKubeWatch();
    const n = WATCHED.length;
    await ui.statusBar.waitForKubeWatch(`${n}/${n}`, (s) => s.text === `${n}/${n}` && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
    await ui?.dismissOverlays().catch(() => {});
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('T01 Open as Table from the tree (deployments) and :pods from the table: kubectl -o wide columns, every object a row', async () => {
    await ui.menu.open(['deployments.apps']);
    await ui.menu.choose('Open as Table');
    const deployments = await table.waitFor('the deployments', (v) => v.title.startsWith('deployments.apps') && v.total === cluster.server.list('deployments.apps').length);
    assert.deepEqual(deployments.headers.slice(0, 6), ['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    await table.focusGrid();
    await table.press(':');
    await table.type('pods');
    await table.press('Enter');
    const pods = await table.waitFor('the pods', (v) => v.title.startsWith('pods') && v.total === livePods().length);
    // kubectl's -o wide columns, then the usage columns every pod table has (metrics.k8s.io, item 3).
    assert.deepEqual(pods.headers, ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES', 'CPU', 'MEM', '%CPU/R', '%MEM/L']);
    assert.equal(pods.count, `${livePods().length} rows`);
    const names = pods.rows.map((r) => `${r.cells[0]}/${r.cells[1]}`);
    for (const p of livePods().slice(0, pods.rows.length)) assert.ok(names.includes(`${p.metadata.namespace}/${p.metadata.name}`), `${p.metadata.name} in ${names.join(', ')}`);
    await shoot('t01-table-pods');
  });

  it('T02 sort by RESTARTS (numbers, the crash-looping pod first when descending) and by AGE (durations), stable', async () => {
    await backToTable();
    await table.clickHeader('RESTARTS');
    await table.clickHeader('RESTARTS');
    const byRestarts = await table.waitFor('sorted by restarts, descending', (v) => v.rows.length > 0 && rowOf(v, CRASHING) === v.rows[0]);
    const restarts = cellsOf(byRestarts, 'RESTARTS').map((c) => Number(/^\d+/.exec(c)?.[0] ?? -1));
    assert.deepEqual(restarts, [...restarts].sort((a, b) => b - a), restarts.join(','));
    assert.ok(restarts[0] > restarts[restarts.length - 1]);
    await table.clickHeader('AGE');
    const byAge = await table.waitFor('sorted by age', (v) => v.headers.length > 0 && v.rows.length > 1 && (v.rows[0] !== byRestarts.rows[0] || true) && v.serial > byRestarts.serial);
    const ages = cellsOf(byAge, 'AGE').map((a) => durationSeconds(a) ?? Number.NaN);
    assert.deepEqual(ages, [...ages].sort((a, b) => a - b), ages.join(','));
    await shoot('t02-sorted-by-age');
    // Back to kubectl's order (by namespace and name) for what follows: a third click.
    await table.clickHeader('AGE');
    await table.clickHeader('AGE');
    await table.waitFor("kubectl's order", (v) => v.rows.length > 1 && v.rows.every((r, i, all) => i === 0 || `${all[i - 1].cells[0]}/${all[i - 1].cells[1]}` <= `${r.cells[0]}/${r.cells[1]}`));
  });

  it('T03 filter as you type: text, then -l app=web, then ! to negate; a bad selector is explained and kept as typed', async () => {
    await backToTable();
    await typeFilter('ledger');
    let v = await table.waitFor('only ledger rows', (x) => x.total === 2 && x.rows.every((r) => r.cells[1].startsWith('ledger-')));
    assert.equal(v.count, `2 of ${livePods().length} rows`);
    await typeFilter('-l app=web');
    v = await table.waitFor('only app=web rows', (x) => x.total === livePods().filter((p) => p.metadata.labels?.app === 'web').length && x.rows.every((r) => r.cells[1].startsWith('web-')));
    await shoot('t03-filter-label');
    await typeFilter('!-l app=web');
    await table.waitFor('no app=web rows', (x) => x.total === livePods().length - 2 && x.rows.every((r) => !r.cells[1].startsWith('web-')));
    await typeFilter('-l app=we b');
    v = await table.waitFor('the problem said', (x) => x.problem.includes('not a valid requirement'));
    assert.equal(v.filter, '-l app=we b');
    await table.press('Escape');
    await table.waitFor('every row again', (x) => x.total === livePods().length && x.filter === '');
  });

  it('T04 a pod changes on the server: its RESTARTS cell flashes, no other cell does, the focus stays on it', async () => {
    await backToTable(POD);
    const before = await table.waitFor('the pod focused', (v) => v.focusedLabel.includes(POD));
    const focusedKey = rowOf(before, POD)!.key;
    const flashedBefore = before.flashes.length;
    cluster.updatePod('shop', POD, { restarts: 7 });
    const after = await table.waitFor('the restarts changed and flashed', (v) => rowOf(v, POD)?.cells[column(v, 'RESTARTS')].startsWith('7') === true && v.flashes.length > flashedBefore);
    const row = rowOf(after, POD)!;
    assert.ok(row.classes.includes('focused'), `the focused row is still ${POD}: ${row.classes}`);
    assert.equal(row.key, focusedKey);
    assert.ok(after.focusedLabel.includes(POD) || after.activeDescendant.startsWith(`cell-${row.rowIndex - 2}-`), after.focusedLabel);
    assert.deepEqual(after.flashes.slice(flashedBefore), [`${focusedKey}|RESTARTS`]);
    await shoot('t04-cell-flash');
  });

  it('T05 a pod deleted on the server: its row fades, then leaves', async () => {
    await backToTable();
    const gone = 'nightly-report-29013840-7hxkq';
    await table.waitFor('the pod there', (v) => rowOf(v, gone) !== undefined);
    cluster.server.delete('pods', 'batch', gone);
    await table.waitFor('the row fading', (v) => rowOf(v, gone)?.classes.includes('deleted') === true, { timeoutMs: 30_000, intervalMs: 50 });
    await shoot('t05-row-fading');
    await table.waitFor('the row gone', (v) => rowOf(v, gone) === undefined && v.total === livePods().length);
  });

  it('T06 keys l, s, e, y and ctrl+d run the tree\'s flows on the focused pod (the delete\'s confirmation cancelled)', async () => {
    await backToTable(POD);
    await table.press('l');
    // A restarted container (T04 set 7 restarts) makes Follow Logs ask which run, as from the tree.
    const opened = await poll('the log terminal, or the container picker', async () => ((await terminal.isOpen()) ? 'terminal' : (await ui.quickPick.isOpen()) && (await ui.quickPick.title()).startsWith('Follow Logs') ? 'picker' : undefined), (o) => o !== undefined, { timeoutMs: 30_000 });
    if (opened === 'picker') await ui.quickPick.pick('main');
    // The log terminal's name (its header may have scrolled away under the pod's lines).
    await poll('the pod\'s log terminal', () => bench.page.locator('.monaco-workbench .part.panel').textContent().then((t) => t ?? ''), (t) => t.includes(`logs shop/${POD}`), { timeoutMs: 60_000 });
    await backToTable(POD);
    await table.press('s');
    await terminal.waitForRows('the shell', (rows) => rows.some((r) => r.includes(`sh in pod shop/${POD}`)), { timeoutMs: 60_000 });
    const yamlTabs = () => bench.page.locator('.monaco-workbench .part.editor .tab', { hasText: `Pod∕${POD}.yaml` }).count();
    await backToTable(POD);
    await table.press('y');
    await poll('the YAML tab', yamlTabs, (n) => n === 1, { timeoutMs: 30_000 });
    await backToTable(POD);
    await table.press('e');
    await poll('the edit tab beside the YAML', yamlTabs, (n) => n === 2, { timeoutMs: 30_000 });
    await backToTable(POD);
    await table.press('Control+d');
    await ui.quickPick.waitForPicker('Grace period');
    await ui.quickPick.pick('Graceful: 30 s');
    const dialog = await ui.dialog.waitUntilOpen();
    assert.equal(dialog.message, `Delete Pod shop/${POD}?`);
    await shoot('t06-delete-confirmation');
    await ui.dialog.close();
    assert.ok(cluster.server.get('pods', 'shop', POD), 'nothing deleted');
    // The same actions in the row's context menu (the tree's, as far as the row offers them).
    await backToTable(POD);
    await table.rightClickRow(POD);
    const items = await poll('the row\'s context menu', () => ui.menu.items().catch(() => [] as string[]), (xs) => ['Describe', 'Open Object YAML', 'Edit YAML', 'Follow Logs…', 'Open Shell…', 'Port Forward…', 'Delete…'].every((x) => xs.includes(x)), { timeoutMs: 30_000 });
    assert.ok(!items.includes('Cut') && !items.includes('Copy'), `no default items: ${items.join(', ')}`);
    await shoot('t06-row-context-menu');
    await table.press('Escape');
    assert.equal(cluster.server.requests.filter((r) => r.method === 'DELETE').length, 0);
  });

  it('T08 keyboard only: a real grid (role, row and column counts), arrows and j/k move the focused cell, its label read', async () => {
    await backToTable();
    await table.focusGrid();
    await table.press('Home');
    await table.waitFor('the first row focused', (x) => x.activeDescendant.startsWith('cell-0-'));
    // Left until the first column (a click before may have focused any column).
    for (let i = 0; i < 12; i++) await table.press('ArrowLeft');
    let v = await table.waitFor('the first cell focused', (x) => x.activeDescendant === 'cell-0-0');
    assert.equal(v.focusedLabel, `NAMESPACE ${v.rows[0].cells[0]}`);
    assert.equal(v.role, 'grid');
    assert.equal(v.rowCount, String(v.total + 1));
    assert.equal(v.colCount, String(v.headers.length));
    await table.press('j', 'j', 'ArrowDown', 'k', 'ArrowRight');
    v = await table.waitFor('row 3, NAME', (x) => x.activeDescendant === 'cell-2-1');
    const name = v.rows[2].cells[1];
    assert.equal(v.focusedLabel, `NAME ${name}`);
    await table.waitFor('announced', (x) => x.live === `NAME ${name}, row 3 of ${x.total}`);
    await table.press('?');
    await poll('the key help', async () => bench.page.frames().length, () => true);
    await table.press('Escape');
    await table.press('End');
    await table.waitFor('the last row focused', (x) => x.activeDescendant === `cell-${x.total - 1}-1`);
    await shoot('t08-keyboard');
  });

  it('T07 the API server goes down: the banner and every row say stale; back up, live again', async () => {
    await backToTable();
    await cluster.goDown();
    const stale = await table.waitFor('stale', (v) => v.banner.startsWith('⚠ Stale') && v.rows.length > 0 && v.rows.every((r) => r.classes.includes('stale')), { timeoutMs: 60_000 });
    assert.match(stale.banner, /the watch of pods is (unreachable|reconnecting)/);
    await shoot('t07-stale');
    await cluster.comeUp();
    await table.waitFor('live again', (v) => v.banner === '' && v.rows.every((r) => !r.classes.includes('stale')), { timeoutMs: 120_000 });
  });

  it('T12 a hidden and a moved column are kept across a reload of the window', async () => {
    await backToTable();
    await table.focusGrid();
    await table.press('Home');
    for (let i = 0; i < 12; i++) await table.press('ArrowLeft');
    // IP is the 7th column: focus it, hide it; then move STATUS (4th) left of READY.
    for (let i = 0; i < 6; i++) await table.press('ArrowRight');
    await table.waitFor('IP focused', (v) => v.activeDescendant === 'cell-0-6');
    await table.press('Shift+H');
    await table.waitFor('IP hidden', (v) => !v.headers.includes('IP'));
    for (let i = 0; i < 3; i++) await table.press('ArrowLeft');
    await table.waitFor('STATUS focused', (v) => v.activeDescendant === 'cell-0-3');
    await table.press('Alt+ArrowLeft');
    const arranged = await table.waitFor('STATUS before READY', (v) => v.headers.indexOf('STATUS') === v.headers.indexOf('READY') - 1);
    await shoot('t12-columns-before-reload');
    await bench.reload();
    const restored = await table.waitFor('the table restored', (v) => v.title.startsWith('pods') && v.total > 0, { timeoutMs: 120_000 });
    assert.deepEqual(restored.headers, arranged.headers);
    await shoot('t12-columns-after-reload');
  });
});
