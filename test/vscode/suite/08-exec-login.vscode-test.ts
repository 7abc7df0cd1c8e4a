import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CONTEXT, TOKEN, describeEntries, fixture, registerTeardown, settled, until, writeKubeconfig, type Fixture } from '../support/fixture';

registerTeardown();

/**
 * W15 inside VS Code: an exec credential plugin that logs in (interactiveMode IfAvailable, a
 * device code asked for on stderr, as kubelogin's) is answered in a terminal the extension opens;
 * what the user types there reaches the plugin, and every watch goes on with the one login.
 */
describe('Exec plugins that log in', () => {
  let fx: Fixture;
  let pluginDir: string;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    pluginDir = fs.mkdtempSync(path.join(fx.dir, 'exec-login-'));
  });

  after(async function () {
    this.timeout(60_000);
    for (const t of vscode.window.terminals) if (t.name.startsWith('Kube Watch: log in')) t.dispose();
    writeKubeconfig(fx.server, fx.kubeconfig);
    await settled(fx);
  });

  it('W15 a device-code login opens a terminal named for the plugin; the code typed there logs in once, and every watch is back', async function () {
    this.timeout(90_000);
    const { api, extension } = fx;
    fs.writeFileSync(path.join(pluginDir, 'token'), TOKEN);
    fs.writeFileSync(path.join(pluginDir, 'prompt-code'), 'WXYZ-1234');
    const script = path.join(extension.extensionPath, 'test', 'support', 'exec-plugin', 'exec-plugin.mjs');
    const q = JSON.stringify;
    // The same cluster and context, now with a user whose credential comes from the plugin: the
    // extension reloads the kubeconfig and runs the plugin for its watches.
    const text = fx.server
      .kubeconfig({ context: CONTEXT })
      .replace(
        /    token: .*\n/,
        [`    exec:`, `      apiVersion: "client.authentication.k8s.io/v1"`, `      command: ${q(process.execPath)}`, `      args: [${q(script)}, ${q(pluginDir)}]`, `      interactiveMode: "IfAvailable"`, ''].join('\n'),
      );
    const temp = `${fx.kubeconfig}.exec.tmp`;
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, fx.kubeconfig);

    const loginTerminal = () => vscode.window.terminals.find((t) => t.name === `Kube Watch: log in (${path.basename(process.execPath)})`);
    await until(() => loginTerminal() !== undefined, () => `a login terminal; terminals: ${vscode.window.terminals.map((t) => t.name).join(', ')}; ${describeEntries(api)}`);
    loginTerminal()!.sendText('WXYZ-1234');
    await until(
      () => api.manager.entries().every((e) => e.state.phase === 'watching' && !e.error) && fs.readFileSync(path.join(pluginDir, 'runs'), 'utf8').split('\n').filter(Boolean).length === 1,
      () => `every watch back after one login: ${describeEntries(api)}`,
    );
    const info = JSON.parse(fs.readFileSync(path.join(pluginDir, 'exec-info'), 'utf8')) as { spec: { interactive: boolean } };
    assert.equal(info.spec.interactive, true, 'the plugin was told a terminal answers it');
    assert.equal(fs.readFileSync(path.join(pluginDir, 'runs'), 'utf8').split('\n').filter(Boolean).length, 1, 'one login for every watch');
  });
});
