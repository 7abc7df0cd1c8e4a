import * as vscode from 'vscode';
import { WatchManager } from './manager';

/**
 * Wiring only: the engine and the manager know nothing of VS Code. This first surface logs the
 * lifecycle of the default watches to the "Kube Watch" log channel.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Kube Watch', { log: true });
  const manager = new WatchManager({ contexts: [], resources: ['pods', 'deployments.apps', 'services', 'configmaps'], namespaces: [] });
  context.subscriptions.push(
    log,
    { dispose: () => manager.dispose() },
    manager.onLifecycle((entryId, event) => {
      const entry = manager.entry(entryId);
      log.info(`[${entry?.label ?? entryId}] ${event.type}${'reason' in event && event.reason ? `: ${event.reason}` : ''}`);
    }),
    manager.watchKubeconfigFiles(),
    vscode.commands.registerCommand('kubeWatch.showLog', () => log.show(true)),
  );
  void manager.start();
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
