/**
 * kubectl-grade columns as a person sees them (issue 12, defect 11): Events with type, reason,
 * object, message and count, newest first (V11); a Deployment stuck past its progress deadline
 * reading as such (V12); nothing that matters cut at the default side bar width (V15).
 *
 * Its own code-server and simulated cluster (scripts/sandbox/simulated-cluster.ts), the
 * packaged .vsix, Chromium through the page objects in pages/. Run with
 * `npx mocha --import=tsx --timeout 300000 test/e2e/columns.e2e.ts` after `npm run package`.
 * V15 runs first, before anything widens the side bar. Nothing asserts on time: every check
 * polls the screen with a generous bound. Screenshots in test-results/e2e/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUBE_WATCH, WorkbenchUi, type TreeRow } from './pages';
import { hoverText } from './support/hover';
import { poll } from './support/poll';
import { DEFAULT_WATCHED, SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const ROOTS = [...DEFAULT_WATCHED];
const WATCHING = /^watching · [\d,]+(?: [a-z.]+)? · rv \d+$/;

/** Where a row's label and its description's first field end, against the edge that clips them. */
interface RowGeometry {
  label: string;
  description: string;
  /** Right edge of the label text, of the description's first field, and of what clips the row (px). */
  labelRight: number;
  firstFieldRight: number;
  clipRight: number;
}

