import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, INFORMERS, SETTINGS, entryOf, fixture, registerTeardown, settled, type Fixture } from '../support/fixture';

registerTeardown();

describe('activation', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
  });

  it('returns the API: manager, tree, status bar, log and pause state', async () => {
    const { extension, api } = fx;
    assert.equal(extension.id, EXTENSION_ID);
    assert.equal(extension.isActive, true);
    assert.equal(extension.exports, api, 'activate() resolves with the exports');
    assert.equal(typeof api.manager.entries, 'function');
    assert.equal(typeof api.tree.model.getChildren, 'function');
    assert.equal(typeof api.statusBar.model.text, 'string');
    assert.equal(api.log.channel.name, 'Kube Watch');
    assert.ok(Array.isArray(api.log.recentLines()));
    assert.equal(api.isPaused(), false);
    // Activating again hands back the same API and starts nothing new.
    assert.equal(await extension.activate(), api);
    await settled(fx);
  });

  it('watches the configured resources from the kubeconfig named in the settings', () => {
    const { api, server } = fx;
    const entries = api.manager.entries();
    assert.equal(entries.length, INFORMERS);
    assert.deepEqual(entries.map((e) => e.resource).sort(), [...SETTINGS.resources].sort());
    for (const resource of SETTINGS.resources) {
      const entry = entryOf(api, resource);
      assert.equal(entry.context, 'kw-test');
      assert.equal(entry.namespace, '', 'all namespaces');
      assert.equal(entry.stats.objects, server.list(resource).length, `${resource}: objects in the informer`);
    }
    const lines = api.log.recentLines();
    for (const resource of SETTINGS.resources) {
      assert.ok(
        lines.some((l) => l.startsWith(`info [kw-test/${resource}`) && /list finished/.test(l)),
        `a "list finished" line for ${resource} in ${JSON.stringify(lines.slice(-30), null, 1)}`,
      );
      assert.ok(lines.some((l) => l.startsWith(`info [kw-test/${resource}`) && /watch opened at resourceVersion \d+/.test(l)), `a "watch opened" line for ${resource}`);
    }
  });

  it('registers every command the manifest contributes', async () => {
    const contributed = (fx.extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 10, `the manifest contributes ${contributed.length} commands`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], 'contributed commands that are not registered');
  });
});
