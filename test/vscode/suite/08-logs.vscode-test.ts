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
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources, 'pods', 'deployments.apps'], vscode.ConfigurationTarget.Global);
  });

  afterEach(async function () {
    // A test that failed half-way must not leave its terminal's streams to the next one.
    this.timeout(30_000);
    for (const t of vscode.window.terminals) if (t.name.startsWith('logs ')) t.dispose();
    await until(() => fx.api.logs.openTerminals() === 0 && fx.api.logs.openStreams() === 0, () => `log terminals left: ${fx.api.logs.openTerminals()}, streams ${fx.api.logs.openStreams()}`);
  });

  after(async function () {
    this.timeout(60_000);
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
    // The follower counts its stream from the request on, and arms its silence check when the
    // response's headers arrive, which a busy machine may deliver after the server counts it.
    await until(
      () => api.logs.openStreams() === 1 && server.podLogs.openStreams === 1 && api.logs.openTimers() === 1,
      () => `one stream and its silence check: extension ${api.logs.openStreams()} streams and ${api.logs.openTimers()} timers, server ${server.podLogs.openStreams} streams`,
    );
    assert.equal(api.logs.openTerminals(), 1);

    // The server drops it: the follower waits (a backoff timer) and opens it again.
    server.podLogs.drop('reset');
    await until(() => server.podLogs.openStreams === 1 && api.logs.openStreams() === 1, () => `the stream resumed: extension ${api.logs.openStreams()}, server ${server.podLogs.openStreams}`);

    terminal.dispose();
    await until(
      () => api.logs.openTerminals() === 0 && api.logs.openStreams() === 0 && api.logs.openTimers() === 0 && server.podLogs.openStreams === 0,
      () => `nothing left: terminals ${api.logs.openTerminals()}, streams ${api.logs.openStreams()}, timers ${api.logs.openTimers()}, server streams ${server.podLogs.openStreams}`,
    );
  });

  it('follows every container of a Deployment\'s pods (4 streams); a deleted pod stops its streams; closing leaves no stream, timer or watch', async () => {
    const { api, server } = fx;
    const entryOfResource = (resource: string) => api.manager.entries().find((e) => e.resource === resource);
    const running = (c: string) => ({ name: c, restartCount: 0, ready: true, containerID: `containerd://${c}`, state: { running: {} } });
    server.create('deployments.apps', {
      metadata: { name: 'lw', namespace: 'default', labels: { app: 'lw' } },
      spec: { replicas: 2, selector: { matchLabels: { app: 'lw' } }, template: { metadata: { labels: { app: 'lw' } } } },
    });
    for (const p of ['lw-1', 'lw-2']) {
      server.create('pods', {
        metadata: { name: p, namespace: 'default', labels: { app: 'lw' } },
        spec: { containers: [{ name: 'main', image: 'busybox' }, { name: 'side', image: 'busybox' }] },
        status: { phase: 'Running', containerStatuses: [running('main'), running('side')] },
      });
      server.podLogs.append('default', p, 'side', `${p} side says hi`);
    }
    await until(() => entryOfResource('deployments.apps')?.informer?.get('default', 'lw') !== undefined, () => `the deployment in the cache: ${describeEntries(api)}`);
    const watchesBefore = api.manager.adHocWatchCount;

    await vscode.commands.executeCommand('kubeWatch.followLogs', { entryId: entryOfResource('deployments.apps')!.id, namespace: 'default', name: 'lw' });
    const terminal = vscode.window.terminals.find((t) => t.name === 'logs default/deploy/lw');
    assert.ok(terminal, `a terminal named after the deployment: ${vscode.window.terminals.map((t) => t.name).join(', ')}`);
    await until(
      () => api.logs.openStreams() === 4 && server.podLogs.openStreams === 4,
      () => `4 streams: extension ${api.logs.openStreams()}, server ${server.podLogs.openStreams}, watches ${api.manager.adHocWatchCount}`,
    );
    assert.deepEqual(server.podLogs.followedContainers().map((c) => `${c.pod}/${c.container}`).sort(), ['lw-1/main', 'lw-1/side', 'lw-2/main', 'lw-2/side']);
    assert.equal(api.manager.adHocWatchCount, watchesBefore + 2, 'the pods and the ReplicaSets of the deployment');

    server.delete('pods', 'default', 'lw-2');
    await until(() => api.logs.openStreams() === 2 && server.podLogs.openStreams === 2, () => `after the delete: extension ${api.logs.openStreams()}, server ${server.podLogs.openStreams}`);

    terminal.dispose();
    await until(
      () => api.logs.openTerminals() === 0 && api.logs.openStreams() === 0 && api.logs.openTimers() === 0 && server.podLogs.openStreams === 0 && api.manager.adHocWatchCount === watchesBefore,
      () => `nothing left: terminals ${api.logs.openTerminals()}, streams ${api.logs.openStreams()}, timers ${api.logs.openTimers()}, server streams ${server.podLogs.openStreams}, watches ${api.manager.adHocWatchCount}`,
    );
    server.delete('pods', 'default', 'lw-1');
    server.delete('deployments.apps', 'default', 'lw');
  });
});
