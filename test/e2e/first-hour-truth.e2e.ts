/**
 * A newcomer's first hour (issue 29), what the screen says being true, in code-server through
 * Chromium with the packaged .vsix:
 * U02 a forward to a Service whose pod does not listen on the port: each HTTP request through it
 * gets a 503 that says why, the Port Forwards row reads `failing · …` with the reason in the
 * warning colour; once the pod listens, a request succeeds and the row reads `ready` again;
 * U03 a forward answered normally: N sequential curl-like requests, then the pod deleted with
 * none in flight: the row counts exactly N served and none cut;
 * U06 after the extension host was stopped (SIGSTOP, as a closed lid) and resumed, every watch
 * reads `watching` again within a few seconds although no bookmark or event arrives (quiet
 * types), each re-opened from its resourceVersion, and the Watch Health panel draws catching up
 * as its own state.
 *
 * Its own code-server and simulated cluster: no churn, and bookmarks every 10 minutes, so that
 * nothing but the resume itself can make a watch current (first-hour.e2e.ts takes the stream
 * rights away in U07; view-a.e2e.ts sends bookmarks every 5 s). The pods' keep-alive is nginx's
 * kind (held long), so a curl-like client closes its side first. Run with
 * `npx mocha --import=tsx --timeout 300000 test/e2e/first-hour-truth.e2e.ts` after
 * `npm run package`. Nothing asserts on time but U06's bound, on the extension's own log
 * timestamps; the screen is polled with generous bounds. Screenshots in test-results/e2e/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { KUBE_WATCH, SidebarTree, WorkbenchUi } from './pages';
import { ActionUi } from './pages/actions';
import { poll } from './support/poll';
import { hoverText } from './support/hover';
import { extensionHost, processState } from './support/processes';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';
import type { TreeRow } from './pages/sidebar-tree';
import type { HealthView } from './pages/health-panel';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const ROOTS = [...DEFAULT_WATCHED];
const ALL = `${ROOTS.length}/${ROOTS.length}`;
/** How long the extension host is stopped (the lid: about 20 s). */
const STOPPED_MS = 20_000;
/** The issue asks for "within 2 s"; measured on the extension's own log, with room for a loaded machine. */
const REOPEN_WITHIN_MS = 5_000;

/** Runs in the page (a string, so the test's compiler adds nothing): an element's drawn colour and the colour a CSS value draws. */
const COLORS = new Function('el', 'value', `const probe = document.createElement('span');
  probe.style.color = value;
  el.parentElement.appendChild(probe);
  const theme = getComputedStyle(probe).color;
  probe.remove();
  return { icon: getComputedStyle(el).color, theme, inherited: getComputedStyle(el.parentElement).color };`) as (el: unknown, value: string) => { icon: string; theme: string; inherited: string };

/** One GET on a connection of its own: status and body, or the error's message as the body. */
function get(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 60_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (e) => resolve({ status: 0, body: e.message }));
    });
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.on('timeout', () => req.destroy(new Error('timed out')));
  });
}

/** A connection as curl makes one: a request (keep-alive), the whole answer, then this side closes. */
function curl(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let text = '';
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      const m = /\r\nContent-Length: (\d+)\r\n[\s\S]*?\r\n\r\n([\s\S]*)$/i.exec(text);
      if (m && Buffer.byteLength(m[2]) >= Number(m[1])) {
        socket.destroy();
        resolve(m[2]);
      }
    });
    socket.write('GET / HTTP/1.1\r\nHost: counter\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n\r\n');
  });
}

/** The Kube Watch output channel's lines (its file in the profile), each with its time. */
function kubeWatchLog(userDataDir: string): Array<{ at: number; text: string }> {
  const logs = path.join(userDataDir, 'logs');
  const files = fs.existsSync(logs) ? fs.readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === 'Kube Watch.log') : [];
  const lines: Array<{ at: number; text: string }> = [];
  for (const f of files) {
    for (const line of fs.readFileSync(path.join(logs, f), 'utf8').split('\n')) {
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] (.*)$/.exec(line);
      if (m) lines.push({ at: Date.parse(`${m[1]}T${m[2]}`), text: m[3] });
    }
  }
  return lines.sort((a, b) => a.at - b.at);
}

