import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { forwardBindAddress, RESTRICTED_SETTINGS, type SettingsSource } from '../../src/ui/trusted-settings';
import { readWatchSettings } from '../../src/ui/watch-settings';

/**
 * A `kubeWatch` configuration as VS Code layers it: the user's (global) values under a
 * workspace's (`.vscode/settings.json`); `get` returns the most specific, whatever the trust, as
 * VS Code's does for a setting it was not told is restricted, so the reader is tested on its own.
 */
function configuration(user: Record<string, unknown>, workspace: Record<string, unknown>): SettingsSource {
  return {
    get: <T>(key: string, fallback: T) => (key in workspace ? workspace[key] : key in user ? user[key] : fallback) as T,
    inspect: <T>(key: string) => ({ globalValue: user[key] as T | undefined, workspaceValue: workspace[key] as T | undefined }),
  };
}

interface Contributed {
  readonly scope?: string;
}

describe('W13 settings a cloned repository cannot choose', () => {
  const cloned = { kubeconfigPath: './ci/kubeconfig-with-exec-plugin', contexts: ['prod-admin'], 'portForward.address': '0.0.0.0' };

  it('W13 a workspace\'s kubeconfig path, contexts and port-forward address count only in a trusted workspace; untrusted, only the user\'s own values do', () => {
    const mine = { kubeconfigPath: '/home/me/.kube/dev', contexts: ['kind-dev'], 'portForward.address': '127.0.0.2' };
    const untrusted = configuration(mine, cloned);
    assert.deepEqual(
      { ...readWatchSettings(untrusted, false), address: forwardBindAddress(untrusted, false) },
      { ...readWatchSettings(untrusted, false), kubeconfigPath: '/home/me/.kube/dev', contexts: ['kind-dev'], address: '127.0.0.2' },
    );
    const nothingOfMine = configuration({}, cloned);
    assert.equal(readWatchSettings(nothingOfMine, false).kubeconfigPath, '', 'the KUBECONFIG variable, then ~/.kube/config');
    assert.deepEqual(readWatchSettings(nothingOfMine, false).contexts, [], 'the current context');
    assert.equal(forwardBindAddress(nothingOfMine, false), '127.0.0.1');
    // Trusted: the workspace's kubeconfig and contexts are the user's choice to honour.
    const trusted = readWatchSettings(nothingOfMine, true);
    assert.deepEqual([trusted.kubeconfigPath, trusted.contexts], ['./ci/kubeconfig-with-exec-plugin', ['prod-admin']]);
  });

  it('W13 a wildcard bind address (0.0.0.0, ::) only when the user\'s own settings chose it, never a workspace\'s, even trusted', () => {
    assert.equal(forwardBindAddress(configuration({}, { 'portForward.address': '0.0.0.0' }), true), '127.0.0.1');
    assert.equal(forwardBindAddress(configuration({}, { 'portForward.address': '::' }), true), '127.0.0.1');
    assert.equal(forwardBindAddress(configuration({ 'portForward.address': '127.0.0.1' }, { 'portForward.address': '0:0:0:0:0:0:0:0' }), true), '127.0.0.1');
    assert.equal(forwardBindAddress(configuration({}, { 'portForward.address': '::1' }), true), '::1', 'a trusted workspace may pick another loopback');
    assert.equal(forwardBindAddress(configuration({ 'portForward.address': '0.0.0.0' }, {}), false), '0.0.0.0', 'the user chose it');
    assert.equal(forwardBindAddress(configuration({ 'portForward.address': '::' }, {}), true), '::');
    assert.equal(forwardBindAddress(configuration({ 'portForward.address': 42 }, {}), true), '127.0.0.1', 'a hand-edited value of the wrong type');
  });

  it('W13 package.json: the address is machine-scoped, the kubeconfig path machine-overridable, and every setting that picks a kubeconfig, context, address or field manager is restricted in untrusted workspaces', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { configuration: Array<{ properties: Record<string, Contributed> }> | { properties: Record<string, Contributed> } };
      capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
    };
    const sections = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
    const declared = Object.assign({}, ...sections.map((s) => s.properties)) as Record<string, Contributed>;
    assert.equal(declared['kubeWatch.portForward.address']?.scope, 'machine');
    assert.equal(declared['kubeWatch.kubeconfigPath']?.scope, 'machine-overridable');
    const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const ours = RESTRICTED_SETTINGS.map((k) => `kubeWatch.${k}`);
    // A setting added later (the field manager) is caught here: it must be read through restrictedSetting.
    const picking = Object.keys(declared).filter((k) => /kubeconfig|context|address|fieldManager/i.test(k));
    assert.deepEqual(picking.filter((k) => !ours.includes(k)), [], 'read through the restricted reader');
    assert.deepEqual(ours.filter((k) => !restricted.includes(k)), [], 'listed in restrictedConfigurations');
  });
});
