import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as vscode from 'vscode';
import { SETTINGS, describeEntries, fixture, registerTeardown, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

/**
 * S10 inside VS Code: a port-forward and a shell through the extension, counted through its test
 * API (`KubeWatchApi.portForwards`, `.shells`): after Stop Port Forward and after the shell's
 * terminal closes, no listener, stream, socket, timer or watch is left, and the server has no
 * stream open.
 */
describe('Port forwards and shells', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    fx.server.create('pods', {
      metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'web', ports: [{ containerPort: 8080, name: 'http' }] }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources, 'pods'], vscode.ConfigurationTarget.Global);
  });

  after(async function () {
    this.timeout(60_000);
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
    await settled(fx);
  });

  it('S10 a forward and a shell through the extension; Stop and closing the terminal leave no listener, stream, socket, timer or watch', async () => {
    const { api, server } = fx;
    const podsEntry = () => api.manager.entries().find((e) => e.resource === 'pods');
    await until(() => podsEntry()?.informer?.get('default', 'web-1') !== undefined, () => `the pod in the cache: ${describeEntries(api)}`);
    const watchesBefore = api.manager.adHocWatchCount;
    const id = await api.portForwards.start(podsEntry()!.id, { kind: 'Pod', namespace: 'default', name: 'web-1', port: 8080, localPort: 0 });
    const forward = api.portForwards.forwards.get(id)!.forward;
    assert.equal(await get(forward.status.localPort), 'web-1\n');
    await until(() => forward.status.served === 1, () => `served: ${JSON.stringify(forward.status)}`);
    assert.equal(api.portForwards.resources().listeners, 1);

    await vscode.commands.executeCommand('kubeWatch.openShell', { entryId: podsEntry()!.id, namespace: 'default', name: 'web-1' });
    await until(() => api.shells.openSessions() === 1 && server.podStreams.openStreams('exec') === 1, () => `a shell session: extension ${api.shells.openSessions()}, server ${server.podStreams.openStreams('exec')}`);

    await vscode.commands.executeCommand('kubeWatch.stopPortForward', { forwardId: id });
    for (const t of vscode.window.terminals) if (t.name.startsWith('shell ')) t.dispose();
    await until(
      () => {
        const r = api.portForwards.resources();
        return r.listeners + r.streams + r.sockets + r.timers + r.watches === 0 && api.shells.openSessions() === 0 && api.shells.openTerminals() === 0 && server.podStreams.openStreams() === 0 && api.manager.adHocWatchCount === watchesBefore;
      },
      () => `left: ${JSON.stringify(api.portForwards.resources())}, shells ${api.shells.openSessions()}/${api.shells.openTerminals()}, server streams ${server.podStreams.openStreams()}, watches ${api.manager.adHocWatchCount}`,
    );
    assert.equal(api.portForwards.forwards.size, 0);
    server.delete('pods', 'default', 'web-1');
  });
});