describe('The first hour in the browser: forwards and watches that tell the truth (U02, U03, U06)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let actions: ActionUi;
  let forwards: SidebarTree;
  let stoppedPid: number | undefined;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));

  /** Port Forward… on the Service row `shop/NAME` (one port), local port 0: its Port Forwards row once `accept` takes it. */
  async function forwardService(name: string, port: number, accept: (r: TreeRow) => boolean, what: string): Promise<TreeRow> {
    await ui.tree.expand(['services']);
    await ui.tree.expand(['services', 'shop']);
    await ui.menu.run(['services', 'shop', name], 'Port Forward…');
    await actions.answerInput('0', `Port Forward: ${name} ${port}`);
    await ui.tree.collapse(['services']);
    return forwardRow(name, port, accept, what);
  }

  /** The Port Forwards row of `svc/NAME PORT`, once `accept` takes it. */
  async function forwardRow(name: string, port: number, accept: (r: TreeRow) => boolean, what: string): Promise<TreeRow> {
    // Found by its target wherever the label has it, so that what `accept` asks of the row is what fails when it fails.
    const target = `svc/${name} ${port} → `;
    const row = await poll(`the Port Forwards row ${target}: ${what}`, async () => (await forwards.rows()).find((r) => r.label.includes(target)), (r) => r !== undefined && accept(r), { timeoutMs: 60_000 });
    return row!;
  }

  const localPort = (row: TreeRow) => Number(/:(\d+)$/.exec(row.label)![1]);
  /** The row's icon colour as drawn, and the theme's `color` as drawn (a probe element coloured with its CSS variable). */
  const iconColor = (row: TreeRow, color: string) =>
    forwards.list.locator(`.monaco-list-row[data-index="${row.index}"] .custom-view-tree-node-item-icon`).evaluate(COLORS, `var(--vscode-${color.replace(/\./g, '-')})`);

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({
      // HTTP/2 (with HTTP/1.1 for the forwards' WebSocket upgrades): a wake PINGs the connection and keeps it when it answers, so a watch is not re-opened by a replaced connection.
      server: { bookmarkIntervalMs: 600_000, http2: true },
      log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`),
    });
    // U02: a Service whose only pod declares no port: nothing listens on 80, the pod refuses it as a kubelet does.
    cluster.server.create('services', { metadata: { namespace: 'shop', name: 'refusing' }, spec: { type: 'ClusterIP', clusterIP: '10.96.12.20', selector: { app: 'refusing' }, ports: [{ port: 80, targetPort: 80 }] } });
    cluster.createPod('shop', 'refusing-1', { labels: { app: 'refusing' }, ports: [] });
    // U03: a Service answered normally, its pod holding idle keep-alive connections as nginx does.
    cluster.server.podStreams.ports.keepAliveMs = 600_000;
    cluster.server.create('services', { metadata: { namespace: 'shop', name: 'counter' }, spec: { type: 'ClusterIP', clusterIP: '10.96.12.21', selector: { app: 'counter' }, ports: [{ port: 80, targetPort: 8080 }] } });
    cluster.createPod('shop', 'counter-1', { labels: { app: 'counter' }, ports: [{ containerPort: 8080, name: 'http' }] });
    bench = await Workbench.start({ vsix: process.env.E2E_VSIX ?? defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
    ui = new WorkbenchUi(bench.page);
    actions = new ActionUi(bench.page, ui.tree);
    forwards = new SidebarTree(bench.page, 'Port Forwards');
    await ui.activityBar.waitForItem(KUBE_WATCH.container);
    await ui.activityBar.open(KUBE_WATCH.container);
    await ui.tree.waitUntilVisible();
    await ui.statusBar.waitForKubeWatch(ALL, (s) => s.text === ALL && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    if (stoppedPid !== undefined) {
      process.kill(stoppedPid, 'SIGCONT');
      stoppedPid = undefined;
    }
    await recordFailure(this.currentTest, bench, cluster?.server);
    await ui?.dismissOverlays().catch(() => {});
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('U02 a forward to a Service whose pod does not listen on the port: each request gets a 503 that says why, the row reads "failing · …" with the reason in the warning colour; the pod listening, ready again once a request succeeds', async () => {
    const started = await forwardService('refusing', 80, () => true, 'shown');
    const port = localPort(started);
    const reason = 'connection refused by pod refusing-1 port 80';
    for (let i = 1; i <= 3; i++) {
      const answer = await get(port);
      assert.equal(answer.status, 503, `request ${i}: a 503, not an empty reply: ${JSON.stringify(answer)}`);
      assert.ok(answer.body.startsWith(`Kube Watch port-forward svc/refusing 80: ${reason}\n`), `request ${i} says why: ${JSON.stringify(answer.body)}`);
    }
    const failing = await forwardRow('refusing', 80, (r) => r.label.startsWith('failing · ') && r.description.includes(' · 3 failed'), 'failing, 3 failed');
    assert.equal(failing.label, `failing · svc/refusing 80 → :${port}`, 'the state first');
    assert.ok(failing.description.startsWith(`${reason} · `), `the reason first: ${failing.description}`);
    assert.equal(failing.icon, 'warning');
    const drawn = await iconColor(failing, 'list.warningForeground');
    assert.ok(drawn.theme !== drawn.inherited && drawn.icon === drawn.theme, `the icon in the warning colour: ${JSON.stringify(drawn)}`);
    await shoot('U02-forward-failing');

    // The pod now listens on 80: the next request is answered and the row reads ready again.
    const pod = cluster.server.get('pods', 'shop', 'refusing-1')!;
    cluster.server.update('pods', { ...pod, spec: { containers: [{ name: 'main', image: 'registry.example.com/app:1.0', ports: [{ containerPort: 80 }] }] } });
    assert.deepEqual(await get(port), { status: 200, body: 'refusing-1\n' });
    const ready = await forwardRow('refusing', 80, (r) => r.label.startsWith('ready · '), 'ready again');
    assert.ok(ready.description.startsWith('pod refusing-1 · '), ready.description);
    assert.ok(!ready.description.includes('connection refused'), ready.description);
    assert.equal(ready.icon, 'plug');
    await shoot('U02-forward-ready-again');
  });

  it('U03 a forward answered normally: 5 sequential curl-like requests, then the pod deleted with none in flight: the row reads exactly 5 served and none cut', async () => {
    const N = 5;
    const started = await forwardService('counter', 80, (r) => r.description.includes('pod counter-1'), 'on counter-1');
    const port = localPort(started);
    for (let i = 1; i <= N; i++) {
      assert.equal(await curl(port), 'counter-1\n');
      await forwardRow('counter', 80, (r) => r.description.includes(` · 0 open · ${i} served · `), `request ${i} served, none open`);
    }
    cluster.deletePod('shop', 'counter-1');
    const after = await forwardRow('counter', 80, (r) => r.label.startsWith('waiting for a pod · '), 'waiting for a pod once counter-1 is gone');
    assert.ok(after.description.startsWith(`0 open · ${N} served · `), `exactly ${N} served: ${after.description}`);
    assert.ok(!after.description.includes('cut'), `none cut: ${after.description}`);
    const tip = await hoverText(bench.page, async () => forwards.list.locator(`.monaco-list-row[data-index="${after.index}"] .monaco-icon-label`), /connections: /, 'the forward\'s tooltip');
    assert.match(tip, new RegExp(`connections: 0 open, ${N} served, 0 cut by a pod switch, 0 refused \\(no running pod\\), 0 failed`));
    await shoot('U03-forward-counts');
  });

  it('U06 after the extension host was stopped ~20 s and resumed, every quiet watch reads "watching" again within seconds, each re-opened from its resourceVersion, and Watch Health draws catching up as its own state', async () => {
    await ui.quickPick.runCommand('Kube Watch: Show Watch Health');
    await ui.health.waitFor('a band per watch', (v) => v.watches.length >= ROOTS.length, { timeoutMs: 60_000 });
    const host = extensionHost(bench.codeServerPid!);
    assert.ok(host, 'the extension host process under code-server');
    process.kill(host.pid, 'SIGSTOP');
    stoppedPid = host.pid;
    await poll('the extension host stopped', async () => processState(host.pid), (s) => s === 'T', { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, STOPPED_MS));
    process.kill(host.pid, 'SIGCONT');
    stoppedPid = undefined;

    // (A port-forward's pod watch has a band too: U03's waits for a pod.) The resume seen by the extension first (a suspended span on every band), so that no row read below is from before it.
    const resourceBands = (v: HealthView) => v.watches.filter((w) => !w.id.startsWith('port-forward:'));
    await ui.health.waitFor('a suspended span on every resource band', (v) => resourceBands(v).length === ROOTS.length && resourceBands(v).every((w) => w.spans.some((s) => s.state === 'suspended')), { timeoutMs: 60_000 });
    // Nothing arrives on a quiet watch (no events, bookmarks every 10 minutes): only the resume's re-open makes it current.
    // Two reads a moment apart must agree, so that a row the renderer had not redrawn yet cannot pass.
    const twoReads = async () => {
      const first = await ui.tree.children([]);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return [first, await ui.tree.children([])];
    };
    const allWatching = (rs: TreeRow[]) => rs.length === ROOTS.length && rs.every((r) => r.description.startsWith('watching'));
    await poll('every resource row watching again (not catching up), on two reads', twoReads, (reads) => reads.every(allWatching), { timeoutMs: 30_000 });
    await ui.statusBar.waitForKubeWatch(ALL, (s) => s.text === ALL && s.icon === 'eye', { timeoutMs: 30_000 });
    await shoot('U06-watching-after-resume');

    // The extension's own log: each watch re-opened from its resourceVersion soon after its resume line.
    // (The channel's file is written a little after the screen: polled until every resume line has its re-open, or not.)
    type Reopen = { watch: string; resume?: { at: number; text: string }; reopened?: { at: number; text: string } };
    const reopens = (): Reopen[] => {
      const log = kubeWatchLog(bench.userDataDir);
      return ROOTS.map((root) => {
        const label = `[${cluster.context}/${root}] `;
        const resume = log.filter((l) => l.text.startsWith(`${label}resumed after `)).pop();
        const reopened = resume && log.find((l) => l.at >= resume.at && l.text.startsWith(`${label}watch opened at resourceVersion `) && !l.text.includes('(none)'));
        return { watch: root, resume, reopened };
      });
    };
    const seen = await poll('a resume line and a re-open line after it for every watch in the Kube Watch log', async () => reopens(), (rs) => rs.every((r) => r.reopened !== undefined), { timeoutMs: 30_000 });
    const late = seen.filter((r) => r.reopened!.at - r.resume!.at > REOPEN_WITHIN_MS).map((r) => `${r.resume!.text} → ${r.reopened!.at - r.resume!.at} ms: ${r.reopened!.text}`);
    assert.deepEqual(late, [], `every watch re-opened within ${REOPEN_WITHIN_MS} ms of its resume (log time)`);

    // Watch Health: after the suspended span, catching up (if drawn) is its own state, then watching.
    const view = await ui.health.waitFor('every resource band watching after a suspended span', (v) => resourceBands(v).length === ROOTS.length && resourceBands(v).every((w) => w.state === 'watching' && w.spans.some((s) => s.state === 'suspended')), { timeoutMs: 60_000 });
    for (const w of resourceBands(view)) {
      const suspended = w.spans.filter((s) => s.state === 'suspended').pop()!;
      const since = w.spans.filter((s) => s.from >= suspended.to - 1);
      assert.deepEqual(since.filter((s) => !['catching-up', 'watching'].includes(s.state)).map((s) => `${s.state}: ${s.title}`), [], `${w.label}: only catching up, then watching, after the resume`);
      for (const s of since.filter((s) => /catching up/.test(s.title))) assert.equal(s.state, 'catching-up', `${w.label}: a catching-up span drawn as its own state: ${s.title}`);
    }
    await shoot('U06-health-after-resume');
  });
});
