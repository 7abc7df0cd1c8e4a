/**
 * The Watch Health panel in the browser: the packaged .vsix in code-server on the simulated
 * cluster, as kube-watch.e2e.ts sets it up. X01 opens the panel from the status bar; X02 takes
 * the API server down and up again and reads the outage from the band's own data (the spans'
 * times are on the panel's clock, the extension host's), never from how long the screen took.
 * Screenshots in test-results/e2e/ (x01-health-panel.png, x02-health-outage.png).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi, type WatchBand } from './pages';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
/** The band states of a watch that is down for a reason outside it (the tree's words: reconnecting, backing off, unreachable). */
const OUTAGE = new Set(['reconnecting', 'backing-off', 'unreachable']);
/** The bound: the outage shows in the band within 2 s of the fault, on the panel's clock. */
const WITHIN_MS = 2000;

describe('Watch Health panel in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const watching = (w: WatchBand) => w.state === 'watching' && w.spans.at(-1)?.state === 'watching' && w.spans.at(-1)?.open === true;

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
    ui = new WorkbenchUi(bench.page);
    await ui.openKubeWatch();
    await ui.statusBar.waitForKubeWatch(`${DEFAULT_WATCHED.length}/${DEFAULT_WATCHED.length}`, (s) => s.text === `${DEFAULT_WATCHED.length}/${DEFAULT_WATCHED.length}` && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    cluster?.stopChurn();
    await bench?.stop();
    await cluster?.stop();
  });

  it('X01 the Watch Health panel opens from the status bar and shows a band per watch', async () => {
    cluster.startChurn(700);
    // An expiry and its relist, so the bands carry markers.
    cluster.expire();
    await ui.statusBar.kubeWatch.click();
    await ui.quickPick.waitForPicker('Kube Watch: Watches');
    await ui.quickPick.pick('Show Watch Health');
    await poll('the Watch Health tab', () => ui.health.isOpen(), (open) => open, { timeoutMs: 30_000 });

    const view = await ui.health.waitFor(
      'a watching band per watch, with expiry and relist markers, and a drawn chart',
      (v) => v.watches.length === DEFAULT_WATCHED.length && v.watches.every((w) => watching(w) && w.chart && w.markers.some((m) => m.kind === 'expired') && w.markers.some((m) => m.kind === 'relist')),
      { timeoutMs: 120_000 },
    );
    assert.deepEqual(view.watches.map((w) => w.label.replace(/^simulated\//, '')).sort(), [...DEFAULT_WATCHED].sort());
    for (const w of view.watches) {
      // Contiguous spans in time order, the last one reaching the panel's clock.
      for (let i = 1; i < w.spans.length; i++) assert.ok(w.spans[i].from >= w.spans[i - 1].to - 1, `${w.label}: spans in order`);
      assert.equal(w.spans.at(-1)!.to, view.now, `${w.label}: the open span ends at the panel's now`);
      assert.match(w.stateText, /^watching · rv \d+$/);
      assert.match(w.facts, /resourceVersion \d+ from (a list|a watch event|a bookmark), .* ago · HTTP\/(1\.1|2)/);
      const expired = w.markers.find((m) => m.kind === 'expired')!;
      assert.match(expired.title, new RegExp(`\\[simulated/[^\\]]+\\] expired: resourceVersion \\d+ is too old`), 'the marker hovers with its log line');
    }
    // Live: later snapshots follow on the panel's clock.
    await ui.health.waitFor('a later snapshot', (v) => v.serial > view.serial && v.now > view.now, { timeoutMs: 30_000 });
    // The rate chart gets the churn.
    await ui.health.waitFor('changes counted', (v) => v.watches.some((w) => /[1-9]\d* (adds|updates)/.test(w.facts)), { timeoutMs: 60_000 });
    cluster.stopChurn();
    await shoot('x01-health-panel');
  });

  it('X02 an outage in the sandbox appears in the band within 2 s of the fault on the panel clock, and ends when the watch is back', async () => {
    if (!(await ui.health.isOpen())) await ui.quickPick.runCommand('Kube Watch: Show Watch Health');
    const before = await ui.health.waitFor('every watch watching', (v) => v.watches.length === DEFAULT_WATCHED.length && v.watches.every(watching), { timeoutMs: 120_000 });
    // The fault's instant; the extension host reads the same system clock as this process.
    const faultAt = Date.now();
    await cluster.goDown();
    const down = await ui.health.waitFor(
      'an outage span on every band',
      (v) => v.watches.every((w) => w.spans.some((s) => OUTAGE.has(s.state) && s.from >= faultAt - WITHIN_MS)),
      { timeoutMs: 60_000 },
    );
    for (const w of down.watches) {
      const outage = w.spans.find((s) => OUTAGE.has(s.state) && s.from >= faultAt - WITHIN_MS)!;
      assert.ok(outage.from - faultAt <= WITHIN_MS, `${w.label}: the outage starts ${outage.from - faultAt} ms after the fault on the panel's clock`);
      assert.ok(outage.from >= before.now - WITHIN_MS, `${w.label}: a new span, after the panel last saw it watching`);
    }
    // Down for 10 s of the panel's clock, so the band shows the watches giving up on the server.
    await ui.health.waitFor('10 s of outage', (v) => v.now - faultAt >= 10_000, { timeoutMs: 60_000 });
    await shoot('x02-health-outage-down');

    await cluster.comeUp();
    const back = await ui.health.waitFor('every watch watching again', (v) => v.watches.every(watching), { timeoutMs: 150_000 });
    for (const w of back.watches) {
      const outage = w.spans.filter((s) => s.from >= faultAt - WITHIN_MS);
      const trouble = outage.filter((s) => OUTAGE.has(s.state));
      assert.ok(trouble.length > 0, `${w.label}: the outage is still on the band`);
      assert.ok(trouble.every((s) => !s.open), `${w.label}: the outage has ended`);
      const last = w.spans.at(-1)!;
      assert.ok(last.from >= trouble.at(-1)!.to, `${w.label}: watching again after it`);
    }
    // A few seconds of watching after the outage, so the screenshot shows the whole story.
    await ui.health.waitFor('watching for a few seconds', (v) => v.watches.every((w) => watching(w) && v.now - w.spans.at(-1)!.from > 8000), { timeoutMs: 60_000 });
    await shoot('x02-health-outage');
  });
});
