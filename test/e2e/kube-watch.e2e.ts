/**
 * Kube Watch as a person sees it: the packaged .vsix installed in code-server, a simulated cluster
 * (the local API server) as KUBECONFIG, and Chromium driven through the page objects in pages/.
 * Run with `npm run test:e2e` (which installs code-server and packages the extension first), or
 * `npx mocha --import=tsx --timeout 300000 'test/e2e/*.e2e.ts'` once both are there.
 *
 * The scenarios share one code-server and one cluster (starting them takes tens of seconds here),
 * run in order, and each starts from a known state: overlays closed, every watch live. The outage
 * comes last, because the informers' backoff stays raised for two minutes after it.
 * Every scenario leaves a screenshot of its end state in test-results/e2e/ (also when it fails).
 *
 * No assertion is about time: every check polls the screen with a generous bound.
 * Environment: E2E_VSIX (default <repo>/kube-watch-<version>.vsix), E2E_VERBOSE=1 (code-server's
 * output on stderr), CHROMIUM_PATH, CODE_SERVER_HOME.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Dialog, KUBE_WATCH, WorkbenchUi, type TreeRow } from './pages';
import { poll } from './support/poll';
import { podRowTitle } from './support/pod-title';
import type { KubeObject } from '../../src/informer';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
/** The tree's root labels, in the order of the `kubeWatch.resources` default. */
const ROOTS = [...DEFAULT_WATCHED];
const WATCHING = /^watching · [\d,]+(?: [a-z.]+)? · rv (\d+)$/;

interface ScenarioResult {
  title: string;
  state: string;
  durationMs: number;
  screenshots: string[];
}

