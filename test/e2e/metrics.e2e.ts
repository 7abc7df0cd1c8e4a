/**
 * CPU and memory from metrics.k8s.io, and the cluster overview, in the browser: the packaged .vsix
 * in code-server on the simulated cluster, which serves PodMetrics and NodeMetrics with samples
 * that change every 5 s here (metrics resolution and `kubeWatch.metrics.intervalSeconds` both 5).
 * One code-server for the file; the cluster's metrics API is switched between the rows:
 * T09 the pods' rows and Describe show CPU and memory, and they change; T10 the API removed: its
 * own note ("metrics-server not installed"), never N/A; T11 the user forbidden: "forbidden";
 * T13 the overview's counts match the cluster and a count opens its kind.
 * Screenshots in test-results/e2e/ (t09-*.png, t10-*.png, t11-*.png, t13-*.png).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { WorkbenchUi } from './pages';
import { TablePanel } from './pages/table-panel';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const POD = 'web-7d9f8b6c4-2xkqp';
const USAGE = /· (\d+)m (\d+)Mi$/;

/** The overview's page among the workbench's frames (the one with `#counts`). */
async function overviewFrame(page: Page): Promise<Frame> {
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    if ((await frame.locator('body #counts').count().catch(() => 0)) === 1) return frame;
  }
  throw new Error('no Cluster Overview page among the frames');
}

interface OverviewView {
  serial: number;
  health: string;
  counts: { kind: string; group: string; count: number | undefined }[];
  warnings: string;
  nodes: string;
}

async function readOverview(page: Page): Promise<OverviewView> {
  const frame = await overviewFrame(page);
  return frame.locator('body').evaluate((body) => ({
    serial: Number(body.getAttribute('data-serial') ?? 0),
    health: body.querySelector('#health')?.textContent ?? '',
    counts: [...body.querySelectorAll('button.count')].map((b) => ({ kind: b.getAttribute('data-kind') ?? '', group: b.getAttribute('data-group') ?? '', count: b.hasAttribute('data-count') ? Number(b.getAttribute('data-count')) : undefined })),
    warnings: body.querySelector('#warnings-heading')?.textContent ?? '',
    nodes: body.querySelector('#nodes')?.textContent ?? '',
  }));
}

