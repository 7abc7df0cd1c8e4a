import * as vscode from 'vscode';
import type { WatchManager } from '../manager';
import { kubeconfigProblem } from '../ui/kubeconfig-problem';

/** Keeps the `kubeWatch.kubeconfigProblem` context key (which selects the welcome content) current. */
export function registerKubeconfigProblem(manager: Pick<WatchManager, 'entries' | 'onDidChangeEntries'>): vscode.Disposable {
  let last: boolean | undefined;
  const update = () => {
    const problem = kubeconfigProblem(manager.entries()) !== undefined;
    if (problem === last) return;
    last = problem;
    void vscode.commands.executeCommand('setContext', 'kubeWatch.kubeconfigProblem', problem);
  };
  update();
  return manager.onDidChangeEntries(update);
}
