/**
 * Port-forwards and shells in the browser (issue 24): the packaged .vsix in code-server on the
 * simulated cluster, whose pods serve their declared ports (each answers with its name) and run
 * a real `/bin/sh` for exec. A13 forwards the Service `shop/web` from its row and reads the Port
 * Forwards view; A14 kills the only pod of `shop/api` while requests go through a forward of the
 * Deployment in a loop: every request after the switch is answered by the new pod; A15 opens a
 * shell on a pod and types a command; A16 drops the shell's connection: the terminal says so and
 * a new session works. Screenshots in test-results/e2e/ (a13-…, a14-…, a15-…, a16-…).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { SidebarTree, WorkbenchUi } from './pages';
import { ActionUi } from './pages/actions';
import { LogTerminal } from './pages/log-terminal';
import { poll } from './support/poll';
import { podRowTitle } from './support/pod-title';
import type { KubeObject } from '../../src/informer';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { replacePod } from '../../scripts/sandbox/pod-replacer';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const SHELL_POD = 'web-7d9f8b6c4-2xkqp';

/** One GET on a connection of its own: the body, or the error's message. */
function get(port: number): Promise<{ ok: boolean; body: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 60_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ ok: res.statusCode === 200, body: body.trim() }));
      res.on('error', (e) => resolve({ ok: false, body: e.message }));
    });
    req.on('error', (e) => resolve({ ok: false, body: e.message }));
    req.on('timeout', () => req.destroy(new Error('timed out')));
  });
}

