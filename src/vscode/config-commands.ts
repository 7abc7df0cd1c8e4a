import * as vscode from 'vscode';
import { KubeConfigError, listResourceTypes, loadKubeConfig, readKubeConfigFiles } from '../cluster';
import { describeError } from '../base';
import { KubeConfigTransport } from '../connection/transport/kubeconfig-transport';
import { resourceTypeName, type KubeTransport, type ResourceType } from '../informer';
import type { WatchManager } from '../manager';
import { labelSelectorProblem } from '../ui/label-selector';
import { readSettings, writeSetting } from './settings';
import { entryIdsOf, type TreeNode } from './tree-provider';

/** What the commands need from the extension besides the manager. */
export interface WatchControls {
  pause(): Promise<void>;
  resume(): Promise<void>;
}


/**
 * The commands that change what is watched, or restart it. Each writes settings (which the
 * settings listener turns into a targeted manager update) or calls the manager directly.
 */
export function registerConfigCommands(manager: WatchManager, controls: WatchControls): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('kubeWatch.restartAll', () => manager.restartAll('restart requested by the Restart All Watches command')),
    vscode.commands.registerCommand('kubeWatch.restartWatch', async (node?: TreeNode) => {
      const ids = node ? entryIdsOf(node) : [];
      if (ids.length === 0) {
        const id = await pickEntry(manager);
        if (id) ids.push(id);
      }
      for (const id of ids) await manager.restart(id, 'restart requested by the Restart Watch command');
    }),
    vscode.commands.registerCommand('kubeWatch.pause', () => controls.pause()),
    vscode.commands.registerCommand('kubeWatch.resume', () => controls.resume()),
    vscode.commands.registerCommand('kubeWatch.chooseResources', () => chooseResources(manager)),
    vscode.commands.registerCommand('kubeWatch.chooseNamespaces', chooseNamespaces),
    vscode.commands.registerCommand('kubeWatch.setLabelSelector', setLabelSelector),
    vscode.commands.registerCommand('kubeWatch.switchContext', switchContext),
    vscode.commands.registerCommand('kubeWatch.pickKubeconfig', pickKubeconfig),
  );
}

async function pickEntry(manager: WatchManager): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    manager.entries().map((e) => ({ label: e.label, description: e.state.phase, id: e.id })),
    { title: 'Restart Watch', placeHolder: 'Which watch?' },
  );
  return picked?.id;
}

/**
 * Runs `fn` against the cluster of the first configured context (or the current one), with a
 * cancellable progress notification. Failures become one error message; returns undefined.
 */
async function withCluster<T>(title: string, fn: (t: KubeTransport, signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const settings = readSettings();
  let transport: KubeTransport | undefined;
  try {
    const { kc } = loadKubeConfig({ path: settings.kubeconfigPath || undefined, context: settings.contexts[0] });
    const t = new KubeConfigTransport(kc);
    transport = t;
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
      const ctl = new AbortController();
      token.onCancellationRequested(() => ctl.abort());
      return fn(t, ctl.signal);
    });
  } catch (err) {
    if (!(err instanceof Error && err.name === 'AbortedError')) {
      void vscode.window.showErrorMessage(`Kube Watch: ${err instanceof KubeConfigError ? err.message : describeError(err)}`);
    }
    return undefined;
  } finally {
    transport?.dispose();
  }
}

async function chooseResources(manager: WatchManager): Promise<void> {
  const types = await withCluster('Kube Watch: reading the resource types of the cluster…', listResourceTypes);
  if (!types) return;
  const current = new Set(readSettings().resources);
  // Spellings in the settings may differ from discovery's (`po`, `deployment`): match through the manager's resolution.
  for (const e of manager.entries()) if (e.type && current.has(e.resource)) current.add(resourceTypeName(e.type));
  const items = types
    .map((t) => ({ label: resourceTypeName(t), description: describeType(t), picked: current.has(resourceTypeName(t)), type: t }))
    .sort((a, b) => Number(b.picked) - Number(a.picked) || a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Choose Resources to Watch',
    placeHolder: 'Resource types (custom resources included)',
    canPickMany: true,
    matchOnDescription: true,
  });
  if (!picked) return;
  await writeSetting(
    'resources',
    picked.map((p) => p.label),
  );
}

function describeType(t: ResourceType): string {
  return `${t.kind} · ${t.group ? `${t.group}/` : ''}${t.version}${t.namespaced ? '' : ' · cluster-scoped'}`;
}

async function chooseNamespaces(): Promise<void> {
  const names = await withCluster('Kube Watch: listing namespaces…', async (t, signal) => {
    const list = await t.list('/api/v1/namespaces', {}, signal);
    return (list.items ?? [])
      .map((n) => (n as { metadata?: { name?: string } }).metadata?.name)
      .filter((n): n is string => typeof n === 'string')
      .sort();
  });
  if (!names) return;
  const current = new Set(readSettings().namespaces);
  const all = { label: '$(globe) All namespaces', description: 'watch cluster-wide', picked: current.size === 0, name: '' };
  const items = [all, ...names.map((name) => ({ label: name, description: '', picked: current.has(name), name }))];
  const picked = await vscode.window.showQuickPick(items, { title: 'Choose Namespaces', canPickMany: true, placeHolder: 'Namespaces to watch' });
  if (!picked) return;
  const chosen = picked.some((p) => p.name === '') ? [] : picked.map((p) => p.name);
  await writeSetting('namespaces', chosen);
}

async function setLabelSelector(): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: 'Set Label Selector',
    prompt: 'Applied to every watch. Empty: no selector.',
    placeHolder: 'app=web,tier!=cache',
    value: readSettings().labelSelector,
    validateInput: (v) => labelSelectorProblem(v),
  });
  if (value === undefined) return;
  await writeSetting('labelSelector', value.trim());
}

async function switchContext(): Promise<void> {
  const settings = readSettings();
  let contexts: string[];
  let current: string;
  try {
    const { kc } = readKubeConfigFiles({ path: settings.kubeconfigPath || undefined });
    contexts = kc.getContexts().map((c) => c.name);
    current = kc.getCurrentContext();
  } catch (err) {
    void vscode.window.showErrorMessage(`Kube Watch: ${describeError(err)}`);
    return;
  }
  const watched = new Set(settings.contexts);
  const follow = { label: '$(arrow-swap) Follow the current context', description: current ? `now ${current}` : '', name: '' };
  const items = [follow, ...contexts.map((name) => ({ label: name, description: [name === current ? 'current' : '', watched.has(name) ? 'watched' : ''].filter(Boolean).join(' · '), name }))];
  const picked = await vscode.window.showQuickPick(items, { title: 'Switch Context', placeHolder: 'The context to watch' });
  if (!picked) return;
  await writeSetting('contexts', picked.name ? [picked.name] : []);
}

async function pickKubeconfig(): Promise<void> {
  const uris = await vscode.window.showOpenDialog({ title: 'Pick a kubeconfig file', canSelectMany: false, openLabel: 'Use This Kubeconfig' });
  if (!uris || uris.length === 0) return;
  // Always a user setting: a workspace value would be ignored in untrusted workspaces.
  await vscode.workspace.getConfiguration('kubeWatch').update('kubeconfigPath', uris[0].fsPath, vscode.ConfigurationTarget.Global);
}
