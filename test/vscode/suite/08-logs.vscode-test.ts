import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SETTINGS, describeEntries, fixture, registerTeardown, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

/**
 * Follow Logs through the command, on the fixture's server: a terminal opens, its follower holds
 * one stream (and its silence timer) on the context's transport, a dropped connection is resumed,
 * and closing the terminal leaves no stream or timer in the extension and none on the server.
 */
describe('Follow Logs', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    fx.server.create('pods', {
      metadata: { name: 'logger', namespace: 'default' },
      spec: { containers: [{ name: 'main', image: 'busybox' }] },
      status: { phase: 'Running', containerStatuses: [{ name: 'main', restartCount: 0, ready: true, state: { running: {} } }] },
    });
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources, 'pods'], vscode.ConfigurationTarget.Global);
  });

  after(async function () {
    this.timeout(60_000);
    for (const t of vscode.window.terminals) if (t.name.startsWith('logs ')) t.dispose();
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
    await settled(fx);
  });

  it('follows a pod in a terminal through a dropped connection; closing the terminal stops every stream and timer', async () => {
    const { api, server } = fx;
    const podsEntry = () => api.manager.entries().find((e) => e.resource === 'pods');
    await until(() => podsEntry()?.informer?.get('default', 'logger') !== undefined, () => `the pod in the cache: ${describeEntries(api)}`);
    assert.equal(api.logs.openStreams(), 0);
    assert.equal(api.logs.openTimers(), 0);
    server.podLogs.append('default', 'logger', 'main', 'first line');

    await vscode.commands.executeCommand('kubeWatch.followLogs', { entryId: podsEntry()!.id, namespace: 'default', name: 'logger' });
    const terminal = vscode.window.terminals.find((t) => t.name === 'logs default/logger/main');
    assert.ok(terminal, `a terminal named after the pod: ${vscode.window.terminals.map((t) => t.name).join(', ')}`);
    await until(() => api.logs.openStreams() === 1 && server.podLogs.openStreams === 1, () => `one stream: extension ${api.logs.openStreams()}, server ${server.podLogs.openStreams}`);
    assert.equal(api.logs.openTerminals(), 1);
    assert.equal(api.logs.openTimers(), 1, 'the silence check');

    // The server drops it: the follower waits (a backoff timer) and opens it again.
    server.podLogs.drop('reset');
    await until(() => server.podLogs.openStreams === 1 && api.logs.openStreams() === 1, () => `the stream resumed: extension ${api.logs.openStreams()}, server ${server.podLogs.openStreams}`);

    terminal.dispose();
    await until(
      () => api.logs.openTerminals() === 0 && api.logs.openStreams() === 0 && api.logs.openTimers() === 0 && server.podLogs.openStreams === 0,
      () => `nothing left: terminals ${api.logs.openTerminals()}, streams ${api.logs.openStreams()}, timers ${api.logs.openTimers()}, server streams ${server.podLogs.openStreams}`,
    );
  });
});
