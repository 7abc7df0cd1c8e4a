import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeNode } from '../../../src/ui/tree/tree-node';
import {
  INFORMERS,
  SETTINGS,
  allWatching,
  describeEntries,
  entryOf,
  fixture,
  logSince,
  registerTeardown,
  resourceNode,
  settled,
  until,
  writeKubeconfig,
  type Fixture,
} from '../support/fixture';

registerTeardown();

const ALL = `${INFORMERS}/${INFORMERS}`;

describe('the status bar indicator', () => {
  let fx: Fixture;
  const status = () => fx.api.statusBar.model;
  const showStatus = () => `status bar "${status().text}" (${status().background}); ${describeEntries(fx.api)}`;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
  });

  beforeEach(async () => {
    await settled(fx);
  });

  afterEach(async function () {
    // Whatever a failed test left: no fault, the server up, the settings and the good kubeconfig back, resumed.
    this.timeout(60_000);
    const { server, api } = fx;
    server.clearFaults();
    await server.comeUp();
    const config = vscode.workspace.getConfiguration('kubeWatch');
    if (config.get('kubeconfigPath') !== fx.kubeconfig) await config.update('kubeconfigPath', fx.kubeconfig, vscode.ConfigurationTarget.Global);
    if (JSON.stringify(config.get('resources')) !== JSON.stringify(SETTINGS.resources)) {
      await config.update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
    }
    writeKubeconfig(server, fx.kubeconfig);
    if (api.isPaused()) await vscode.commands.executeCommand('kubeWatch.resume');
    if (!allWatching(api)) await api.manager.restartAll('test cleanup');
  });

  it(`reads $(eye) ${ALL} with no background while every informer watches; the tooltip lists them`, () => {
    const m = status();
    assert.equal(m.text, `$(eye) ${ALL}`);
    assert.equal(m.icon, 'eye');
    assert.equal(m.spinning, false);
    assert.equal(m.background, 'none');
    assert.equal(m.watching, INFORMERS);
    assert.equal(m.total, INFORMERS);
    assert.match(m.tooltip, new RegExp(`${INFORMERS} of ${INFORMERS} watching`));
    for (const resource of SETTINGS.resources) {
      const rv = entryOf(fx.api, resource).stats.resourceVersion ?? '';
      assert.match(m.tooltip, new RegExp(`kw-test/${resource}.*\\|\\s*watching\\s*\\|\\s*${rv}\\s*\\|`), `${resource} with its resourceVersion in the tooltip:\n${m.tooltip}`);
    }
    assert.match(m.ariaLabel, /2 of 2 watches live/);
  });

  it(`spins while the server is down, then reads $(eye) ${ALL} again after it comes back`, async () => {
    const { server, api } = fx;
    const logFrom = api.log.recentLines().length;
    await server.goDown();
    await until(() => status().text === `$(sync~spin) 0/${INFORMERS}`, showStatus);
    const m = status();
    assert.equal(m.spinning, true);
    assert.equal(m.watching, 0);
    assert.equal(m.background, 'none', 'no background before 30 s of failures');
    await until(() => /unreachable|reconnecting/.test(status().tooltip), () => `the tooltip to name the state:\n${status().tooltip}`);
    await until(
      () => api.tree.model.getChildren().every((n) => /^(unreachable|reconnecting)/.test(api.tree.model.present(n).description ?? '')),
      () => `every resource node to say unreachable or reconnecting: ${api.tree.model.getChildren().map((n) => api.tree.model.present(n).description).join(', ')}`,
    );

    await server.comeUp();
    await until(() => status().text === `$(eye) ${ALL}`, showStatus);
    assert.equal(status().background, 'none');
    const lines = logSince(api, logFrom);
    assert.ok(lines.some((l) => /^warn \[kw-test\/configmaps\] (backing off|unreachable): .*; failed attempt \d+, next try in /.test(l)), `a failed attempt's line in ${JSON.stringify(lines, null, 1)}`);
    assert.ok(lines.some((l) => /^info \[kw-test\/configmaps\] watching again/.test(l) || /^info \[kw-test\/configmaps\] watch opened/.test(l)), `the watch again in ${JSON.stringify(lines, null, 1)}`);
    await settled(fx);
  });

  it('counts an unauthorized informer out and names it in the tooltip; Restart Watch on its node brings it back', async () => {
    const { server, api } = fx;
    const logFrom = api.log.recentLines().length;
    server.injectFault({ type: 'status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' }, { resource: 'secrets', times: Infinity });
    server.dropWatches('end');
    await until(() => entryOf(api, 'secrets').state.phase === 'unauthorized', showStatus);
    // Refused, it will not fix itself: a lock, not a spinning reconnect (V04).
    await until(() => status().text === `$(lock) ${INFORMERS - 1}/${INFORMERS}`, showStatus);
    // The tooltip follows the watches at most once a second (its resourceVersions move on every event): wait for it.
    await until(() => /kw-test\/secrets[^\n]*\|\s*unauthorized/.test(status().tooltip), () => `the tooltip names the state:\n${status().tooltip}`);
    const m = status();
    assert.equal(m.background, 'none', 'no background before 30 s');
    assert.match(m.ariaLabel, /1 failing/);
    const node = resourceNode(api, 'secrets') as TreeNode;
    assert.match(api.tree.model.present(node).description ?? '', /^unauthorized( · [\d,]+ [a-z.]+)?( · next try in \d+ s)?$/);
    assert.equal(entryOf(api, 'configmaps').state.phase, 'watching', 'configmaps unaffected');
    const lines = logSince(api, logFrom);
    assert.ok(lines.some((l) => /^error \[kw-test\/secrets\] unauthorized/.test(l)), `an error line in ${JSON.stringify(lines, null, 1)}`);

    // The server accepts the credentials again; the slow retry would take up to 30 s: restart it from its tree node.
    server.clearFaults();
    await vscode.commands.executeCommand('kubeWatch.restartWatch', node);
    await until(() => status().text === `$(eye) ${ALL}`, showStatus);
    assert.ok(logSince(api, logFrom).some((l) => /^info \[kw-test\/secrets\] restart requested by the Restart Watch command/.test(l)));
    assert.ok(!logSince(api, logFrom).some((l) => /^info \[kw-test\/configmaps\] restart requested/.test(l)), 'only the watch of that node restarted');
  });

  it('reads Paused after kubeWatch.pause, with nothing connected, and comes back after kubeWatch.resume', async () => {
    const { server, api } = fx;
    await vscode.commands.executeCommand('kubeWatch.pause');
    assert.equal(api.isPaused(), true);
    assert.equal(status().text, '$(stop-circle) Paused');
    assert.equal(status().background, 'none');
    assert.match(status().tooltip, /paused/);
    await until(() => api.manager.entries().length === 0 && server.openWatches() === 0, () => `no watch left: ${describeEntries(api)}; open watches ${server.openWatches()}`);
    // V28: the tree keeps its resource nodes, each reading "paused" (its objects drawn stale).
    const roots = api.tree.model.getChildren();
    assert.ok(roots.length > 0, 'the tree keeps its rows while paused');
    for (const root of roots) assert.match(api.tree.model.present(root).description ?? '', /^paused/, describeEntries(api));
    // A setting changed while paused is applied on resume, not before.
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', ['configmaps'], vscode.ConfigurationTarget.Global);
    assert.equal(api.manager.entries().length, 0);
    assert.equal(status().text, '$(stop-circle) Paused');

    await vscode.commands.executeCommand('kubeWatch.resume');
    assert.equal(api.isPaused(), false);
    await until(() => status().text === '$(eye) 1/1', showStatus);
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
    await until(() => status().text === `$(eye) ${ALL}`, showStatus);
  });

  it('follows a token change in the kubeconfig file after a pause and resume: unauthorized, then back', async () => {
    const { server, api } = fx;
    await vscode.commands.executeCommand('kubeWatch.pause');
    await vscode.commands.executeCommand('kubeWatch.resume');
    await settled(fx);

    writeKubeconfig(server, fx.kubeconfig, 'a-token-the-server-refuses');
    await until(() => api.manager.entries().every((e) => e.state.phase === 'unauthorized'), () => `every informer unauthorized after the token change: ${showStatus()}`);
    await until(() => status().text === `$(lock) 0/${INFORMERS}`, showStatus);
    assert.match(status().tooltip, /unauthorized/);
    assert.doesNotMatch(api.log.recentLines().join('\n'), /a-token-the-server-refuses/, 'no credential in the log');

    writeKubeconfig(server, fx.kubeconfig);
    await until(() => status().text === `$(eye) ${ALL}`, showStatus);
  });

  it('reads $(error) Kubeconfig on an error background when the kubeconfig cannot be read, and the view says why', async () => {
    const { api } = fx;
    const config = vscode.workspace.getConfiguration('kubeWatch');
    const missing = path.join(fx.dir, 'no-such-kubeconfig');
    // Paused, so that the resume starts from the unreadable file (a running watch keeps its last good kubeconfig).
    await vscode.commands.executeCommand('kubeWatch.pause');
    await config.update('kubeconfigPath', missing, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('kubeWatch.resume');
    await until(() => status().text === '$(error) Kubeconfig', showStatus);
    assert.equal(status().background, 'error');
    assert.match(status().ariaLabel, /kubeconfig cannot be used/);
    // V02: the welcome content (with its buttons) shows only while the view has no message.
    await until(() => api.tree.view.description === 'no kubeconfig', () => `the view's description: ${api.tree.view.description}`);
    assert.equal(api.tree.view.message, undefined, 'a view message would hide the welcome content');

    await config.update('kubeconfigPath', fx.kubeconfig, vscode.ConfigurationTarget.Global);
    await until(() => status().text === `$(eye) ${ALL}`, showStatus);
    assert.equal(status().background, 'none');
    await until(() => api.tree.view.description !== 'no kubeconfig', () => `the view's description: ${api.tree.view.description}`);
  });

  it('warns, without stopping, when the kubeconfig path changes to a file that cannot be read', async () => {
    const { api } = fx;
    const config = vscode.workspace.getConfiguration('kubeWatch');
    await config.update('kubeconfigPath', path.join(fx.dir, 'no-such-kubeconfig'), vscode.ConfigurationTarget.Global);
    await until(() => status().background === 'warning', showStatus);
    assert.equal(status().text, `$(eye) ${ALL}`, 'still watching on the last good kubeconfig');
    assert.match(status().tooltip, /kubeconfig/);
    assert.doesNotMatch(status().ariaLabel, /failing/);
    // V03: the tree keeps its objects (the browser test sees the rows) and says why above them.
    await until(() => /kubeconfig.*still using the configuration read before/i.test(api.tree.view.message ?? ''), () => `the view's message: ${api.tree.view.message}`);
    await config.update('kubeconfigPath', fx.kubeconfig, vscode.ConfigurationTarget.Global);
    await until(() => status().background === 'none' && status().text === `$(eye) ${ALL}`, showStatus);
    assert.ok(allWatching(api));
    await until(() => /^Showing /.test(api.tree.view.message ?? ''), () => `the view's message back to its scope: ${api.tree.view.message}`);
  });

  it('reads $(eye-closed) No watches when no resource is configured', async () => {
    const config = vscode.workspace.getConfiguration('kubeWatch');
    await config.update('resources', [], vscode.ConfigurationTarget.Global);
    await until(() => status().text === '$(eye-closed) No watches', showStatus);
    assert.deepEqual(fx.api.tree.model.getChildren(), []);
    await config.update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
    await until(() => status().text === `$(eye) ${ALL}`, showStatus);
  });

  // The 30 s escalation runs on the extension's real clock, so it costs 30 s: opt in with KUBE_WATCH_TEST_ESCALATION=1.
  (process.env.KUBE_WATCH_TEST_ESCALATION === '1' ? it : it.skip)('turns to $(error) on an error background after 30 s unauthorized (KUBE_WATCH_TEST_ESCALATION=1)', async function () {
    this.timeout(90_000);
    const { server, api } = fx;
    server.injectFault({ type: 'status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' }, { resource: 'secrets', times: Infinity });
    server.dropWatches('end');
    await until(() => status().text === `$(lock) ${INFORMERS - 1}/${INFORMERS}`, showStatus);
    await until(() => status().text === `$(error) ${INFORMERS - 1}/${INFORMERS}`, showStatus, 60_000);
    assert.equal(status().background, 'error');
    assert.match(status().tooltip, /unauthorized for \d+ s/);
    server.clearFaults();
    await vscode.commands.executeCommand('kubeWatch.restartWatch', resourceNode(api, 'secrets'));
    await until(() => status().text === `$(eye) ${ALL}` && status().background === 'none', showStatus);
  });
});
