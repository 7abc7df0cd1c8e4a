/**
 * Follow Logs in the browser: the packaged .vsix in code-server on the simulated cluster, whose
 * Running pods write a log line every second. X05 follows `payments/ledger-6d5f7c8b9-b7n2k`
 * (its lines carry `batch=N`, one per second, N going up by one: a duplicated or lost line shows
 * as a repeated or skipped N), drops the log connection on the server and reads the resumption
 * from xterm's DOM rows. X06 closes the Watch Health panel and the log terminal and checks that
 * the server has no log stream open any more. "X05 … on a Deployment" follows every pod of
 * `shop/web` from the tree's context menu (each line prefixed `[pod/NAME/main]`; the web lines'
 * client address `10.244.0.N` goes up by one a second, so a repeated or skipped line shows), drops
 * both log connections and reads each stream's resumption. Screenshots in test-results/e2e/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi } from './pages';
import { LogTerminal } from './pages/log-terminal';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const POD = 'ledger-6d5f7c8b9-b7n2k';
const GAP_MARKER = /── reconnected, \d+ s gap ──/;
const WEB_LINE = /^\[pod\/(web-[a-z0-9]+-[a-z0-9]+)\/main\] 10\.244\.0\.(\d+) - - \[/;
const WEB_MARKER = /── \[pod\/(web-[a-z0-9]+-[a-z0-9]+)\/main\] reconnected, \d+ s gap ──/;

/** Per pod of shop/web: the client address octets of its lines in screen order, and where its gap marker is among them. */
function readWorkloadLog(rows: string[]): Map<string, { octets: number[]; markerAt: number }> {
  const pods = new Map<string, { octets: number[]; markerAt: number }>();
  const of = (pod: string) => pods.get(pod) ?? pods.set(pod, { octets: [], markerAt: -1 }).get(pod)!;
  for (const row of rows) {
    const marker = WEB_MARKER.exec(row);
    if (marker) of(marker[1]).markerAt = of(marker[1]).octets.length;
    const line = WEB_LINE.exec(row);
    if (line) of(line[1]).octets.push(Number(line[2]));
  }
  return pods;
}

/** The sandbox writes `10.244.0.${(n % 200) + 10}` for its n-th line: the next line's octet. */
const nextOctet = (o: number) => (o === 209 ? 10 : o + 1);

/** The `batch=N` of each log row, in screen order, and where the gap marker is among them. */
function readLog(rows: string[]): { batches: number[]; markerAt: number } {
  const batches: number[] = [];
  let markerAt = -1;
  for (const row of rows) {
    if (GAP_MARKER.test(row)) markerAt = batches.length;
    const m = / INFO {2}settlement window=15m batch=(\d+) /.exec(row);
    if (m) batches.push(Number(m[1]));
  }
  return { batches, markerAt };
}