describe('Kube Watch in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(240_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  /** Screenshots of the running scenario; afterEach adds its end state. */
  let shots: string[] = [];
  let endShot = '';
  const results: ScenarioResult[] = [];

  const shoot = async (name: string) => {
    const file = path.join(RESULTS, `${name}.png`);
    await bench.screenshot(file);
    shots.push(path.relative(repoRoot, file));
  };

  /** Rows of a parent's children, by label. */
  const childLabels = async (parent: string[]) => (await ui.tree.children(parent)).map((r) => r.label);

  /** Waits until every root reads "watching · rv N" and the status bar `n/n`. */
  const waitAllWatching = async (timeoutMs = 90_000) => {
    await ui.tree.waitForRow([ROOTS[0]]);
    await poll(
      'every resource node to be watching',
      async () => (await ui.tree.children([])).map((r) => `${r.label}: ${r.description}`),
      (rows) => rows.length === ROOTS.length && rows.every((r) => WATCHING.test(r.split(': ')[1] ?? '')),
      { timeoutMs },
    );
    return ui.statusBar.waitForKubeWatch(`${ROOTS.length}/${ROOTS.length}`, (s) => s.text === `${ROOTS.length}/${ROOTS.length}` && s.icon === 'eye' && !s.spinning, { timeoutMs });
  };

  /** Pod names the server has in `namespace`. */
  /** The titles the tree shows for the server's pods of `namespace` (generated name parts left out). */
  const serverPods = (namespace: string) => cluster.server.list('pods', namespace).map((p) => podRowTitle(p as KubeObject));
  const podCount = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    for (const f of fs.readdirSync(RESULTS)) if (f.endsWith('.png') || f === 'summary.json') fs.rmSync(path.join(RESULTS, f));
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
    ui = new WorkbenchUi(bench.page);
  });

  beforeEach(async function () {
    shots = [];
    endShot = '';
    await ui.dismissOverlays();
  });

  afterEach(async function () {
    const test = this.currentTest!;
    await recordFailure(test, bench, cluster?.server);
    if (bench && endShot) {
      await shoot(endShot).catch((err: Error) => process.stderr.write(`screenshot ${endShot}: ${err.message}\n`));
    }
    results.push({ title: test.title, state: test.state ?? 'unknown', durationMs: test.duration ?? 0, screenshots: shots });
  });

  after(async function () {
    this.timeout(120_000);
    if (results.length > 0) {
      fs.writeFileSync(path.join(RESULTS, 'summary.json'), `${JSON.stringify(results, null, 2)}\n`);
      process.stdout.write('\n  scenario times and screenshots (test-results/e2e/):\n');
      for (const r of results) {
        process.stdout.write(`    ${r.state === 'passed' ? 'ok  ' : 'FAIL'} ${(r.durationMs / 1000).toFixed(1).padStart(6)} s  ${r.title}\n`);
        for (const s of r.screenshots) process.stdout.write(`${' '.repeat(19)}${path.basename(s)}\n`);
      }
    }
    await bench?.stop();
    await cluster?.stop();
  });

  it('opens the view and shows the resource types and their objects', async function () {
    endShot = '01-view-resources';
    await ui.activityBar.waitForItem(KUBE_WATCH.container);
    await ui.openKubeWatch();

    await waitAllWatching();
    assert.deepEqual(await childLabels([]), ROOTS);
    const rv = Number(WATCHING.exec((await ui.tree.row(['pods']))!.description)![1]);
    assert.ok(rv > 0 && rv <= Number(cluster.resourceVersion), `pods at rv ${rv}, the server at ${cluster.resourceVersion}`);

    // Namespaced types over all namespaces: grouped by namespace, each with its object count.
    await ui.tree.expand(['pods']);
    const podNamespaces = [...new Set(cluster.server.list('pods').map((p) => p.metadata.namespace!))].sort();
    await poll('the pods namespaces', () => childLabels(['pods']), (labels) => labels.join() === podNamespaces.join());
    const shop = await ui.tree.row(['pods', 'shop']);
    assert.equal(shop?.description, podCount(serverPods('shop').length), 'V21 the count in words');

    await ui.tree.expand(['pods', 'shop']);
    await poll('the pods of shop', () => childLabels(['pods', 'shop']), (labels) => labels.join() === serverPods('shop').join());
    for (const row of await ui.tree.children(['pods', 'shop'])) {
      assert.match(row.description, /^Running · 1\/1 · \d+[smhd]/, `${row.label}: ${row.description}`);
      assert.equal(row.icon, 'pass', `${row.label}'s icon`);
    }
    await ui.tree.expand(['pods', 'default']);
    const debug = await ui.tree.waitForRow(['pods', 'default', 'debug']);
    assert.match(debug.description, /^ContainerCreating · 0\/1/);

    await ui.tree.expand(['deployments.apps']);
    await ui.tree.expand(['deployments.apps', 'shop']);
    const web = await ui.tree.waitForRow(['deployments.apps', 'shop', 'web']);
    assert.match(web.description, /^2\/2 ready · 2 up-to-date · 2 available/);

    const status = await ui.statusBar.readKubeWatch();
    assert.equal(status.ariaLabel, 'Kube Watch: 5 of 5 watches live');
    assert.equal(status.background, 'none');
  });

  it('follows objects created, updated and deleted on the server', async function () {
    endShot = '02-live-create-update-delete';
    await ui.openKubeWatch();
    await waitAllWatching();
    await ui.tree.collapse(['pods', 'default']).catch(() => {});
    const name = 'checkout-6f7d9c8b5-x2v7q';

    // Create, in a namespace nothing else lives in: its namespace node appears with it.
    cluster.createPod('checkout', name, { phase: 'Pending', labels: { app: 'checkout' } });
    await ui.tree.expand(['pods']);
    await ui.tree.waitForRow(['pods', 'checkout'], (r) => r.description === '1 pod');
    await ui.tree.expand(['pods', 'checkout']);
    const created = await ui.tree.waitForRow(['pods', 'checkout', name]);
    assert.match(created.description, /^ContainerCreating( · 0\/1)?/);
    assert.equal(created.icon, 'clock');

    // Update: the row changes in place.
    cluster.updatePod('checkout', name, { phase: 'Running' });
    // A title this long (no controller generated it, so nothing is left out) has its status alone beside it (V27).
    const running = await ui.tree.waitForRow(['pods', 'checkout', name], (r) => r.description === 'Running' || r.description.startsWith('Running · 1/1'));
    assert.equal(running.icon, 'pass');
    cluster.scaleDeployment('shop', 'api', 3, 1);
    await ui.tree.expand(['deployments.apps', 'shop']);
    const api = await ui.tree.waitForRow(['deployments.apps', 'shop', 'api'], (r) => r.description.startsWith('Progressing 1/3 ready'));
    assert.equal(api.icon, 'clock');

    await shoot('02-live-updated');

    // Delete: the row goes, and the namespace node with its last object.
    const deleted = cluster.deletePod('checkout', name)!;
    await ui.tree.waitForNoRow(['pods', 'checkout', name]);
    await ui.tree.waitForNoRow(['pods', 'checkout']);
    const scaled = cluster.scaleDeployment('shop', 'api', 1, 1);
    await ui.tree.waitForRow(['deployments.apps', 'shop', 'api'], (r) => r.description.startsWith('1/1 ready'));

    // The resource nodes follow the resourceVersion of the last event they saw (refreshed at most
    // once a second for a new resourceVersion alone).
    await ui.tree.waitForRow(['pods'], (r) => /^watching · [\d,]+(?: [a-z.]+)? · rv \d+$/.test(r.description ?? "") && (r.description ?? "").endsWith(` · rv ${deleted.metadata.resourceVersion}`));
    await ui.tree.waitForRow(['deployments.apps'], (r) => /^watching · [\d,]+(?: [a-z.]+)? · rv \d+$/.test(r.description ?? "") && (r.description ?? "").endsWith(` · rv ${scaled.metadata.resourceVersion}`));
  });

  it('shows an expiry (410) and the relist in the log while the tree stays right', async function () {
    endShot = '03-expiry-relist';
    await ui.openKubeWatch();
    await waitAllWatching();
    const listsBefore = cluster.server.requests.filter((r) => r.verb === 'list').length;
    const canary = 'expiry-canary';
    const gone = 'web-7d9f8b6c4-q8m5z';
    const marker = `(${cluster.resourceVersion})`; // in the 410's message: "too old resource version: 1 (RV)"

    // The watches end; the re-watch from the old resourceVersion is told it is too old. What
    // changed meanwhile reaches the informers only through the relist.
    cluster.expire(DEFAULT_WATCHED, () => {
      cluster.createPod('shop', canary, { labels: { app: 'canary' } });
      cluster.deletePod('shop', gone);
      const cm = cluster.server.get('configmaps', 'shop', 'web-config')!;
      cluster.server.update('configmaps', { ...cm, data: { LOG_LEVEL: 'debug' } });
    });

    await ui.output.selectChannel(KUBE_WATCH.channel);
    await ui.output.maximize();
    await ui.output.filter('expired,relist');
    const labels = DEFAULT_WATCHED.map((r) => `${cluster.context}/${r}`);
    const lines = await ui.output.waitForLines(
      'an expiry and a relist for every watch',
      (ls) =>
        labels.every(
          (label) =>
            ls.some((l) => l.message.startsWith(`[${label}] expired: resourceVersion`) && l.message.includes(marker)) &&
            ls.some((l) => l.message.startsWith(`[${label}] relist`)),
        ),
      { timeoutMs: 90_000 },
    );
    const expired = lines.find((l) => l.message.startsWith(`[${cluster.context}/pods] expired:`))!;
    assert.equal(expired.level, 'warning');
    assert.match(expired.message, /is too old for the server: too old resource version: 1 \(\d+\)$/);

    // The relists finished, and every watch is live again from the relist's resourceVersion.
    await ui.output.filter('list finished');
    await ui.output.waitForLines('a finished relist for pods', (ls) => ls.filter((l) => l.message.startsWith(`[${cluster.context}/pods] list finished`)).length >= 2);
    await waitAllWatching();
    assert.ok(cluster.server.requests.filter((r) => r.verb === 'list').length >= listsBefore + DEFAULT_WATCHED.length, 'no relist reached the server');

    // The tree shows the server's objects: the one created while away is there, the deleted one is not.
    await ui.tree.expand(['pods', 'shop']);
    await ui.tree.waitForRow(['pods', 'shop', canary]);
    await ui.tree.waitForNoRow(['pods', 'shop', 'web…q8m5z']);
    await poll('the pods of shop to equal the server', () => childLabels(['pods', 'shop']), (labels) => labels.join() === serverPods('shop').join());
    await ui.tree.waitForRow(['pods', 'shop'], (r) => r.description === podCount(serverPods('shop').length));
    // The end state on screen: the expiries and relists beside the tree.
    await ui.output.filter('expired,relist');
  });

  it('"Inspect Resource Version" from the command palette shows the server\'s resourceVersion', async function () {
    endShot = '04-inspect-resource-version';
    await ui.openKubeWatch();
    await waitAllWatching();
    // The last write of the cluster is a pod's, so the pods watch has seen the newest resourceVersion.
    const updated = cluster.updatePod('shop', 'web-7d9f8b6c4-2xkqp', { phase: 'Running', restarts: 1 });
    const rv = updated.metadata.resourceVersion!;
    assert.equal(rv, cluster.resourceVersion);
    await ui.tree.waitForRow(['pods'], (r) => /^watching · [\d,]+(?: [a-z.]+)? · rv \d+$/.test(r.description ?? "") && (r.description ?? "").endsWith(` · rv ${rv}`));

    await ui.quickPick.runCommand(KUBE_WATCH.commands.inspect);
    await ui.quickPick.waitForPicker('Inspect Resource Version');
    const items = await ui.quickPick.items();
    assert.equal(items[0]?.label, 'All watches');
    const podsItem = items.find((i) => i.label === `${cluster.context}/pods`);
    assert.equal(podsItem?.description, `resourceVersion ${rv}`);
    await ui.quickPick.pick(`${cluster.context}/pods`);

    const dialog = await ui.dialog.waitUntilOpen();
    assert.equal(dialog.message, `${cluster.context}/pods: resourceVersion ${rv}`);
    const fields = Dialog.fields(dialog);
    assert.equal(fields.get('Last seen resourceVersion'), rv);
    assert.equal(fields.get('Last seen resourceVersion'), cluster.server.get('pods', 'shop', 'web-7d9f8b6c4-2xkqp')!.metadata.resourceVersion);
    // The pod's update event, or a bookmark the server sent since (it confirms the same resourceVersion).
    assert.match(fields.get('Came from') ?? '', /^a (watch event|bookmark)/);
    assert.match(fields.get('State') ?? '', /^watching/);
    assert.deepEqual(dialog.buttons.filter((b) => b !== 'Cancel').sort(), ['Copy Report', 'Copy resourceVersion']);
  });

  it('the status bar item lists every watch with its state and resourceVersion, and "Show Watch Log" shows the log', async function () {
    endShot = '04-watches-picker';
    await ui.openKubeWatch();
    await waitAllWatching();
    await ui.output.close();
    await ui.statusBar.kubeWatch.click();
    await ui.quickPick.waitForPicker('Kube Watch: Watches');
    const items = await ui.quickPick.items();
    for (const root of ROOTS) {
      const item = items.find((i) => i.label === `${cluster.context}/${root}`);
      assert.ok(item, `a row for ${root} among ${items.map((i) => i.label).join(', ')}`);
      assert.match(item.description, /^watching/, `${root}: its state`);
      const [, rv] = /^resourceVersion (\d+) · ([\d,]+) objects?$/.exec(item.detail) ?? [];
      assert.ok(rv, `${root}: its resourceVersion and object count, not "${item.detail}"`);
      assert.ok(Number(rv) <= Number(cluster.resourceVersion), `${root}: rv ${rv} is one the server has given (now ${cluster.resourceVersion})`);
    }
    const labels = items.map((i) => i.label);
    assert.deepEqual(labels.slice(ROOTS.length), ['Show Watch Health', 'Show Cluster Overview', 'Restart All Watches', 'Inspect All Resource Versions', 'Show Watch Log']);
    await shoot('04-watches-picker-open');
    await ui.quickPick.pick('Show Watch Log');
    await poll('the Output panel with the Kube Watch log', async () => ({ open: await ui.output.isOpen(), channel: await ui.output.channel().catch(() => '') }), (s) => s.open && s.channel === KUBE_WATCH.channel, { timeoutMs: 20_000 });
    // Kube Watch's own lines: each names its watch.
    await ui.output.waitForLines("the Kube Watch log's lines", (lines) => lines.some((l) => l.message.startsWith(`[${cluster.context}/`)), { timeoutMs: 20_000 });
  });

  it("the extension's page shows the README without a broken image", async function () {
    endShot = '04-extension-page';
    await ui.quickPick.runCommand('Extensions: Show Installed Extensions');
    const entry = bench.page.locator('.extensions-viewlet .monaco-list-row').filter({ has: bench.page.locator('.extension-list-item .name', { hasText: /^Kube Watch$/ }) }).first();
    await entry.waitFor({ state: 'visible', timeout: 60_000 });
    await entry.click();
    // Off the list, so the entry's hover card does not cover what is clicked next.
    await bench.page.mouse.move(900, 300);
    await bench.page.locator('.extension-editor').waitFor({ state: 'visible', timeout: 60_000 });
    // The README is drawn in a webview (nested iframes). VS Code drops an image whose source is not
    // http(s) and would show an empty frame: the packaged README names its screenshots in words.
    const readme = await poll(
      "the README in the extension page",
      async () => {
        for (const frame of bench.page.frames()) {
          const page = await frame
            .locator('body')
            .evaluate(
              (body) => ({
                text: body.innerText,
                images: [...body.querySelectorAll('img')].map((img) => ({ alt: img.alt, src: img.getAttribute('src') ?? '', width: img.naturalWidth, complete: img.complete })),
              }),
              undefined,
              { timeout: 2_000 },
            )
            .catch(() => undefined);
          if (page?.text.includes('Try it: two commands')) return page;
        }
        return undefined;
      },
      (page) => page !== undefined && page.images.every((i) => i.complete),
      { timeoutMs: 60_000 },
    );
    const broken = readme!.images.filter((i) => i.src === '' || i.width === 0);
    assert.deepEqual(broken, [], 'no image without a source or that did not load');
    assert.match(readme!.text, /Screenshot, docs\/screenshot\.png in the source repository: Kube Watch on the simulated cluster/);
    await shoot('04-extension-page-readme');
    await bench.page.locator('.context-view').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => bench.page.keyboard.press('Escape'));
    await ui.quickPick.runCommand('View: Close All Editors');
    await ui.openKubeWatch();
  });

  it('"Restart All Watches" leaves exactly one watch per informer on the server', async function () {
    endShot = '05-restart-all-watches';
    await ui.openKubeWatch();
    await waitAllWatching();
    const since = Date.now();
    const requestsSince = (verb: string, resource: string) => cluster.server.requests.filter((r) => r.at >= since && r.verb === verb && r.resource === resource).length;

    await ui.quickPick.runCommand(KUBE_WATCH.commands.restartAll);

    // Every informer started over (a list and a new watch), and the old watches are gone.
    await poll(
      'a new list and watch per informer, and one open watch each',
      async () => DEFAULT_WATCHED.map((r) => ({ resource: r, lists: requestsSince('list', r), watches: requestsSince('watch', r), open: cluster.server.openWatches(r) })),
      (rows) => rows.every((r) => r.lists >= 1 && r.watches >= 1 && r.open === 1),
      { timeoutMs: 90_000 },
    );
    await waitAllWatching();
    // Still exactly one each on a few reads in a row: no watch of the old informers lingers.
    let stable = 0;
    await poll(
      'one open watch per informer on three reads in a row',
      async () => cluster.openWatchCounts(),
      (counts) => {
        stable = Object.values(counts).every((n) => n === 1) ? stable + 1 : 0;
        return stable >= 3;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    assert.deepEqual(cluster.openWatchCounts(), Object.fromEntries(DEFAULT_WATCHED.map((r) => [r, 1])));
    assert.equal(cluster.server.openWatches(), DEFAULT_WATCHED.length);

    await ui.output.selectChannel(KUBE_WATCH.channel);
    await ui.output.maximize();
    await ui.output.filter('restart requested,watch opened');
    await ui.output.waitForLines('a restart line per watch', (ls) =>
      DEFAULT_WATCHED.every((r) => ls.some((l) => l.message === `[${cluster.context}/${r}] restart requested by the Restart All Watches command`)),
    );
  });

  it('shows an outage in the status bar and the resource nodes, then recovers to n/n', async function () {
    this.timeout(300_000);
    endShot = '06-outage-recovered';
    await ui.openKubeWatch();
    await ui.output.close();
    await waitAllWatching();
    await ui.tree.collapseAll();
    await ui.tree.expand(['pods']);
    await ui.tree.expand(['pods', 'shop']);

    await cluster.goDown();
    // Spinning, fewer than all live.
    const down = await ui.statusBar.waitForKubeWatch('a spinning icon and 0/5', (s) => s.spinning && s.icon === 'sync' && s.counts?.watching === 0 && s.counts.total === ROOTS.length, { timeoutMs: 60_000 });
    assert.match(down.ariaLabel, /^Kube Watch: 0 of 5 watches live, 5 failing/);
    const failing = (r: TreeRow) => /^(reconnecting( in \d+ s)?|unreachable: connect ECONNREFUSED 127\.0\.0\.1:\d+)( · [\d,]+( [a-z.]+)?)?( · next try in \d+ s)?$/.test(r.description) && r.icon !== 'eye';
    await poll('every resource node to say it reconnects or is unreachable', () => ui.tree.children([]), (rows) => rows.length === ROOTS.length && rows.every(failing));
    await shoot('06-outage-server-down');

    // Unreachable for more than 30 s: the error background.
    const alarm = await ui.statusBar.waitForKubeWatch('the error background', (s) => s.background === 'error', { timeoutMs: 120_000 });
    assert.equal(alarm.icon, 'error');
    assert.match(alarm.ariaLabel, /needs attention/);
    await poll('every resource node to be unreachable', () => ui.tree.children([]), (rows) => rows.every((r) => r.description.startsWith('unreachable') || r.description.startsWith('reconnecting')));
    await shoot('06-outage-error-background');
    // The objects stay on view, with their last known state.
    assert.deepEqual(await childLabels(['pods', 'shop']), serverPods('shop'));

    await cluster.comeUp();
    const back = await waitAllWatching(120_000);
    assert.equal(back.background, 'none');
    assert.equal(back.ariaLabel, 'Kube Watch: 5 of 5 watches live');
    assert.deepEqual(await childLabels(['pods', 'shop']), serverPods('shop'));

    // The log tells the outage's story: unreachable, then watching again.
    await ui.output.selectChannel(KUBE_WATCH.channel);
    await ui.output.maximize();
    await ui.output.filter('unreachable,watching again');
    await ui.output.waitForLines('a recovery line per watch', (ls) =>
      DEFAULT_WATCHED.every((r) => ls.some((l) => l.message.startsWith(`[${cluster.context}/${r}] watching again after`))),
    );
  });
});
