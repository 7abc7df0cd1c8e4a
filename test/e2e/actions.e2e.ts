/**
 * Acting on objects, in the browser: the packaged .vsix in code-server on the simulated cluster,
 * its controllers running (scale adds Pods, a restart rolls out a new ReplicaSet, a deleted Pod is
 * replaced). In this order, one code-server for all:
 * A07 scales shop/api from its row (Scale… → 3 → the confirmation), the row marked done, the
 * Deployment at 3/3 and one line in the watch log; A08 restarts shop/web (a new ReplicaSet
 * revision, the old Pods replaced); A09 deletes a Pod with its confirmation and sees it go (and
 * its replacement come); A12 copies the kubectl command of a Scale (nothing written); A10 makes the
 * user read-only: a Delete refused with 403 reads as words, and the rows stop offering writes.
 * Screenshots in test-results/e2e/ (a07-scale.png, a08-rollout-restart.png, a09-delete-pod.png,
 * a10-refused-in-words.png, a10-no-write-actions.png, a12-copy-kubectl.png).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUBE_WATCH, WorkbenchUi } from './pages';
import { ActionUi } from './pages/actions';
import { poll } from './support/poll';
import { podRowTitle } from './support/pod-title';
import type { KubeObject } from '../../src/informer';
import { SimulatedCluster, SANDBOX_USER } from '../../scripts/sandbox/simulated-cluster';
import { Workbench, defaultVsixPath, repoRoot } from './support/workbench';
import { recordFailure } from './support/failure-record';

const RESULTS = path.join(repoRoot, 'test-results', 'e2e');
const WATCHED = ['pods', 'deployments.apps', 'replicasets.apps', 'nodes', 'cronjobs.batch'];
/** The write actions' menu labels (package.json). */
const WRITE_ITEMS = ['Scale…', 'Rollout Restart', 'Rollout Undo…', 'Delete…', 'Cordon Node', 'Uncordon Node', 'Drain Node…', 'Suspend CronJob', 'Resume CronJob', 'Create Job from CronJob…'];

