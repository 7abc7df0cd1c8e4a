/**
 * Describe, live, in the browser: the packaged .vsix in code-server on the simulated cluster.
 * X03 describes a Pod from the tree's context menu, reads its Events at the end of the document,
 * then records a new Event on the server and waits for the open document to show it. X04
 * Ctrl+clicks the "Controlled By" link and reads the ReplicaSet's description in the new editor
 * (ReplicaSets are not watched: the description runs a single-object watch of its own). The
 * second X04 describes the Service shop/web, reads its Endpoints line (from its EndpointSlice,
 * which the simulated cluster's controller keeps current) and Ctrl+clicks the slice's name.
 * Screenshots in test-results/e2e/ (x03-describe-pod.png, x04-describe-owner.png,
 * x04-describe-endpointslice.png).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi } from './pages';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const POD = 'web-7d9f8b6c4-2xkqp';
const OWNER = 'web-7d9f8b6c4';

describe('Describe in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  /**
   * Ctrl+clicks the link `text` until the tab titled with `tab` is the active one. A live
   * description is written again as its object changes (the slice's endpoints come and go with
   * the cluster's churn), and each time the editor finds its links anew: a click aimed at the
   * link drawn a moment ago may find it gone, and is made again, as a user would.
   */
  // A Ctrl+click, as a user does; every other try the cursor is put on the link and the palette's
  // "Open Link" runs (a click Monaco drops while it computes the document's links again is not lost twice).
  let tries = 0;
  const openLink = (text: string, tab: string) =>
    poll(
      `the description tab ${tab} from its link ${text}`,
      async () => {
        const link = ui.editor.link(text);
        await link.waitFor({ state: 'visible', timeout: 30_000 });
        if (tries++ % 2 === 0) await link.click({ modifiers: ['Control'], timeout: 3_000 }).catch(() => undefined);
        else {
          await link.click({ timeout: 3_000 }).catch(() => undefined);
          await ui.quickPick.runCommand('Open Link').catch(() => undefined);
        }
        return poll(`the tab ${tab}`, () => ui.editor.activeTabTitle(), (t) => t.includes(tab), { timeoutMs: 10_000 }).catch(() => '');
      },
      (t) => t.includes(tab),
      { timeoutMs: 90_000 },
    );
  const field = (lines: string[], name: string) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim();

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
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

  it('X03 Describe of a pod shows its events and follows a new event', async () => {
    await ui.tree.expand(['pods']);
    await ui.tree.expand(['pods', 'shop']);
    await ui.menu.run(['pods', 'shop', 'web…2xkqp'], 'Describe');
    await poll('the description tab', () => ui.editor.activeTabTitle(), (t) => t.includes(`Pod\u2215${POD}`), { timeoutMs: 60_000 });

    const top = await ui.editor.waitForLines('the head of the description', 'start', (l) => field(l, 'Name') === POD, { timeoutMs: 60_000 });
    assert.equal(field(top, 'Namespace'), 'shop');
    assert.equal(field(top, 'Status'), 'Running');
    assert.equal(field(top, 'Controlled By'), `ReplicaSet/${OWNER}`);

    // The sandbox recorded Scheduled and Started for this Pod; kubectl's table, newest last.
    const events = await ui.editor.waitForLines('its events', 'end', (l) => l.some((x) => /^\s+Normal\s+Started\s/.test(x)), { timeoutMs: 60_000 });
    const header = events.findIndex((l) => /^\s+Type\s+Reason\s+Age\s+From\s+Message$/.test(l));
    assert.ok(header >= 0, `the Events table header in\n${events.join('\n')}`);
    const rows = events.slice(header + 2).filter((l) => l.trim());
    assert.deepEqual(rows.map((l) => l.trim().split(/\s+/)[1]), ['Scheduled', 'Started']);

    // A new Event on the server: the open document follows.
    cluster.createEvent('shop', POD, 'Pod', 'Killing', 'Stopping container web (the browser test X03)', 'Normal');
    const followed = await ui.editor.waitForLines('the new event at the end', 'end', (l) => l.some((x) => x.includes('Stopping container web (the browser test X03)')), { timeoutMs: 60_000 });
    const newRows = followed.slice(followed.findIndex((l) => /^\s+Type\s+Reason/.test(l)) + 2).filter((l) => l.trim());
    assert.deepEqual(newRows.map((l) => l.trim().split(/\s+/)[1]), ['Scheduled', 'Started', 'Killing'], 'newest last');
    assert.match(newRows[2], /^\s+Normal\s+Killing\s+\d+s\s+kubelet\s+Stopping container web/);
    await shoot('x03-describe-pod');
  });

  it("X04 the owner link opens the ReplicaSet's description", async () => {
    await ui.editor.waitForLines('the owner link in view', 'start', (l) => field(l, 'Controlled By') === `ReplicaSet/${OWNER}`, { timeoutMs: 30_000 });
    await openLink(`ReplicaSet/${OWNER}`, `ReplicaSet\u2215${OWNER}`);
    const lines = await ui.editor.waitForLines("the ReplicaSet's description", 'start', (l) => field(l, 'Name') === OWNER, { timeoutMs: 90_000 });
    assert.equal(field(lines, 'Namespace'), 'shop');
    assert.equal(field(lines, 'Controlled By'), 'Deployment/web', 'the owner chain goes on: the ReplicaSet links its Deployment');
    assert.match(field(lines, 'Replicas') ?? '', /^\d+ current \/ 2 desired$/);
    await ui.editor.link('Deployment/web').waitFor({ state: 'visible', timeout: 30_000 });
    await shoot('x04-describe-owner');
  });

  it("X04 a Service's EndpointSlice link opens the slice's description", async () => {
    const slice = cluster.server.list('endpointslices.discovery.k8s.io', 'shop').find((s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'web');
    assert.ok(slice, 'the simulated cluster keeps an EndpointSlice for shop/web');
    const sliceName = slice.metadata.name;
    await ui.tree.expand(['services']);
    await ui.tree.expand(['services', 'shop']);
    await ui.menu.run(['services', 'shop', 'web'], 'Describe');
    await poll('the Service description tab', () => ui.editor.activeTabTitle(), (t) => t.includes('Service\u2215web'), { timeoutMs: 60_000 });

    // Two ready web Pods behind port 80: kubectl 1.33+'s Endpoints line from the slice, then the slice itself.
    const svc = await ui.editor.waitForLines("the Service's endpoints", 'start', (l) => field(l, 'EndpointSlices') === sliceName && /^[\d.]+:80,[\d.]+:80$/.test(field(l, 'Endpoints') ?? ''), { timeoutMs: 90_000 });
    assert.equal(field(svc, 'Selector'), 'app=web');
    assert.equal(field(svc, 'Port'), '<unset>  80/TCP');
    await openLink(sliceName, `EndpointSlice\u2215${sliceName}`);
    const targetRefs = (l: string[]) => l.filter((x) => /^\s+TargetRef:/.test(x)).map((x) => x.trim().split(/\s+/)[1]);
    // Monaco renders only the lines in view: the second endpoint is read from the end.
    const tail = await ui.editor.waitForLines("the slice's last endpoint", 'end', (l) => targetRefs(l).includes('Pod/web-7d9f8b6c4-q8m5z'), { timeoutMs: 90_000 });
    assert.match(tail.filter((l) => l.trim()).slice(-1)[0] ?? '', /^Events:\s+<none>$/);
    const lines = await ui.editor.waitForLines("the slice's description", 'start', (l) => field(l, 'Name') === sliceName && targetRefs(l).includes('Pod/web-7d9f8b6c4-2xkqp'), { timeoutMs: 30_000 });
    assert.equal(field(lines, 'Namespace'), 'shop');
    assert.equal(field(lines, 'AddressType'), 'IPv4');
    assert.equal(targetRefs(lines)[0], 'Pod/web-7d9f8b6c4-2xkqp');
    await ui.editor.link('Pod/web-7d9f8b6c4-2xkqp').waitFor({ state: 'visible', timeout: 30_000 });
    await shoot('x04-describe-endpointslice');
  });
});
