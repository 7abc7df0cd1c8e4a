import * as vscode from 'vscode';
import { systemClock } from './informer';
import { WatchManager } from './manager';
import { registerConfigCommands } from './vscode/config-commands';
import { registerKubeconfigProblem } from './vscode/kubeconfig-problem';
import { registerLogChannel } from './vscode/log-channel';
import { registerObjectDocuments } from './vscode/object-documents';
import { onDidChangeSettings, readWatchConfig } from './vscode/settings';
import { registerStatusBar } from './vscode/status-bar';
import { registerTreeView } from './vscode/tree-provider';
import { registerWatchCommands } from './vscode/watch-commands';

/**
 * Wiring only. The manager turns settings into informers; every adapter observes it. Everything
 * created here is in `context.subscriptions`, so deactivation stops every watch, timer, socket
 * and file watcher.
 */
let running: WatchManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const clock = systemClock;
  const manager = new WatchManager(readWatchConfig(), { clock });
  running = manager;
  const log = registerLogChannel(manager);
  const statusBar = registerStatusBar(manager, clock);
  let paused = false;
  const setPaused = async (value: boolean) => {
    paused = value;
    statusBar.setPaused(value);
    await vscode.commands.executeCommand('setContext', 'kubeWatch.paused', value);
  };

  context.subscriptions.push(
    { dispose: () => manager.dispose() },
    log,
    statusBar,
    registerTreeView(manager, clock),
    registerObjectDocuments(manager, clock),
    registerWatchCommands(manager, log, clock),
    registerKubeconfigProblem(manager),
    registerConfigCommands(manager, {
      pause: async () => {
        await setPaused(true);
        await manager.stop();
      },
      resume: async () => {
        await setPaused(false);
        await manager.update(readWatchConfig());
        await manager.start();
      },
    }),
    onDidChangeSettings(() => {
      if (!paused) void manager.update(readWatchConfig());
    }),
    manager.watchKubeconfigFiles(),
  );
  void setPaused(false);
  void manager.start();
}

/** Stops every watch and waits until no request, timer or file watcher is left. */
export function deactivate(): Promise<void> | undefined {
  const manager = running;
  running = undefined;
  return manager?.stop();
}
