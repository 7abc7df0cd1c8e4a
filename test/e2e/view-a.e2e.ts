/**
 * Issue 23, part A, as a person sees it in code-server through Chromium: nothing cut at the
 * default side bar width (V27), counts in words on the resource and namespace nodes (V21),
 * pause freezing the tree drawn stale (V28), the Watch Health panel by keyboard (V29), a log
 * terminal's outage lines (V30), and time that never lies after the extension host was stopped
 * (SIGSTOP, as a closed laptop lid) while the cluster went on: the suspended span on every band
 * (V16) and "catching up" until every watch is current (V17).
 *
 * Its own code-server and simulated cluster (bookmarks every 5 s, so that quiet watches confirm
 * soon after a resume); the packaged .vsix. Run with
 * `npx mocha --import=tsx --timeout 300000 test/e2e/view-a.e2e.ts` after `npm run package`.
 * V27 runs first, before anything widens the side bar. Nothing asserts on time: every check polls
 * the screen with a generous bound. Screenshots in test-results/e2e/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUBE_WATCH, WorkbenchUi } from './pages';
import { LogTerminal } from './pages/log-terminal';
import { poll } from './support/poll';
import { extensionHost, processState } from './support/processes';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const ROOTS = [...DEFAULT_WATCHED];
const ALL = `${ROOTS.length}/${ROOTS.length}`;
/** How long the extension host is stopped (the lid was closed for 60 s). */
const STOPPED_MS = 25_000;
const LOG_POD = 'ledger-6d5f7c8b9-b7n2k';
/** Runs in the panel's page: the focused element's class, accessible name and role. */
const FOCUSED = new Function(`const el = document.activeElement;
  return { className: (el && el.className) || '', label: (el && el.getAttribute('aria-label')) || '', role: (el && el.getAttribute('role')) || '' };`) as () => { className: string; label: string; role: string };

/** Where a row's label, its description's first field and its whole description end, against the edge that clips them. */
interface RowGeometry {
  index: number;
  label: string;
  description: string;
  labelRight: number;
  firstFieldRight: number;
  descriptionRight: number;
  clipRight: number;
}

/**
 * VS Code ends a description that goes past the edge with an ellipsis, drawn over the last
 * characters that fit: a first field within this many pixels of the edge is hidden by it.
 */
const ELLIPSIS_PX = 12;

/** Runs in the page on the tree's list (a string, so the test's compiler adds nothing): see columns.e2e.ts. */
const MEASURE_ROWS = `(list) => {
  const listRight = list.getBoundingClientRect().right;
  const textRight = (el, chars) => {
    if (!el) return 0;
    const range = document.createRange();
    range.selectNodeContents(el);
    if (chars !== undefined) {
      const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode();
      if (!text) return 0;
      range.setStart(text, 0);
      range.setEnd(text, Math.min(chars, (text.textContent || '').length));
    }
    return range.getBoundingClientRect().right;
  };
  return [...list.querySelectorAll('.monaco-list-row')].map((row) => {
    const name = row.querySelector('.label-name');
    const description = row.querySelector('.label-description');
    const container = row.querySelector('.monaco-icon-label-container');
    const descriptionText = ((description && description.textContent) || '').replace(/\\u00a0/g, ' ');
    const first = descriptionText.split(' · ')[0];
    return {
      index: Number(row.getAttribute('data-index')),
      label: ((name && name.textContent) || '').replace(/\\u00a0/g, ' '),
      description: descriptionText,
      labelRight: textRight(name),
      firstFieldRight: description ? textRight(description, first.length) : 0,
      descriptionRight: description ? textRight(description) : 0,
      clipRight: Math.min(container ? container.getBoundingClientRect().right : listRight, listRight),
    };
  });
}`;

