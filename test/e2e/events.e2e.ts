/**
 * The remembering events feed in the browser (issue 33 item 2): the packaged .vsix in
 * code-server on two simulated clusters, `simulated` (allowed everything) and `team` (a user who
 * may read events in payments and shop only, and list namespaces). H06 opens the feed from the
 * tree's Events row: warnings first, grouped by object with counts; Show Events on a pod's row
 * filters it to that pod. H07 stops the simulated API server and starts it again: a gap row
 * "no data: watch down …" while it is down and after. H08 opens the team context's feed: per
 * namespace, and the team server never answered an events request with 403.
 * Screenshots in test-results/e2e/ (H06-events-view.png, H07-events-gap.png, H08-events-namespace-user.png).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkbenchUi } from './pages';
import { EventsPanel, type EventsView } from './pages/events-panel';
import { poll } from './support/poll';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import type { PolicyRule } from '../support/apiserver/access-policy';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
/** A user of a shared cluster: everything in payments and shop, and the namespaces' names. */
const TEAM_USER: PolicyRule[] = [
  {
    verbs: ['get', 'list', 'watch'],
    apiGroups: ['', 'apps', 'events.k8s.io'],
    resources: ['pods', 'services', 'configmaps', 'events', 'deployments', 'replicasets'],
    namespaces: ['payments', 'shop'],
    binding: 'team',
  },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'], binding: 'namespace-lister' },
];
const LEDGER_POD = 'ledger-6d5f7c8b9-z9w4c';
/** Its row's title: the generated parts of its name left out (src/ui/tree/short-name.ts). */
const LEDGER_ROW = 'ledger…z9w4c';
const GAP_CLOSED = /^no data: watch down \d{1,2}:\d\d:\d\d[^–]*–\d{1,2}:\d\d:\d\d/;

