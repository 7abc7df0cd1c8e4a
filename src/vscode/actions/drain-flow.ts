import * as vscode from 'vscode';
import { AbortedError, type Clock } from '../../base';
import { daemonSetExistsOn, drainFilter, drainResultWords, planDrain, podsOnNode, runDrain, type ActionSession, type ActionTarget, type DrainOptions } from '../../actions';
import type { KubeTransport } from '../../informer';
import { drainOptionChoices } from '../../ui/actions';
import { confirmPlan, copyText, pickChoices } from './action-dialogs';

/**
 * Drain, in the window: the options (kubectl's flags, none by default), the node's Pods through
 * kubectl's filters, a confirmation that lists what goes and what stays (or why it cannot go on),
 * then the drain in a cancellable notification that says which Pod it waits for and why (a
 * PodDisruptionBudget that refuses), and the result in words: drained only when a fresh list of
 * the node's Pods holds nothing that had to go; otherwise what is left, by name. Cancelling
 * leaves the node cordoned, as kubectl does.
 */
export async function drainFlow(target: ActionTarget, transport: KubeTransport, session: ActionSession, mode: 'do' | 'copy', clock: Clock): Promise<void> {
  const chosen = await pickChoices(drainOptionChoices(), `Drain node ${target.name}: options`, 'Pick what the drain may do (none: as kubectl drain without flags)');
  if (!chosen) return;
  const options: DrainOptions = { ignoreDaemonSets: chosen.includes('ignoreDaemonSets'), deleteEmptyDirData: chosen.includes('deleteEmptyDirData'), force: chosen.includes('force') };
  const signal = new AbortController().signal;
  const pods = await drainFilter(await podsOnNode(transport, target.name, signal), options, daemonSetExistsOn(transport, signal));
  const plan = planDrain(target, pods, options);
  if (mode === 'copy') return copyText(plan.kubectl, 'the kubectl command');
  if (plan.blocked.length > 0) {
    void vscode.window.showWarningMessage(`Node ${target.name} cannot be drained with these options.`, { modal: true, detail: `${plan.detail}\n\nkubectl equivalent:\n${plan.kubectl}` });
    return;
  }
  if ((await confirmPlan(plan)) !== 'confirmed') return;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Draining node ${target.name}`, cancellable: true }, async (progress, token) => {
    const ctl = new AbortController();
    token.onCancellationRequested(() => ctl.abort(new AbortedError('drain cancelled')));
    try {
      const result = await runDrain(plan, options, { ...session, reader: transport }, ctl.signal, (p) => progress.report({ message: p.words }), clock);
      const words = drainResultWords(target.name, result);
      if (result.drained) void vscode.window.showInformationMessage(words);
      else void vscode.window.showErrorMessage(words);
    } catch (err) {
      if (err instanceof AbortedError) void vscode.window.showWarningMessage(`Drain of node ${target.name} cancelled: it stays cordoned; Pods already evicted are gone.`);
      else throw err;
    }
  });
}