describe('Metrics and the cluster overview in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const podRow = () => poll('the pod row of shop', () => ui.tree.children(['pods', 'shop']), (rows) => rows.some((r) => r.label.includes('2xkqp')), { timeoutMs: 60_000 }).then((rows) => rows.find((r) => r.label.includes('2xkqp'))!);
  const usageOf = async () => USAGE.exec((await podRow()).description);
  const usageLines = (what: string, accept: (lines: string[]) => boolean) =>
    ui.editor.waitForLines(what, 'end', (l) => accept(l.slice(l.findIndex((x) => x.startsWith('Usage (metrics.k8s.io):')))) && l.some((x) => x.startsWith('Usage (metrics.k8s.io):')), { timeoutMs: 90_000 });

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ metricsResolutionMs: 5000, log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, settings: { 'kubeWatch.metrics.intervalSeconds': 5 } });
    ui = new WorkbenchUi(bench.page);
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

  it("T09 CPU and memory show on the sandbox's pod rows and in Describe, and they change", async () => {
    await ui.tree.expand(['pods']);
    await ui.tree.expand(['pods', 'shop']);
    const first = await poll('CPU and memory on the pod row', usageOf, (m) => m !== null, { timeoutMs: 90_000 });
    // Only the expanded namespace's metrics are listed (discovery aside), one list per interval, never per pod.
    const metricsPaths = () => new Set(cluster.server.requests.filter((r) => r.path.startsWith('/apis/metrics.k8s.io/v1beta1/')).map((r) => r.path));
    assert.deepEqual([...metricsPaths()], ['/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods']);
    // A new sample every 5 s: the row reads differently within a few.
    await poll('the row to show a new sample', usageOf, (m) => m !== null && (m[1] !== first![1] || m[2] !== first![2]), { timeoutMs: 90_000 });
    const row = await podRow();
    await shoot('t09-tree-usage');

    await ui.menu.run(['pods', 'shop', row.label], 'Describe');
    await poll('the description tab', () => ui.editor.activeTabTitle(), (t) => t.includes(`Pod\u2215${POD}`), { timeoutMs: 60_000 });
    const lines = await usageLines('the Usage section', (u) => u.some((x) => /^ {2}CPU: {5}\d+m \(no request set\)$/.test(x)));
    const cpuLine = lines.find((x) => /^ {2}CPU: {5}\d+m/.test(x))!;
    assert.ok(lines.some((x) => /^ {2}Sample: {2}sampled \d+s ago over 15s \(/.test(x)), lines.join('\n'));
    await usageLines('a new sample and the session sparkline', (u) => u.some((x) => /^ {2}CPU over the session: +[▁▂▃▄▅▆▇█]{2,} \(\d+ samples\)$/.test(x)) && !u.includes(cpuLine));
    await shoot('t09-describe-usage');
  });

  it('T10 a cluster without the metrics API says "metrics-server not installed", never N/A', async () => {
    cluster.server.metrics.mode = 'absent';
    const lines = await usageLines('the no-API note in Describe', (u) => u.includes('  no metrics API on this cluster (metrics-server not installed)'));
    assert.ok(!lines.some((l) => /\bN\/A\b/i.test(l)));
    // The row says nothing it cannot know (its hover says why: the pod rows' ages tick each second, closing hovers).
    await poll('the pod row without usage', () => podRow(), (r) => !USAGE.test(r.description) && !/N\/A/i.test(r.description), { timeoutMs: 60_000 });
    await shoot('t10-no-metrics-api');
  });

  it('T11 a user forbidden from metrics.k8s.io reads "forbidden"', async () => {
    cluster.server.metrics.mode = 'forbidden';
    const lines = await usageLines('the forbidden note in Describe', (u) => u.includes('  forbidden: you may not read metrics.k8s.io here'));
    assert.ok(!lines.some((l) => /\bN\/A\b|metrics-server not installed/i.test(l)), 'its own note, not the other');
    assert.ok(cluster.server.requests.some((r) => r.path.startsWith('/apis/metrics.k8s.io/') && r.status === 403), 'the server refused with 403');
    await shoot('t11-forbidden');
    cluster.server.metrics.mode = 'served';
  });

  it("T13 the overview's counts match the cluster and a count opens its kind", async () => {
    await ui.quickPick.runCommand('Kube Watch: Show Cluster Overview');
    const expected: Record<string, number> = {
      Pod: cluster.server.list('pods').length,
      Deployment: cluster.server.list('deployments.apps').length,
      Service: cluster.server.list('services').length,
      ConfigMap: cluster.server.list('configmaps').length,
    };
    const view = await poll(
      'the overview with the cluster counts',
      () => readOverview(bench.page).catch(() => ({ serial: 0, health: '', counts: [], warnings: '', nodes: '' }) as OverviewView),
      (v) => v.serial > 0 && Object.entries(expected).every(([kind, n]) => v.counts.find((c) => c.kind === kind)?.count === n),
      { timeoutMs: 90_000 },
    );
    assert.equal(view.counts.find((c) => c.kind === 'Event')?.count, cluster.server.list('events').length);
    assert.match(view.health, /^Watches: 5\/5 watching$/);
    assert.match(view.warnings, /^Warnings in the last hour: \d+$/);
    assert.match(view.nodes, /Nodes are not watched/);
    await shoot('t13-overview');
    // A count opens its kind's table, with a row per object on the cluster.
    const frame = await overviewFrame(bench.page);
    await frame.locator('button.count[data-kind="Deployment"]').click();
    const table = new TablePanel(bench.page);
    const deployments = await poll('the deployments table with every Deployment a row', () => table.read().catch(() => undefined), (t) => t !== undefined && /deployments/.test(t.title) && t.total === expected.Deployment, { timeoutMs: 60_000 });
    // Its usage columns are the sums of each Deployment's pods, from the metrics the sandbox serves.
    const cpu = deployments!.headers.indexOf('CPU');
    assert.ok(cpu > 0 && deployments!.headers.includes('MEM'), `usage columns: ${JSON.stringify(deployments!.headers)}`);
    await poll('a Deployment with a CPU sum', () => table.read(), (t) => t.rows.some((r) => /^\d+m$/.test(r.cells[cpu] ?? '')), { timeoutMs: 60_000 });
    await shoot('t13-count-opens-kind');
  });
});