describe('Events feed in the browser (packaged .vsix in code-server, Chromium): H06 to H08', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let team: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let events: EventsPanel;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const groups = (v: EventsView) => v.rows.filter((r) => r.kind === 'group');

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    const log = (name: string) => (m: string) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[${name}] ${m}\n`);
    cluster = await SimulatedCluster.start({ log: log('simulated') });
    team = await SimulatedCluster.start({ context: 'team', log: log('team') });
    team.server.access.setRules(TEAM_USER);
    bench = await Workbench.start({
      vsix: defaultVsixPath(),
      env: { KUBECONFIG: [cluster.kubeconfigPath, team.kubeconfigPath].join(path.delimiter) },
      settings: { 'kubeWatch.contexts': ['simulated', 'team'] },
    });
    ui = new WorkbenchUi(bench.page);
    events = new EventsPanel(bench.page);
    await ui.openKubeWatch();
    await ui.tree.waitForRow(['simulated', 'Events'], (r) => r.description === 'open to start remembering', { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
    await team?.stop();
  });

  it('H06 the events view on the sandbox shows warnings first, grouped by object with counts; Show Events on a pod filters it to that pod', async () => {
    await ui.tree.click(['simulated', 'Events']);
    const view = await events.waitFor('the sandbox warnings grouped, the crash-looping pod among them', (v) => groups(v).some((g) => g.cells[0] === `Pod payments/${LEDGER_POD}`), { timeoutMs: 90_000 });
    assert.match(view.scope, /^cluster wide \(/);
    assert.equal(view.rows[0].kind, 'section');
    assert.match(view.rows[0].cells[0], /^Warnings \(\d+ objects?\)$/);
    // Every object with a warning comes before every object without one.
    const kinds = view.rows.filter((r) => r.kind === 'group').map((r) => r.warning);
    assert.ok(kinds.indexOf(false) === -1 || kinds.lastIndexOf(true) < kinds.indexOf(false), `warnings first: ${JSON.stringify(kinds)}`);
    const ledger = groups(view).find((g) => g.cells[0] === `Pod payments/${LEDGER_POD}`)!;
    // 6 BackOff warnings and 6 Pulled (at least: the sandbox repeats the crash loop's events).
    assert.match(ledger.cells[1], /^\d+ warnings?$/);
    assert.ok(Number(/^(\d+)/.exec(ledger.cells[1])![1]) >= 6, ledger.cells[1]);
    assert.ok(Number(ledger.cells[2].slice(1)) >= 12, `counts summed: ${ledger.cells[2]}`);
    assert.match(ledger.cells[3], /^\d{1,2}:\d\d:\d\d.* \(.+ ago\)$/);
    // The tree's Events row counts the warnings now that the feed runs.
    await ui.tree.waitForRow(['simulated', 'Events'], (r) => /^\d+ warnings?$/.test(r.description));
    await shoot('H06-events-view');

    await ui.tree.expand(['simulated', 'pods', 'payments']);
    await ui.menu.openOffering(['simulated', 'pods', 'payments', LEDGER_ROW], ['Show Events']);
    await ui.menu.choose('Show Events');
    const pod = await events.waitFor('the pod alone', (v) => groups(v).length === 1 && groups(v)[0].cells[0] === `Pod payments/${LEDGER_POD}`, { timeoutMs: 60_000 });
    assert.ok(pod.rows.every((r) => r.kind !== 'group' || r.cells[0].endsWith(LEDGER_POD)));
    await poll('the tab named after the pod', () => events.tab(`Events: Pod ${LEDGER_POD}`).count(), (n) => n === 1, { timeoutMs: 30_000 });
  });

  it('H07 across an outage of the API server the feed shows a gap row "no data: watch down …", never a quiet period', async () => {
    // Back to the whole feed from the pod's: the panel's own button (the tree may wear a hover from H06's menu).
    await (await events.frameOf()).locator('#subject-clear').click();
    await events.waitFor('the whole feed again', (v) => groups(v).length > 1, { timeoutMs: 60_000 });
    await cluster.goDown();
    const down = await events.waitFor('an open gap', (v) => v.rows.some((r) => r.kind === 'gap' && /^no data: watch down since \d/.test(r.cells[0])), { timeoutMs: 90_000 });
    assert.ok(down.rows.findIndex((r) => r.kind === 'gap') <= 1, 'the open gap is at the top, above what was seen before it');
    await cluster.comeUp();
    // Something happens after the outage: it is drawn above the gap, what came before below it.
    const back = await events.waitFor('the gap closed', (v) => v.rows.some((r) => r.kind === 'gap' && GAP_CLOSED.test(r.cells[0])), { timeoutMs: 150_000 });
    const gapAt = back.rows.findIndex((r) => r.kind === 'gap' && GAP_CLOSED.test(r.cells[0]));
    assert.ok(back.rows.slice(gapAt + 1).some((r) => r.kind === 'group'), 'the events seen before the outage are below the gap');
    cluster.createEvent('shop', 'web-7d9f8b6c4-q8m5z', 'Pod', 'Unhealthy', 'Readiness probe failed after the outage', 'Warning');
    const after = await events.waitFor('the new warning above the gap', (v) => {
      const gap = v.rows.findIndex((r) => r.kind === 'gap' && GAP_CLOSED.test(r.cells[0]));
      const fresh = v.rows.findIndex((r) => r.kind === 'group' && r.cells[0] === 'Pod shop/web-7d9f8b6c4-q8m5z');
      return gap > 0 && fresh >= 0 && fresh < gap;
    }, { timeoutMs: 60_000 });
    assert.ok(after.rows.some((r) => r.kind === 'group'));
    await shoot('H07-events-gap');
  });

  it('H08 a namespace-only user gets the events of their namespaces, watched per namespace, without a 403', async () => {
    // The mouse off the tree first, so that no row's hover covers the one clicked.
    await bench.page.mouse.move(1000, 750);
    await ui.tree.click(['team', 'Events']);
    const view = await events.waitFor('the team feed, per namespace', (v) => /^in payments, shop only: you may not list events cluster wide/.test(v.scope) && groups(v).some((g) => g.cells[0] === `Pod payments/${LEDGER_POD}`), { timeoutMs: 90_000 });
    assert.equal(view.problem, '');
    assert.ok(groups(view).every((g) => / (payments|shop)\//.test(g.cells[0])), groups(view).map((g) => g.cells[0]).join(', '));
    const eventsRequests = team.server.requests.filter((r) => /\/events\b/.test(r.path));
    assert.ok(eventsRequests.length > 0);
    assert.deepEqual(eventsRequests.filter((r) => r.status === 403).map((r) => `${r.method} ${r.path}`), [], 'never refused');
    assert.deepEqual(eventsRequests.filter((r) => !/\/namespaces\//.test(r.path)).map((r) => `${r.method} ${r.path} ${r.status}`), [], 'never cluster wide');
    await shoot('H08-events-namespace-user');
  });
});