describe('Acting on objects in the browser (packaged .vsix in code-server, Chromium)', function () {
  this.timeout(300_000);
  let cluster: SimulatedCluster;
  let bench: Workbench;
  let ui: WorkbenchUi;
  let actions: ActionUi;

  const shoot = (name: string) => bench.screenshot(path.join(RESULTS, `${name}.png`));
  const writesSince = (n: number) => cluster.server.requests.slice(n).filter((r) => r.method !== 'GET' && !r.path.includes('selfsubject'));
  const podsOf = (namespace: string, prefix: string) => cluster.server.list('pods', namespace).filter((p) => p.metadata.name.startsWith(prefix) && !p.metadata.deletionTimestamp);

  before(async function () {
    this.timeout(600_000);
    fs.mkdirSync(RESULTS, { recursive: true });
    cluster = await SimulatedCluster.start({ log: (m) => process.env.E2E_VERBOSE === '1' && process.stderr.write(`[cluster] ${m}\n`) });
    cluster.startControllers();
    bench = await Workbench.start({ vsix: defaultVsixPath(), env: { KUBECONFIG: cluster.kubeconfigPath }, settings: { 'kubeWatch.resources': WATCHED } });
    ui = new WorkbenchUi(bench.page);
    actions = new ActionUi(bench.page, ui.tree);
    await bench.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(bench.baseUrl).origin });
    await ui.openKubeWatch();
    await ui.tree.resizeSideBar(560);
    const n = WATCHED.length;
    await ui.statusBar.waitForKubeWatch(`${n}/${n}`, (s) => s.text === `${n}/${n}` && !s.spinning, { timeoutMs: 120_000 });
  });

  afterEach(async function () {
    await recordFailure(this.currentTest, bench, cluster?.server);
    await actions?.closeMenu().catch(() => {});
    await ui?.dismissOverlays().catch(() => {});
  });

  after(async function () {
    this.timeout(120_000);
    await bench?.stop();
    await cluster?.stop();
  });

  it('A07 scale a Deployment from its row: the confirmation says what happens, the row is marked done, the watch shows 3 replicas and the log has one line', async () => {
    await ui.tree.expand(['deployments.apps']);
    await ui.tree.expand(['deployments.apps', 'shop']);
    // Each write action is offered once its own access reviews answered (one per question): the
    // menu is opened again until it offers all of them, never read once and waited on.
    const items = await actions.openMenuOffering(['deployments.apps', 'shop', 'api'], ['Scale…', 'Rollout Restart', 'Rollout Undo…', 'Delete…']);
    assert.deepEqual(items.filter((i) => WRITE_ITEMS.includes(i)), ['Scale…', 'Rollout Restart', 'Rollout Undo…', 'Delete…']);
    assert.ok(items.includes('Copy Name') && items.includes('Copy kubectl Command…'), items.join(', '));
    await actions.choose('Scale…');
    await actions.answerInput('3');
    const dialog = await ui.dialog.waitUntilOpen();
    assert.equal(dialog.message, 'Scale Deployment shop/api from 1 to 3 replicas?');
    assert.ok(dialog.detail.includes('kubectl scale deployment/api --replicas=3 -n shop --context simulated'), dialog.detail.join('\n'));
    assert.match(dialog.detail[0], /^Sets spec\.replicas of Deployment shop\/api to 3 through its \/scale subresource; its controller then creates 2 Pods\./);
    assert.deepEqual(dialog.buttons.filter((b) => b !== 'Cancel').sort(), ['Copy kubectl Command', 'Scale']);
    await actions.clickDialogButton('Scale');
    await ui.tree.waitForRow(['deployments.apps', 'shop', 'api'], (r) => /^scale (pending|done) · /.test(r.description), { timeoutMs: 30_000, intervalMs: 50 });
    await ui.tree.waitForRow(['deployments.apps', 'shop', 'api'], (r) => /3\/3 ready/.test(r.description), { timeoutMs: 60_000 });
    assert.equal(podsOf('shop', 'api-').length, 3);
    await ui.output.open();
    await ui.output.selectChannel(KUBE_WATCH.channel);
    await ui.output.filter('scale deployments.apps');
    const lines = await ui.output.waitForLines('the scale in the watch log', (ls) => ls.some((l) => l.message.includes('scale deployments.apps shop/api')));
    const line = lines.find((l) => l.message.includes('scale deployments.apps shop/api'))!;
    assert.equal(line.level, 'info');
    assert.match(line.message, /^\[simulated\] simulated-user: scale deployments\.apps shop\/api \(replicas 1 → 3\): done at resourceVersion \d+; the watch shows it (after [\d.]+ s|within 0\.1 s)$/);
    assert.equal(lines.filter((l) => l.message.includes('scale deployments.apps shop/api')).length, 1, 'one line per write');
    await ui.tree.expand(['pods']);
    await ui.tree.expand(['pods', 'shop']);
    await shoot('a07-scale');
    await ui.output.filter('');
  });

  it('A08 rollout restart: the restartedAt annotation, a new ReplicaSet revision, the old Pods replaced one by one', async () => {
    const before = podsOf('shop', 'web-').map((p) => p.metadata.name);
    await actions.openMenuOffering(['deployments.apps', 'shop', 'web'], ['Rollout Restart']);
    await actions.choose('Rollout Restart');
    const dialog = await ui.dialog.waitUntilOpen();
    assert.equal(dialog.message, 'Restart Deployment shop/web?');
    assert.match(dialog.detail.join(' '), /Sets the pod template annotation kubectl\.kubernetes\.io\/restartedAt of Deployment shop\/web to \S+, as kubectl rollout restart does/);
    assert.ok(dialog.detail.includes('kubectl rollout restart deployment/web -n shop --context simulated'));
    await actions.clickDialogButton('Restart');
    await ui.tree.waitForRow(['deployments.apps', 'shop', 'web'], (r) => /^restart (pending|done) · /.test(r.description), { timeoutMs: 30_000, intervalMs: 50 });
    await ui.tree.expand(['replicasets.apps']);
    await ui.tree.expand(['replicasets.apps', 'shop']);
    await poll('a second web ReplicaSet', () => ui.tree.children(['replicasets.apps', 'shop']).then((rows) => rows.map((r) => r.label).filter((l) => l.startsWith('web-'))), (labels) => labels.length === 2, { timeoutMs: 60_000 });
    await poll('the old web Pods replaced', async () => podsOf('shop', 'web-').map((p) => p.metadata.name), (names) => names.length === 2 && names.every((n) => !before.includes(n)), { timeoutMs: 90_000 });
    const annotations = (cluster.server.get('deployments.apps', 'shop', 'web')!.spec as { template: { metadata: { annotations?: Record<string, string> } } }).template.metadata.annotations;
    assert.ok(annotations?.['kubectl.kubernetes.io/restartedAt']);
    await shoot('a08-rollout-restart');
  });

  it('A09 delete a Pod: the grace period chosen, the confirmation, the row terminating then gone, its replacement there', async () => {
    const [pod] = podsOf('shop', 'api-').map((p) => p.metadata.name).sort();
    // The tree titles a Pod without its generated parts (api…5qblg): its row is found by that title.
    const row = podRowTitle(cluster.server.get('pods', 'shop', pod) as KubeObject);
    const count = podsOf('shop', 'api-').length;
    // Long enough to see the Pod terminating on a busy machine (the sandbox's kubelet takes 3 s).
    cluster.server.deletes.podTerminationSeconds = 15;
    await ui.tree.expand(['pods']);
    await ui.tree.expand(['pods', 'shop']);
    // Delete is offered once the review of deleting pods in shop answered (asked when the first
    // pod row of shop was drawn, which may be this moment).
    await actions.openMenuOffering(['pods', 'shop', row], ['Delete…']);
    await actions.choose('Delete…');
    await ui.quickPick.waitForPicker('Grace period');
    assert.deepEqual((await ui.quickPick.items()).map((i) => i.label), ['Graceful: 30 s', 'Immediately: grace period 0']);
    await ui.quickPick.pick('Graceful: 30 s');
    const dialog = await ui.dialog.waitUntilOpen();
    assert.equal(dialog.message, `Delete Pod shop/${pod}?`);
    assert.match(dialog.detail.join(' '), new RegExp(`^Deletes Pod shop/${pod} with a grace period of 30 s: it turns Terminating.* It is owned by ReplicaSet api-5c6b7f9d8, which will create a replacement\\.`));
    assert.ok(dialog.detail.includes(`kubectl delete pod/${pod} -n shop --context simulated`));
    await actions.clickDialogButton('Delete');
    const terminating = await ui.tree.waitForRow(['pods', 'shop', row], (r) => /Terminating/.test(r.description), { timeoutMs: 30_000 });
    // A delete stays pending while the Pod terminates: only the watch showing it gone confirms it (W10).
    assert.match(terminating.description, /^(delete (pending|done) · )?Terminating · 1\/1/);
    await shoot('a09-delete-pod-terminating');
    await ui.tree.waitForNoRow(['pods', 'shop', row], { timeoutMs: 60_000 });
    await poll('its replacement', async () => podsOf('shop', 'api-').filter((p) => p.metadata.name !== pod).length, (n) => n === count, { timeoutMs: 60_000 });
    await shoot('a09-delete-pod');
    cluster.server.deletes.podTerminationSeconds = 3;
  });

  it('A12 copy the kubectl command of an action: its inputs asked, the command on the clipboard, nothing written', async () => {
    const requests = cluster.server.requests.length;
    await actions.openMenuOffering(['deployments.apps', 'shop', 'web'], ['Copy kubectl Command…']);
    await actions.choose('Copy kubectl Command…');
    await ui.quickPick.waitForPicker('Action');
    assert.deepEqual((await ui.quickPick.items()).map((i) => i.label), ['Scale…', 'Rollout Restart', 'Rollout Undo…', 'Delete…']);
    await ui.quickPick.pick('Scale…');
    await actions.answerInput('4');
    const expected = 'kubectl scale deployment/web --replicas=4 -n shop --context simulated';
    await poll('the status bar saying what was copied', () => actions.statusTexts(), (texts) => texts.some((t) => t.includes(`Copied the kubectl command: ${expected}`)), { timeoutMs: 20_000 });
    // (The page's clipboard: the test process has no DOM types, so it is reached through globalThis.)
    assert.equal(await bench.page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), expected);
    await shoot('a12-copy-kubectl');
    assert.deepEqual(writesSince(requests), [], 'copying writes nothing');
  });

  it('A10 a user who may only read: a write the server refuses (403) reads as words, and the rows stop offering writes', async () => {
    cluster.switchAccess('read-only');
    const [pod] = podsOf('shop', 'api-').map((p) => p.metadata.name).sort();
    // The tree titles a Pod without its generated parts (api…5qblg): its row is found by that title.
    const row = podRowTitle(cluster.server.get('pods', 'shop', pod) as KubeObject);
    // The menu still offers Delete: the answers were cached before the change of rights.
    await actions.openMenuOffering(['pods', 'shop', row], ['Delete…']);
    await actions.choose('Delete…');
    await ui.quickPick.waitForPicker('Grace period');
    await ui.quickPick.pick('Graceful: 30 s');
    await ui.dialog.waitUntilOpen();
    await actions.clickDialogButton('Delete');
    const words = await actions.waitForNotification('the refusal in words', (m) => m.startsWith(`Could not delete Pod shop/${pod}.`));
    assert.equal(words, `Could not delete Pod shop/${pod}. Not allowed: user "${SANDBOX_USER}" may not delete pods "${pod}" in namespace "shop". The cluster's access rules (RBAC) refused it; nothing was written.`);
    assert.doesNotMatch(words, /at \S+\.(ts|js):\d+/, 'no stack trace');
    assert.ok(cluster.server.get('pods', 'shop', pod), 'nothing deleted');
    await ui.tree.waitForRow(['pods', 'shop', row], (r) => /^delete failed · Running/.test(r.description) && r.icon === 'error', { timeoutMs: 30_000 });
    await shoot('a10-refused-in-words');
    // The 403 made the access answers about pods in shop go; asked again, they say no.
    const items = await poll('the pod row without write actions', async () => {
      const i = await actions.openMenu(['pods', 'shop', row]);
      await actions.closeMenu();
      return i;
    }, (i) => !i.includes('Delete…'), { timeoutMs: 60_000 });
    assert.deepEqual(items.filter((i) => WRITE_ITEMS.includes(i)), []);
    assert.ok(items.includes('Copy Name') && items.includes('Copy kubectl Command…'));
    // The palette asks first: the refusal comes in words before anything is sent.
    const requests = cluster.server.requests.length;
    await ui.quickPick.runCommand('Kube Watch: Delete…');
    await ui.quickPick.waitForPicker('Delete: pick an object');
    await ui.quickPick.input.fill(pod);
    await ui.quickPick.pick(pod);
    const refused = await actions.waitForNotification('the refusal before writing', (m) => m.startsWith('Not allowed:'));
    assert.equal(refused, `Not allowed: user "simulated-user" may not delete pods in namespace "shop" (context simulated). The cluster's access rules (RBAC) do not allow it, so Delete is not offered.`);
    assert.deepEqual(writesSince(requests), [], 'nothing was sent');
    await actions.openMenu(['pods', 'shop', row]);
    await shoot('a10-no-write-actions');
    await actions.closeMenu();
    cluster.switchAccess('read-write');
  });
});