/**
 * Runs in the page, on the tree's list element (a string, so that the test's compiler adds
 * nothing to it): per rendered row, its index, label, description, where the label text and
 * the description's first field end, and the right edge that clips them.
 */
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
    const descriptionText = ((description && description.textContent) || '').replace(/\u00a0/g, ' ');
    const first = descriptionText.split(' · ')[0];
    return {
      index: Number(row.getAttribute('data-index')),
      label: ((name && name.textContent) || '').replace(/\u00a0/g, ' '),
      description: descriptionText,
      labelRight: textRight(name),
      firstFieldRight: description ? textRight(description, first.length) : 0,
      clipRight: Math.min(container ? container.getBoundingClientRect().right : listRight, listRight),
    };
  });
}`;

describe('Kube Watch columns in the browser (V11, V12, V15)', function () {
  this.timeout(240_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;

  const shoot = async (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));

  const waitAllWatching = async () => {
    await ui.tree.waitForRow([ROOTS[0]]);
    await poll(
      'every resource node to be watching',
      async () => (await ui.tree.children([])).map((r) => `${r.label}: ${r.description}`),
      (rows) => rows.length === ROOTS.length && rows.every((r) => WATCHING.test(r.split(': ')[1] ?? '')),
      { timeoutMs: 90_000 },
    );
  };

  /**
   * The geometry of every rendered row under `parent`: where its label ends, where the first
   * field of its description ("Running 1/1", "Stuck 1/2 ready", "Warning ×6") ends, and the
   * right edge of the label container (which clips with an ellipsis) or of the list, whichever
   * is nearer. Measured with DOM ranges over the text, which keep their full width when clipped.
   */
  const geometry = async (parent: readonly string[]): Promise<RowGeometry[]> => {
    const children = new Set((await ui.tree.children(parent)).map((r) => r.index));
    // A Function built from the source text, which Playwright sends as is.
    const measure = new Function('list', `return (${MEASURE_ROWS})(list);`) as (list: unknown) => unknown;
    const all = (await ui.tree.list.evaluate(measure)) as (RowGeometry & { index: number })[];
    return all.filter((g) => children.has(g.index));
  };

  /** The first row under `parent` whose label is `label`, waiting for `accept`. */
  const rowUnder = (parent: string[], label: string, accept: (r: TreeRow) => boolean, what: string) =>
    poll(what, async () => (await ui.tree.children(parent)).find((r) => r.label === label), (r) => r !== undefined && accept(r), { timeoutMs: 60_000 });

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath } });
    ui = new WorkbenchUi(bench.page);
    await ui.activityBar.waitForItem(KUBE_WATCH.container);
    // The view at the side bar's default width: no resizeSideBar here.
    await ui.activityBar.open(KUBE_WATCH.container);
    await ui.tree.waitUntilVisible();
    await waitAllWatching();
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('V15 at the default side bar width, row titles and the status (the first field of each description) are not cut', async function () {
    try {
      const sidebar = await bench.page.locator('.monaco-workbench .part.sidebar').boundingBox();
      assert.ok(sidebar, 'the side bar is shown');
      // The stuck Deployment, its Events (reason and "Warning ×6"), Services ("ClusterIP 10.96.0.10"),
      // ConfigMaps, and Pods with names that leave room for their status. (A Pod of a Deployment,
      // "ledger-6d5f7c8b9-z9w4c", takes 160 px at this depth: with the 73 px of indentation and
      // icon, the 210 px a row has at the default width leave no room for "CrashLoopBackOff 0/1";
      // its status is first, so it is what shows longest, and the icon carries it.)
      const parents: string[][] = [
        ['deployments.apps', 'payments'],
        ['events', 'payments'],
        ['services', 'kube-system'],
        ['configmaps', 'monitoring'],
        ['pods', 'default'],
      ];
      const measured: RowGeometry[] = [];
      for (const parent of parents) {
        await ui.tree.expand(parent);
        if (parent[0] === 'events') await rowUnder(parent, 'BackOff', (r) => r.description.startsWith('Warning ×6'), 'the BackOff Event');
        if (parent[0] === 'deployments.apps') await rowUnder(parent, 'ledger', (r) => r.description.startsWith('Stuck 1/2 ready'), 'the stuck Deployment');
        const rows = await poll(`the rows under ${parent.join(' › ')}`, () => geometry(parent), (g) => g.length > 0 && g.every((r) => r.labelRight > 0));
        measured.push(...rows);
        if (parent[0] === 'events') await shoot('V15-default-width');
        await ui.tree.collapse([parent[0]]);
      }
      const roots = await geometry([]);
      assert.equal(roots.length, ROOTS.length);
      const cut: string[] = [];
      for (const r of [...roots, ...measured]) {
        if (r.labelRight > r.clipRight + 0.5) cut.push(`the title of "${r.label}" ends at ${r.labelRight.toFixed(1)} px, past ${r.clipRight.toFixed(1)} px`);
        if (r.description && r.firstFieldRight > r.clipRight + 0.5) {
          cut.push(`the status "${r.description.split(' · ')[0]}" of "${r.label}" ends at ${r.firstFieldRight.toFixed(1)} px, past ${r.clipRight.toFixed(1)} px`);
        }
      }
      assert.deepEqual(cut, [], `side bar ${sidebar.width} px wide`);
      // The check can fail: some descriptions are longer than the row and are cut after their first field.
      assert.ok(
        measured.some((r) => r.description.includes(' · ') && r.firstFieldRight < r.clipRight),
        'a row whose description goes on after its status',
      );
      // The view's title ("Kube Watch: Resources", the container's and the view's) is not cut either:
      // its text ends before its box and before the title bar's actions.
      const title = (await bench.page.locator('.monaco-workbench .part.sidebar > .composite.title').evaluate(
        new Function(
          'bar',
          `const label = bar.querySelector('.title-label');
           const h2 = label && label.querySelector('h2');
           const actions = bar.querySelector('.title-actions');
           if (!h2) return undefined;
           const range = document.createRange();
           range.selectNodeContents(h2);
           const edges = [label.getBoundingClientRect().right];
           if (actions && actions.getBoundingClientRect().width > 0) edges.push(actions.getBoundingClientRect().left);
           return { text: h2.textContent, textRight: range.getBoundingClientRect().right, clipRight: Math.min(...edges) };`,
        ) as (bar: unknown) => unknown,
      )) as { text: string; textRight: number; clipRight: number } | undefined;
      assert.ok(title, 'the side bar has a title');
      // "Kube Watch: Resources" while Resources is the container's only view; "Kube Watch" beside Helm Releases.
      assert.match(title.text, /^Kube Watch(: Resources)?$/i);
      assert.ok(title.textRight <= title.clipRight + 0.5, `the view title "${title.text}" ends at ${title.textRight} px, past ${title.clipRight} px`);
    } finally {
      for (const root of ['pods', 'deployments.apps', 'events', 'services', 'configmaps']) await ui.tree.collapse([root]).catch(() => {});
    }
  });

  it('V11 events in the tree show type, reason, object, message and count, newest first', async function () {
    await ui.tree.resizeSideBar(700);
    // A namespace of its own, with three Events seen at known times (minutes apart).
    cluster.createEvent('audit', 'web-5f7b9', 'Pod', 'Scheduled', 'Successfully assigned audit/web-5f7b9 to node-1', 'Normal', { lastSeenAgoMs: 9 * 60_000 });
    cluster.createEvent('audit', 'web-5f7b9', 'Pod', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 'Warning', { count: 3, lastSeenAgoMs: 2 * 60_000 });
    cluster.createEvent('audit', 'web', 'Deployment', 'ScalingReplicaSet', 'Scaled up replica set web-5f7b9 to 1', 'Normal', { lastSeenAgoMs: 5 * 60_000 });
    await ui.tree.expand(['events']);
    await ui.tree.expand(['events', 'audit']);
    const rows = await poll(
      'the three Events of audit',
      () => ui.tree.children(['events', 'audit']),
      (r) => r.length === 3,
      { timeoutMs: 60_000 },
    );
    assert.deepEqual(
      rows.map((r) => r.label),
      ['Unhealthy', 'ScalingReplicaSet', 'Scheduled'],
      'labelled by reason, newest first',
    );
    assert.match(rows[0].description, /^Warning ×3 · \d+m(\d+s)? ago · pod\/web-5f7b9 · Readiness probe failed: HTTP probe failed with statuscode: 503$/);
    assert.match(rows[1].description, /^Normal ×1 · \d+m(\d+s)? ago · deployment\/web · Scaled up replica set web-5f7b9 to 1$/);
    assert.match(rows[2].description, /^Normal ×1 · \d+m(\d+s)? ago · pod\/web-5f7b9 · Successfully assigned audit\/web-5f7b9 to node-1$/);
    assert.equal(rows[0].icon, 'warning');
    await shoot('V11-events-newest-first');

    // Seen again: its count goes up and it moves to the top.
    cluster.repeatEvent('audit', 'web-5f7b9', 'Pod', 'Scheduled', 'Successfully assigned audit/web-5f7b9 to node-1');
    const after = await poll(
      'the repeated Event on top',
      () => ui.tree.children(['events', 'audit']),
      (r) => r[0]?.label === 'Scheduled' && r[0].description.startsWith('Normal ×2 · '),
      { timeoutMs: 60_000 },
    );
    assert.deepEqual(after.map((r) => r.label), ['Scheduled', 'Unhealthy', 'ScalingReplicaSet']);
    await shoot('V11-event-seen-again');
    await ui.tree.collapse(['events']);
  });

  it('V12 a Deployment stuck past its progress deadline reads as stuck, not in progress', async function () {
    await ui.tree.resizeSideBar(700);
    await ui.tree.expand(['deployments.apps']);
    // Seeded stuck: payments/ledger, 1 of 2 ready, Progressing=False ProgressDeadlineExceeded.
    await ui.tree.expand(['deployments.apps', 'payments']);
    const ledger = await ui.tree.waitForRow(['deployments.apps', 'payments', 'ledger'], (r) => r.description.startsWith('Stuck'), { timeoutMs: 60_000 });
    assert.match(ledger.description, /^Stuck 1\/2 ready · 2 up-to-date · 1 available · \d+[smhd]/);
    assert.equal(ledger.icon, 'error');
    assert.doesNotMatch(ledger.description, /Progressing|in progress/);
    // Its tooltip says why, under the kubectl row.
    const tip = await hoverText(bench.page, async () => ui.tree.list.locator(`.monaco-list-row[data-index="${ledger.index}"] .monaco-icon-label`), /ProgressDeadlineExceeded/, `the tooltip of ${ledger.label}`);
    assert.match(tip, /NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+ledger\s+1\/2\s+2\s+1\s+\d+[smhd]/);
    assert.match(tip, /Progressing=False ProgressDeadlineExceeded: ReplicaSet "ledger-6d5f7c8b9" has timed out progressing\./);
    await shoot('V12-stuck-tooltip');
    await bench.page.mouse.move(900, 600);

    // A rollout under way is "Progressing" (a clock); once its deadline passes, "Stuck" (an error).
    cluster.createDeployment('payments', 'checkout', 2, 1);
    const rolling = await ui.tree.waitForRow(['deployments.apps', 'payments', 'checkout'], (r) => r.description.startsWith('Progressing 1/2 ready'), { timeoutMs: 60_000 });
    assert.equal(rolling.icon, 'clock');
    await shoot('V12-progressing');
    cluster.stallDeployment('payments', 'checkout');
    const stuck = await ui.tree.waitForRow(['deployments.apps', 'payments', 'checkout'], (r) => r.description.startsWith('Stuck 1/2 ready'), { timeoutMs: 60_000 });
    assert.equal(stuck.icon, 'error');
    await shoot('V12-stuck-deployment');
    await ui.tree.collapse(['deployments.apps']);
  });
});
