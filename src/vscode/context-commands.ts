import * as vscode from 'vscode';
import { describeError, type Disposable } from '../base';
import { readKubeConfigFiles } from '../cluster';
import type { EntriesChange, WatchConfig, WatchEntry } from '../manager';
import type { ViewNode } from '../ui/tree';
import { readSettings, writeSetting } from './settings';

/** What the context commands and the context's status bar item read of the watch manager. */
export interface ContextSource {
  readonly configuration: WatchConfig;
  entries(): WatchEntry[];
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
}

/** The least time between two reads of the kubeconfig for the status bar item's name. */
const REREAD_MS = 2000;

/**
 * Several clusters at a glance (issue 23, part 6): `kubeWatch.addContext` adds a kubeconfig
 * context to the watched ones (following the current context, it becomes the first of two),
 * `kubeWatch.removeContext` (a context row's action, or a pick) removes one; with several, each
 * is a top row of the view with its own health. And a status bar item naming the current
 * context (the kubeconfig's, as kubectl uses it), which opens Switch Context.
 */
export function registerContextCommands(manager: ContextSource): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('kubeWatch.context', vscode.StatusBarAlignment.Left, 49);
  item.name = 'Kube Watch: Context';
  item.command = 'kubeWatch.switchContext';
  let readAt = Number.NEGATIVE_INFINITY;
  let current: string | undefined;

  const show = () => {
    const configured = manager.configuration.contexts;
    if (configured.length === 0) current = manager.entries().find((e) => e.context)?.context ?? current;
    else if (Date.now() - readAt > REREAD_MS) {
      readAt = Date.now();
      current = kubeconfigState()?.current || current;
    }
    if (!current) {
      item.hide();
      return;
    }
    const watched = configured.length === 0 ? [current] : configured;
    item.text = `$(server-environment) ${current}`;
    item.tooltip = `Kubeconfig current context: ${current}\nWatched: ${watched.join(', ')}${configured.length === 0 ? ' (following the current context)' : ''}\nClick to switch.`;
    item.accessibilityInformation = { label: `Kube Watch: current context ${current}, watching ${watched.join(', ')}`, role: 'button' };
    item.show();
  };
  show();

  const addContext = async () => {
    const state = kubeconfigState(true);
    if (!state) return;
    const configured = readSettings().contexts;
    const watched = configured.length > 0 ? configured : state.current ? [state.current] : [];
    const items = state.contexts.filter((c) => !watched.includes(c)).map((name) => ({ label: name, description: name === state.current ? 'current' : '' }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Every context of the kubeconfig is watched already.');
      return;
    }
    const picked = await vscode.window.showQuickPick(items, { title: 'Add Context', placeHolder: `Watch another context beside ${watched.join(', ') || 'the current one'}` });
    if (!picked) return;
    await writeSetting('contexts', [...watched, picked.label]);
  };

  const removeContext = async (node?: ViewNode) => {
    const configured = readSettings().contexts;
    let name = node?.kind === 'context' ? node.spec : undefined;
    if (name === undefined) {
      if (configured.length < 2) {
        void vscode.window.showInformationMessage('Only one context is watched: Switch Context picks another.');
        return;
      }
      name = (await vscode.window.showQuickPick(configured, { title: 'Remove Context', placeHolder: 'Stop watching this context' })) ?? undefined;
    }
    if (name === undefined || !configured.includes(name)) return;
    const rest = configured.filter((c) => c !== name);
    // The last one left is kept as named: an empty list would mean "follow the current context".
    if (rest.length === 0) return;
    await writeSetting('contexts', rest);
  };

  // The item follows the entries: a context switch renames it.
  const subscription = manager.onDidChangeEntries(show);
  return vscode.Disposable.from(
    item,
    new vscode.Disposable(() => subscription.dispose()),
    vscode.commands.registerCommand('kubeWatch.addContext', addContext),
    vscode.commands.registerCommand('kubeWatch.removeContext', removeContext),
  );
}

/** The kubeconfig's contexts and current-context, or undefined (with a message when `tell`) when it cannot be read. */
function kubeconfigState(tell = false): { contexts: string[]; current: string } | undefined {
  try {
    const { kc } = readKubeConfigFiles({ path: readSettings().kubeconfigPath || undefined });
    return { contexts: kc.getContexts().map((c) => c.name), current: kc.getCurrentContext() };
  } catch (err) {
    if (tell) void vscode.window.showErrorMessage(`Kube Watch: ${describeError(err)}`);
    return undefined;
  }
}
