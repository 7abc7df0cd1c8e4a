import * as vscode from 'vscode';
import type { WatchManager } from '../manager';
import { kubeconfigProblem } from '../ui/kubeconfig-problem';

/** Shows why no kubeconfig can be read (the welcome content's "Show Why" button). */
export const SHOW_KUBECONFIG_PROBLEM_COMMAND = 'kubeWatch.showKubeconfigProblem';

/**
 * Keeps the `kubeWatch.kubeconfigProblem` context key (which selects the welcome content)
 * current, and registers the command that tells the reason: the welcome content is static text,
 * and a view message would hide it.
 */
export function registerKubeconfigProblem(manager: Pick<WatchManager, 'entries' | 'onDidChangeEntries'>): vscode.Disposable {
  let last: boolean | undefined;
  const update = () => {
    const problem = kubeconfigProblem(manager.entries()) !== undefined;
    if (problem === last) return;
    last = problem;
    void vscode.commands.executeCommand('setContext', 'kubeWatch.kubeconfigProblem', problem);
  };
  update();
  const showWhy = vscode.commands.registerCommand(SHOW_KUBECONFIG_PROBLEM_COMMAND, async () => {
    const problem = kubeconfigProblem(manager.entries());
    if (problem === undefined) {
      void vscode.window.showInformationMessage('Kube Watch: the kubeconfig can be read.');
      return;
    }
    const pick = 'Pick a Kubeconfig File';
    const settings = 'Open Settings';
    const answer = await vscode.window.showErrorMessage(`Kube Watch cannot read the kubeconfig: ${problem}`, pick, settings);
    if (answer === pick) await vscode.commands.executeCommand('kubeWatch.pickKubeconfig');
    if (answer === settings) await vscode.commands.executeCommand('workbench.action.openSettings', 'kubeWatch.kubeconfigPath');
  });
  return vscode.Disposable.from(manager.onDidChangeEntries(update), showWhy);
}