describe('Follow Logs in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let terminal: LogTerminal;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({
      vsix: defaultVsixPath(),
      env: { KUBECONFIG: cluster.kubeconfigPath },
      // DOM rows, so the test can read the terminal.
      settings: { 'terminal.integrated.gpuAcceleration': 'off' },
    });
    ui = new WorkbenchUi(bench.page);
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
  });

  it('X05 Follow Logs shows new lines in a terminal, and after the server drops the connection resumes with no duplicated line and a gap marker', async () => {
    await ui.quickPick.runCommand('Kube Watch: Follow Logs…');
    await ui.quickPick.waitForPicker('Follow Logs: pick a pod or a workload');
    await ui.quickPick.input.fill(POD);
    await ui.quickPick.pick(POD);
    await poll('the log terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.maximize();
    const first = await terminal.waitForRows('the header and three log lines', (rows) => rows.some((r) => r.includes(`following payments/${POD}, container main`)) && readLog(rows).batches.length >= 3, { timeoutMs: 60_000 });
    const before = readLog(first).batches;
    for (let i = 1; i < before.length; i++) assert.equal(before[i], before[i - 1] + 1, `consecutive lines before the drop: ${before.join(',')}`);
    assert.equal(cluster.openLogStreams, 1, 'one log stream open on the server');

    const dropped = cluster.dropLogConnections('reset');
    assert.equal(dropped, 1);
    const after = await terminal.waitForRows(
      'a gap marker with lines before and three after it',
      (rows) => {
        const log = readLog(rows);
        return log.markerAt > 0 && log.batches.length - log.markerAt >= 3;
      },
      { timeoutMs: 90_000 },
    );
    const log = readLog(after);
    for (let i = 1; i < log.batches.length; i++) {
      assert.equal(log.batches[i], log.batches[i - 1] + 1, `every line once and in order across the resumption (marker before line ${log.markerAt}): ${log.batches.join(',')}`);
    }
    assert.equal(after.filter((r) => GAP_MARKER.test(r)).length, 1, 'one gap marker');
    await poll('the stream open again on the server', async () => cluster.openLogStreams, (n) => n === 1, { timeoutMs: 30_000 });
    await shoot('x05-follow-logs-resumed');
  });

  it('X06 closing the Watch Health panel and the log terminal leaves no log stream open on the server', async () => {
    if (!(await terminal.isOpen())) throw new Error('X05 left no log terminal');
    assert.equal(cluster.openLogStreams, 1);
    // The editor area (with the panel's tab) is hidden while the terminal panel is maximized.
    await terminal.restore();
    await ui.quickPick.runCommand('Kube Watch: Show Watch Health');
    await poll('the Watch Health tab', () => ui.health.isOpen(), (open) => open, { timeoutMs: 30_000 });
    // (The tab's close button is drawn on hover only: close it the keyboard user's way.)
    await ui.quickPick.runCommand('View: Close All Editors');
    await poll('the Watch Health tab closed', () => ui.health.isOpen(), (open) => !open, { timeoutMs: 30_000 });
    await ui.quickPick.runCommand('Terminal: Kill the Active Terminal Instance');
    await poll('the log terminal closed', () => terminal.isOpen(), (open) => !open, { timeoutMs: 30_000 });
    await poll('no log stream open on the server', async () => cluster.openLogStreams, (n) => n === 0, { timeoutMs: 30_000 });
    // And none comes back: a stopped follower has no backoff timer left to reconnect with.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(cluster.openLogStreams, 0, 'no reconnection after the terminal closed');
    await shoot('x06-log-terminal-closed');
  });

  it('X05 Follow Logs on a Deployment follows each of its pods with its prefix, and after the server drops the connections resumes every stream with no duplicated line; closing leaves no stream', async () => {
    assert.equal(cluster.openLogStreams, 0, 'no log stream before');
    await ui.tree.expand(['deployments.apps']);
    await ui.tree.expand(['deployments.apps', 'shop']);
    await ui.menu.run(['deployments.apps', 'shop', 'web'], 'Follow Logs…');
    await poll('the log terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.maximize();

    // (The header scrolls off at once: each pod starts with its last 10 lines, two rows each.)
    const first = await terminal.waitForRows('three lines of each pod', (rows) => [...readWorkloadLog(rows).values()].filter((p) => p.octets.length >= 3).length === 2, { timeoutMs: 60_000 });
    assert.deepEqual([...readWorkloadLog(first).keys()].sort(), ['web-7d9f8b6c4-2xkqp', 'web-7d9f8b6c4-q8m5z']);
    await poll('two log streams on the server', async () => cluster.openLogStreams, (n) => n === 2, { timeoutMs: 30_000 });

    assert.equal(cluster.dropLogConnections('reset'), 2);
    const after = await terminal.waitForRows(
      "each pod's gap marker with three of its lines after it",
      (rows) => {
        const pods = [...readWorkloadLog(rows).values()];
        return pods.length === 2 && pods.every((p) => p.markerAt > 0 && p.octets.length - p.markerAt >= 3);
      },
      { timeoutMs: 90_000 },
    );
    for (const [pod, log] of readWorkloadLog(after)) {
      for (let i = 1; i < log.octets.length; i++) {
        assert.equal(log.octets[i], nextOctet(log.octets[i - 1]), `${pod}: every line once and in order across the resumption (marker before line ${log.markerAt}): ${log.octets.join(',')}`);
      }
    }
    assert.equal(after.filter((r) => WEB_MARKER.test(r)).length, 2, 'one gap marker per stream');
    await poll('both streams open again on the server', async () => cluster.openLogStreams, (n) => n === 2, { timeoutMs: 30_000 });
    await shoot('x05-follow-logs-deployment');

    await terminal.restore();
    await ui.quickPick.runCommand('Terminal: Kill the Active Terminal Instance');
    await poll('the log terminal closed', () => terminal.isOpen(), (open) => !open, { timeoutMs: 30_000 });
    await poll('no log stream open on the server', async () => cluster.openLogStreams, (n) => n === 0, { timeoutMs: 30_000 });
  });
});