describe('Kube Watch in the browser: time that never lies and the view (V16, V17, V21, V27, V28, V29, V30)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let terminal: LogTerminal;
  let stoppedPid: number | undefined;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));

  const geometry = async (parent: readonly string[]): Promise<RowGeometry[]> => {
    const children = new Set((await ui.tree.children(parent)).map((r) => r.index));
    const measure = new Function('list', `return (${MEASURE_ROWS})(list);`) as (list: unknown) => unknown;
    const all = (await ui.tree.list.evaluate(measure)) as RowGeometry[];
    return all.filter((g) => children.has(g.index));
  };

  const roots = () => ui.tree.children([]);

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({
      server: { bookmarkIntervalMs: 5_000 },
      log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`),
    });
    bench = await Workbench.start({
      vsix: defaultVsixPath(),
      env: { KUBECONFIG: cluster.kubeconfigPath },
      settings: { 'terminal.integrated.gpuAcceleration': 'off' },
    });
    ui = new WorkbenchUi(bench.page);
    terminal = new LogTerminal(bench.page);
    await ui.activityBar.waitForItem(KUBE_WATCH.container);
    // The view at the side bar's default width: no resizeSideBar before V27.
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
  });

  after(async function () {
    this.timeout(120_000);
    cluster?.stopChurn();
    await bench?.stop();
    await cluster?.stop();
  });

  it('V27 at the default side bar width (300 px) no Pod, Deployment or Event row has its title or status cut', async () => {
    const sidebar = await bench.page.locator('.monaco-workbench .part.sidebar').boundingBox();
    assert.ok(sidebar && Math.abs(sidebar.width - 300) <= 4, `the side bar at its default width: ${sidebar?.width}`);
    const parents: string[][] = [];
    for (const root of ['pods', 'deployments.apps', 'events']) {
      await ui.tree.expand([root]);
      const namespaces = (await poll(`the namespaces of ${root}`, () => ui.tree.children([root]), (rs) => rs.length > 0)).map((r) => r.label);
      await ui.tree.collapse([root]);
      for (const ns of namespaces) parents.push([root, ns]);
    }
    const cut: string[] = [];
    let measured = 0;
    for (const parent of parents) {
      await ui.tree.expand(parent);
      const rows = await poll(`the rows under ${parent.join(' › ')}`, () => geometry(parent), (g) => g.length > 0 && g.every((r) => r.labelRight > 0));
      measured += rows.length;
      for (const r of rows) {
        if (r.labelRight > r.clipRight + 0.5) cut.push(`${parent.join(' › ')}: the title "${r.label}" ends at ${r.labelRight.toFixed(0)} px, past ${r.clipRight.toFixed(0)} px`);
        const edge = r.descriptionRight > r.clipRight + 0.5 ? r.clipRight - ELLIPSIS_PX : r.clipRight + 0.5;
        if (r.description && r.firstFieldRight > edge) cut.push(`${parent.join(' › ')}: the status "${r.description.split(' · ')[0]}" of "${r.label}" (title ending at ${r.labelRight.toFixed(0)} px) ends at ${r.firstFieldRight.toFixed(0)} px, past ${r.clipRight.toFixed(0)} px`);
      }
      if (parent.join('/') === 'pods/payments') await shoot('V27-default-width-pods');
      await ui.tree.collapse([parent[0]]);
    }
    for (const r of await geometry([])) {
      if (r.firstFieldRight > r.clipRight + 0.5) cut.push(`the state "${r.description.split(' · ')[0]}" of "${r.label}" is cut`);
    }
    assert.ok(measured >= 10, `measured ${measured} rows`);
    assert.deepEqual(cut, [], `side bar ${sidebar.width} px wide`);
  });

  it('V21 every resource node counts its objects, and namespace rows say it in words ("5 pods")', async () => {
    await ui.tree.resizeSideBar(520);
    const rows = await poll('every resource node with its count', roots, (rs) => rs.length === ROOTS.length && rs.every((r) => /^watching · [\d,]+(?: [a-z]+)? · rv \d+$/.test(r.description)), { timeoutMs: 60_000 });
    for (const r of rows) {
      const [, n] = /^watching · ([\d,]+) /.exec(r.description)!;
      const server = cluster.server.list(r.label).length;
      assert.ok(Math.abs(Number(n.replace(/,/g, '')) - server) <= 3, `${r.label}: "${r.description}" against ${server} on the server`);
    }
    await ui.tree.expand(['pods']);
    const namespaces = await poll('namespace rows with their count in words', () => ui.tree.children(['pods']), (rs) => rs.length > 0 && rs.every((r) => /^\d+ pods?$/.test(r.description)));
    for (const ns of namespaces) {
      const n = cluster.server.list('pods', ns.label).length;
      assert.equal(ns.description, `${n} pod${n === 1 ? '' : 's'}`, ns.label);
    }
    await shoot('V21-counts');
    await ui.tree.collapse(['pods']);
  });

  it('V28 Pause freezes the tree and draws it stale; Resume brings it back live', async () => {
    await ui.tree.expand(['configmaps']);
    const before = await poll('the configmaps namespaces', () => ui.tree.children(['configmaps']), (rows) => rows.length > 0);
    await ui.quickPick.runCommand('Kube Watch: Pause Watching');
    try {
      await ui.statusBar.waitForKubeWatch('Paused', (s) => s.text === 'Paused' && s.icon === 'stop-circle');
      const paused = await poll('every resource node paused', roots, (rs) => rs.length === ROOTS.length && rs.every((r) => r.description.startsWith('paused')), { timeoutMs: 30_000 });
      assert.equal(paused.length, ROOTS.length, 'the tree keeps its rows');
      await ui.tree.expand(['configmaps', before[0].label]);
      const objects = await poll(
        'the objects drawn stale',
        () => ui.tree.children(['configmaps', before[0].label]),
        (rs) => rs.length > 0 && rs.every((r) => /^stale \d+ s · paused/.test(r.description)),
        { timeoutMs: 30_000 },
      );
      assert.ok(objects.length > 0);
      await shoot('V28-paused-stale');
    } finally {
      await ui.quickPick.runCommand('Kube Watch: Resume Watching');
    }
    await ui.statusBar.waitForKubeWatch(ALL, (s) => s.text === ALL, { timeoutMs: 90_000 });
    await poll('the objects live again', () => ui.tree.children(['configmaps', before[0].label]), (rs) => rs.length > 0 && rs.every((r) => !r.description.startsWith('stale')), { timeoutMs: 60_000 });
    await ui.tree.collapse(['configmaps']);
  });

  it('V16 after the extension host was stopped, every band shows "process suspended N s" for that time, never "watching"', async () => {
    cluster.startChurn(1500);
    await ui.quickPick.runCommand('Kube Watch: Show Watch Health');
    await ui.health.waitFor('a band per watch', (v) => v.watches.length >= ROOTS.length, { timeoutMs: 60_000 });
    const host = extensionHost(bench.codeServerPid!);
    assert.ok(host, 'the extension host process under code-server');
    const stoppedAt = Date.now();
    process.kill(host.pid, 'SIGSTOP');
    stoppedPid = host.pid;
    await poll('the extension host stopped', async () => processState(host.pid), (s) => s === 'T', { timeoutMs: 10_000 });
    // Meanwhile the cluster goes on: a pod re-created, as in the issue.
    const ns = 'payments';
    const name = 'postgres-0';
    cluster.recreatePod(ns, name, { phase: 'Running' });
    await new Promise((resolve) => setTimeout(resolve, STOPPED_MS));
    process.kill(host.pid, 'SIGCONT');
    stoppedPid = undefined;
    const resumedAt = Date.now();

    const view = await ui.health.waitFor(
      'a suspended span on every band',
      (v) => v.watches.length >= ROOTS.length && v.watches.every((w) => w.spans.some((s) => s.state === 'suspended')),
      { timeoutMs: 60_000 },
    );
    for (const w of view.watches) {
      const suspended = w.spans.find((s) => s.state === 'suspended')!;
      assert.match(suspended.title, /^process suspended \d+ s\n/, w.label);
      const seconds = Number(/process suspended (\d+) s/.exec(suspended.title)![1]);
      assert.ok(seconds >= (STOPPED_MS - 5_000) / 1000 && seconds <= (resumedAt - stoppedAt) / 1000 + 1, `${w.label}: ${suspended.title}`);
      const watchingInside = w.spans.filter((s) => s.state === 'watching' && s.from < suspended.to - 1 && s.to > suspended.from + 1);
      assert.deepEqual(watchingInside, [], `${w.label}: no "watching" for the time away`);
    }
    await shoot('V16-suspended-span');
  });

  it('V17 after the resume every watch shows it is current again within seconds (re-opened from its resourceVersion); the status bar says "catching up after N s away" only until then', async () => {
    // The catch-up of V16 is over by now: stop the host once more, shortly.
    if (!(await ui.health.isOpen())) await ui.quickPick.runCommand('Kube Watch: Show Watch Health');
    const suspendedSpans = (v: Awaited<ReturnType<typeof ui.health.waitFor>>) => new Map(v.watches.map((w) => [w.label, w.spans.filter((sp) => sp.state === 'suspended').length]));
    const before = suspendedSpans(await ui.health.waitFor('a band per watch', (v) => v.watches.length >= ROOTS.length, { timeoutMs: 60_000 }));
    const host = extensionHost(bench.codeServerPid!)!;
    process.kill(host.pid, 'SIGSTOP');
    stoppedPid = host.pid;
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    process.kill(host.pid, 'SIGCONT');
    stoppedPid = undefined;
    // The resume seen: a new suspended span on every band. Meanwhile the status bar is read: while
    // it says catching up, it says so in full (issue 29 re-opens the watches at once, so that may
    // last only a moment).
    const texts: { text: string; icon?: string; ariaLabel: string }[] = [];
    await ui.health.waitFor(
      'the resume on every band (a second suspended span)',
      (v) => {
        void ui.statusBar.readKubeWatch().then((item) => texts.push(item), () => undefined);
        return v.watches.length >= ROOTS.length && v.watches.every((w) => w.spans.filter((sp) => sp.state === 'suspended').length > (before.get(w.label) ?? 0));
      },
      { timeoutMs: 60_000 },
    );
    await ui.statusBar.waitForKubeWatch(`${ALL} again`, (s) => s.text === ALL && s.icon === 'eye', { timeoutMs: 60_000 });
    await poll('no node catching up', roots, (rs) => rs.length === ROOTS.length && rs.every((r) => r.description.startsWith('watching')), { timeoutMs: 30_000 });
    for (const t of texts.filter((x) => /catching up/.test(x.text))) {
      assert.match(t.text, /^catching up after \d+ s away$/);
      assert.equal(t.icon, 'history');
      assert.match(t.ariaLabel, /catching up after \d+ s away, \d+ of \d+ watches current/);
    }
    await shoot('V17-caught-up');
  });

  it('V29 the Watch Health panel by keyboard: Tab reaches a band, its summary is its accessible name; the arrows walk its spans and markers', async () => {
    if (!(await ui.health.isOpen())) await ui.quickPick.runCommand('Kube Watch: Show Watch Health');
    const frame = await ui.health.frameOf();
    await frame.locator('#copy').focus();
    let focused: { className: string; label: string; role: string } | undefined;
    for (let i = 0; i < 10; i++) {
      await bench.page.keyboard.press('Tab');
      focused = await frame.evaluate(FOCUSED);
      if (focused.className.includes('band')) break;
    }
    assert.ok(focused && focused.className.includes('band'), `Tab reached a band: ${JSON.stringify(focused)}`);
    assert.equal(focused.role, 'group');
    assert.match(focused.label, /: (watching|catching up)[^;]*; over the last [^:]+: .*(process suspended \d+s)?/);
    await bench.page.keyboard.press('ArrowRight');
    const item = await frame.evaluate(FOCUSED);
    assert.match(item.className, /span|marker/);
    assert.match(item.label, /from \d|at \d/);
    const chart = await frame.locator('section.watch .rate').first().getAttribute('aria-label');
    assert.match(chart ?? '', /^events over the last .*: \d+ adds, \d+ updates, \d+ deletes; at most [\d.]+\/s$/);
    await shoot('V29-keyboard-band');
    await ui.quickPick.runCommand('View: Close All Editors');
  });

  it('V30 a log terminal during an outage shows one line per failure kind with a countdown, not a line per attempt', async () => {
    cluster.stopChurn();
    await ui.quickPick.runCommand('Kube Watch: Follow Logs…');
    await ui.quickPick.waitForPicker('Follow Logs: pick a pod or a workload');
    await ui.quickPick.input.fill(LOG_POD);
    await ui.quickPick.pick(LOG_POD);
    await poll('the log terminal', () => terminal.isOpen(), (open) => open, { timeoutMs: 30_000 });
    await terminal.maximize();
    await terminal.waitForRows('log lines', (rows) => rows.filter((r) => /settlement window/.test(r)).length >= 3, { timeoutMs: 60_000 });
    await cluster.goDown();
    try {
      const seen = new Set<string>();
      const outage = await poll(
        'the outage line counting down over several attempts',
        async () => {
          const rows = await terminal.rows();
          for (const r of rows.filter((x) => x.includes('cannot read the log'))) seen.add(r);
          return rows;
        },
        (rows) => rows.some((r) => /cannot read the log: .* · [3-9]\d* failed attempts · (next try in \d+ s|trying again…)/.test(r)),
        { timeoutMs: 90_000 },
      );
      assert.equal(outage.filter((r) => r.includes('cannot read the log')).length, 1, `one line for the failure kind:\n${outage.join('\n')}`);
      assert.ok([...seen].some((r) => /next try in \d+ s/.test(r)), 'a countdown');
      await shoot('V30-log-outage-line');
    } finally {
      await cluster.comeUp();
    }
    const after = await terminal.waitForRows('reconnected', (rows) => rows.some((r) => /reconnected, \d+ s gap/.test(r)), { timeoutMs: 90_000 });
    const ended = after.filter((r) => r.includes('cannot read the log'));
    assert.equal(ended.length, 1, after.join('\n'));
    assert.match(ended[0], /· \d+ failed attempts over \d+ s ──$/);
    await shoot('V30-log-reconnected');
    await terminal.restore();
    await ui.quickPick.runCommand('Terminal: Kill the Active Terminal Instance');
  });
});

