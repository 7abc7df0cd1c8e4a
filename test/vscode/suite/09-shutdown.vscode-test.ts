import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeEntries, fixture, registerTeardown, settled, sleep, until, type Fixture } from '../support/fixture';

registerTeardown();

/** What the extension's main module exports (dist/extension.js, as the extension host loaded it). */
interface ExtensionModule {
  activate: unknown;
  deactivate: () => Promise<void> | undefined;
}

describe('stopping (runs last)', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
  });

  const sockets = () => `open sockets ${fx.server.openSockets()}, open watches ${fx.server.openWatches()}; ${describeEntries(fx.api)}`;

  /** No socket now, and no request for a while: nothing is left that would connect again. */
  async function quiet(): Promise<void> {
    const { server } = fx;
    await until(() => server.openSockets() === 0, sockets);
    const requests = server.requests.length;
    await sleep(1500);
    assert.equal(server.requests.length, requests, `no request after stopping: ${JSON.stringify(server.requests.slice(requests).map((r) => `${r.verb} ${r.path}`))}`);
    assert.equal(server.openSockets(), 0, sockets());
  }

  it('kubeWatch.pause closes every socket to the server; kubeWatch.resume reconnects', async () => {
    await settled(fx);
    await vscode.commands.executeCommand('kubeWatch.pause');
    await quiet();
    await vscode.commands.executeCommand('kubeWatch.resume');
    await settled(fx);
    assert.ok(fx.server.openSockets() > 0);
  });

  it('manager.stop() leaves no socket open on the server', async () => {
    const { api } = fx;
    await settled(fx);
    await api.manager.stop();
    assert.deepEqual(api.manager.entries(), []);
    await quiet();
    await api.manager.start();
    await settled(fx);
  });

  it('deactivate() leaves no socket open on the server', async () => {
    const { api, extension } = fx;
    await settled(fx);
    // The module the extension host loaded (Node's module cache): its deactivate() is the one VS Code calls.
    const main = path.join(extension.extensionPath, (extension.packageJSON as { main: string }).main);
    const loaded = require.cache[require.resolve(main)];
    assert.ok(loaded, `${main} is in the module cache`);
    const mod = loaded.exports as ExtensionModule;
    const stopping = mod.deactivate();
    assert.ok(stopping, 'deactivate() stops the running manager');
    await stopping;
    assert.deepEqual(api.manager.entries(), [], 'every watch stopped');
    await quiet();
  });
});
