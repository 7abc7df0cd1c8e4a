import * as vscode from 'vscode';
import type { WatchManager } from '../../manager';
import type { ManagerCluster } from '../../manifests/manager-cluster';
import type { ManifestEngine } from '../../manifests/manifest-engine';

const PICK_COMMAND = 'kubeWatch.manifests.pickContext';
const CURRENT = 'current context';

/**
 * A status-bar item while a manifest is the active editor, naming the context its lenses compare
 * with; clicking it picks that context for the file's workspace folder (the folder's
 * `kubeWatch.workspace.context`; "current context" clears it).
 */
export function contextStatus(engine: ManifestEngine, cluster: ManagerCluster, manager: WatchManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('kubeWatch.manifests.context', vscode.StatusBarAlignment.Left, 48);
  item.name = 'Kube Watch: Manifests Context';
  item.command = PICK_COMMAND;
  const refresh = () => {
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const view = uri ? engine.view(uri) : undefined;
    if (!uri || !view || view.documents.length === 0) return void item.hide();
    const target = cluster.target(uri);
    if ('problem' in target) {
      item.text = '$(warning) manifests: no context';
      item.tooltip = `Kube Watch compares this file with no context: ${target.problem}. Click to pick one.`;
    } else {
      item.text = `$(diff) ${target.context}`;
      item.tooltip = `Kube Watch compares this file's manifests with context "${target.context}". Click to pick another for this folder.`;
    }
    item.show();
  };
  const pick = async () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    if (!folder) return void vscode.window.showInformationMessage('Kube Watch: this file is in no workspace folder, so there is no folder setting to choose a context for; set kubeWatch.workspace.context in your user settings instead.');
    const current = manager.contextOrigin('')?.context;
    const items: vscode.QuickPickItem[] = [
      { label: CURRENT, description: current ? `now ${current}` : undefined },
      ...manager.configuration.contexts.filter((c) => c).map((c) => ({ label: c })),
    ];
    const chosen = await vscode.window.showQuickPick(items, { title: `Compare the manifests of ${folder.name} with`, placeHolder: 'a context of kubeWatch.contexts, or the current context' });
    if (!chosen) return;
    const config = vscode.workspace.getConfiguration('kubeWatch', folder.uri);
    await config.update('workspace.context', chosen.label === CURRENT ? undefined : chosen.label, vscode.ConfigurationTarget.WorkspaceFolder);
    if (!vscode.workspace.isTrusted) void vscode.window.showWarningMessage('Kube Watch: the folder setting is saved, but this workspace is not trusted, so it is not honoured (only your own settings are) until you trust it.');
  };
  const subs = [
    item,
    vscode.commands.registerCommand(PICK_COMMAND, pick),
    vscode.window.onDidChangeActiveTextEditor(refresh),
    engine.onDidChange((uri) => uri === vscode.window.activeTextEditor?.document.uri.toString() && refresh()),
    cluster.onDidChange(refresh),
  ];
  refresh();
  return { dispose: () => subs.forEach((s) => s.dispose()) };
}