describe('Port-forwards and shells in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let actions: ActionUi;
  let forwards: SidebarTree;
  let terminal: LogTerminal;
  const timers = new Set<NodeJS.Timeout>();

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));

  /** Right-click a tree row and run the context menu item `label`. */
  async function contextMenu(rowPath: string[], label: string): Promise<void> {
    for (let i = 1; i < rowPath.length; i++) await ui.tree.expand(rowPath.slice(0, i));
    await ui.menu.run(rowPath, label);
  }

  /** Types into the open input box titled `title` and accepts it. */
  async function answer(title: string, text: string): Promise<void> {
    await actions.answerInput(text, title);
  }

  /**
   * The Port Forwards row whose label, after its state (`ready · `), starts with `prefix`;
   * `accept` reads the state and the description as one text (`ready · pod web-… · 0 open`).
   */
  async function forwardRow(prefix: string, accept: (stateAndDescription: string) => boolean, what: string) {
    const target = (label: string) => label.slice(label.indexOf(' · ') + 3);
    return poll(
      `the Port Forwards row ${prefix}: ${what}`,
      async () => (await forwards.rows()).find((r) => target(r.label).startsWith(prefix)),
      (r) => r !== undefined && accept(`${r.label.split(' · ')[0]} · ${r.description}`),
      { timeoutMs: 60_000 },
    );
  }

  const portOf = (label: string) => Number(/:(\d+)$/.exec(label)![1]);

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, settings: { 'terminal.integrated.gpuAcceleration': 'off' } });
    ui = new WorkbenchUi(bench.page);
    actions = new ActionUi(bench.page, ui.tree);
    forwards = new SidebarTree(bench.page, 'Port Forwards');
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
    for (const t of timers) clearTimeout(t);
    await bench?.stop();
    await cluster?.stop();
  });

  it('A13 Port Forward… on the Service shop/web: the Port Forwards view shows it ready on a web pod, and the local port answers with that pod', async () => {
    await contextMenu(['services', 'shop', 'web'], 'Port Forward…');
    await answer('Port Forward: web 80', '0');
    const row = await forwardRow('svc/web 80 → :', (d) => /^ready · pod web-7d9f8b6c4-\w+ · 0 open · 0 served/.test(d), 'ready');
    const port = portOf(row!.label);
    const answered = await get(port);
    assert.ok(answered.ok && /^web-7d9f8b6c4-\w+$/.test(answered.body), JSON.stringify(answered));
    assert.ok(row!.description.includes(`pod ${answered.body}`), `the row names the pod that answered: ${row!.description}`);
    await forwardRow('svc/web 80', (d) => / · 1 served · /.test(d), 'one served');
    await shoot('a13-port-forward-service');
  });

  it('A14 the only pod of shop/api is killed during a request loop through a forward of the Deployment: every request after the switch is answered by the new pod', async () => {
    await contextMenu(['deployments.apps', 'shop', 'api'], 'Port Forward…');
    // The api pods declare their one port (8080) since the simulated controller copies the whole
    // pod template: the port is not asked, only the local one.
    await answer('Port Forward: api 8080', '0');
    const row = await forwardRow('deploy/api 8080 → ', (d) => d.startsWith('ready · pod api-'), 'ready');
    const port = portOf(row!.label);
    const oldPod = (await get(port)).body;
    assert.match(oldPod, /^api-5c6b7f9d8-\w+$/);
    const answers: Array<{ ok: boolean; body: string }> = [];
    let stop = false;
    const loop = (async () => {
      while (!stop) {
        answers.push(await get(port));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await poll('a few answers before the kill', async () => answers.length, (n) => n >= 5, { timeoutMs: 30_000 });
    const newPod = replacePod(cluster.server, 'shop', oldPod, 2000, timers);
    const next = await newPod;
    await poll('ten answers from the new pod', async () => answers.filter((a) => a.body === next).length, (n) => n >= 10, { timeoutMs: 90_000 });
    stop = true;
    await loop;
    const firstNew = answers.findIndex((a) => a.body === next);
    const after = answers.slice(firstNew);
    assert.deepEqual(after.filter((a) => a.body !== next), [], 'every request after the switch is answered by the new pod');
    const failed = answers.filter((a) => !a.ok);
    assert.ok(failed.length <= 1, `only a request in flight at the switch may fail: ${JSON.stringify(failed)}`);
    await forwardRow('deploy/api 8080', (d) => d.includes(`pod ${next}`), 'on the new pod');
    await shoot('a14-port-forward-pod-replaced');
  });

  it('A15 Open Shell… on a pod: a terminal running sh in the pod; a typed command answers', async () => {
    // The tree titles a Pod without its generated parts (web…2xkqp).
    await contextMenu(['pods', 'shop', podRowTitle(cluster.server.get('pods', 'shop', SHELL_POD) as KubeObject)], 'Open Shell…');
    // The row's Open Shell… comes with its access review's answer (U07); a menu chosen while the row
    // was drawn again runs the command without its row, which then asks for the pod as from the
    // palette: answered with the same pod (a known race, issue 29).
    const opened = await poll('the shell terminal, or the pod picker', async () => ((await terminal.isOpen()) ? 'terminal' : (await ui.quickPick.isOpen()) && (await ui.quickPick.title()).startsWith('Open Shell: pick a pod') ? 'picker' : undefined), (o) => o !== undefined, { timeoutMs: 30_000 });
    if (opened === 'picker') await ui.quickPick.pick(SHELL_POD);
    await poll('the shell terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.waitForRows('the header and a prompt', (rows) => rows.some((r) => r.includes(`sh in pod shop/${SHELL_POD}`)) && rows.some((r) => r.startsWith('$')), { timeoutMs: 60_000 });
    await bench.page.keyboard.type('echo hello-$((6*7)) from $(basename $PWD | cut -c1-14)\n');
    await terminal.waitForRows('the answer', (rows) => rows.some((r) => r === 'hello-42 from kube-watch-pod'), { timeoutMs: 30_000 });
    await shoot('a15-open-shell');
  });

  it('A16 the shell\'s connection drops: the terminal says so (how long, the pod still exists) and Enter starts a new session that works', async () => {
    assert.equal(cluster.server.podStreams.drop('exec'), 1);
    await terminal.waitForRows('the drop told', (rows) => rows.some((r) => /── the connection dropped after \d+\.\d s/.test(r)) && rows.some((r) => r.includes(`pod ${SHELL_POD} still exists`)) && rows.some((r) => r.startsWith('Press Enter to start a new session')), { timeoutMs: 60_000 });
    await shoot('a16-shell-dropped');
    await bench.page.keyboard.press('Enter');
    await terminal.waitForRows('a second header', (rows) => rows.filter((r) => r.includes(`sh in pod shop/${SHELL_POD}`)).length === 2, { timeoutMs: 60_000 });
    await bench.page.keyboard.type('echo again-$((7*6))\n');
    await terminal.waitForRows('the new session answers', (rows) => rows.some((r) => r === 'again-42'), { timeoutMs: 30_000 });
    assert.equal(cluster.server.podStreams.openStreams('exec'), 1);
  });
});
