import * as vscode from 'vscode';
import { HealthRecorder } from './health';
import { systemClock } from './base';
import { WatchManager } from './manager';
import { markerLine } from './ui/health';
import { viewScope } from './ui/tree';
import { registerConfigCommands } from './vscode/config-commands';
import { registerDescribeDocuments, type DescribeRegistration } from './vscode/describe-documents';
import { registerEditing, type EditingRegistration } from './vscode/edit';
import { registerHealthPanel, type HealthPanelRegistration } from './vscode/health-panel';
import { registerKubeconfigProblem } from './vscode/kubeconfig-problem';
import { registerLogChannel, type LogChannelRegistration } from './vscode/log-channel';
import { registerObjectDocuments } from './vscode/object-documents';
import { registerStaleDocumentBanner } from './vscode/stale-document-banner';
import { registerObjectHistory, type ObjectHistoryRegistration } from './vscode/object-history';
import { registerPodLogs, type PodLogsRegistration } from './vscode/pod-logs';
import { onDidChangeSettings, readConnectionSettings, readEditorProxy, readHealthWindowMs, readWatchConfig } from './vscode/settings';
import { registerStatusBar, type StatusBarRegistration } from './vscode/status-bar';
import { registerTreeView, type TreeViewRegistration } from './vscode/tree-provider';
import { registerWatchCommands } from './vscode/watch-commands';

/**
 * Wiring only. The manager turns settings into informers; every adapter observes it. Everything
 * created here is in `context.subscriptions`, so deactivation stops every watch, timer, socket
 * and file watcher.
 */
let running: WatchManager | undefined;

/**
 * What activation returns: the live objects behind the UI, for the extension-host tests and for
 * other extensions that want to observe watches. Read-only by convention.
 */
export interface KubeWatchApi {
  readonly manager: WatchManager;
  readonly tree: TreeViewRegistration;
  readonly statusBar: StatusBarRegistration;
  readonly log: LogChannelRegistration;
  readonly history: ObjectHistoryRegistration;
  /** The Watch Health panel: its recorder, and whether the panel or any of its timers and listeners is open. */
  readonly health: HealthPanelRegistration;
  /** Follow Logs: the log terminals' open streams and timers (0 once every log terminal is closed). */
  readonly logs: PodLogsRegistration;
  readonly isPaused: () => boolean;
  /** Live descriptions: how many are open (each runs its own watches, counted by `manager.adHocWatchCount`). */
  readonly describe: DescribeRegistration;
  /** Editing live objects: the open edits and their diagnostics. */
  readonly editing: EditingRegistration;
}

export function activate(context: vscode.ExtensionContext): KubeWatchApi {
  const clock = systemClock;
  const manager = new WatchManager(readWatchConfig(), { clock, healthCheck: readConnectionSettings(), editorProxy: readEditorProxy() });
  running = manager;
  // Before anything starts the manager, so the recording begins with the first state.
  const recorder = new HealthRecorder(manager, { clock, lineOf: markerLine, windowMs: readHealthWindowMs() });
  const health = registerHealthPanel(manager, recorder, clock, context.extensionUri);
  const log = registerLogChannel(manager);
  const tree = registerTreeView(manager, clock);
  const describe = registerDescribeDocuments(manager, clock, { stalenessOf: (id) => tree.model.stalenessOf(id) });
  // Drawn with the tree's refreshes, from the same entries: the two never disagree (V13).
  // Drawn once VS Code has taken the tree's rows (it delays tree refreshes), at most 1 s after a change.
  const statusBar = registerStatusBar(manager, clock, {
    viewChanges: (listener) => tree.onDidRender(listener),
    viewRequests: (listener) => tree.model.onDidChange(listener),
    fallbackMs: 1000,
    scopeOf: (entries) => viewScope(manager.configuration, entries).lines,
  });
  let paused = false;
  const history = registerObjectHistory(manager, clock, {}, () => paused);
  const logs = registerPodLogs(manager, clock);
  const editing = registerEditing(manager, log.sink, clock);
  const setPaused = async (value: boolean) => {
    paused = value;
    recorder.setPaused(value);
    statusBar.setPaused(value);
    await vscode.commands.executeCommand('setContext', 'kubeWatch.paused', value);
  };

  context.subscriptions.push(
    { dispose: () => manager.dispose() },
    recorder,
    health,
    log,
    statusBar,
    tree,
    history,
    logs,
    registerObjectDocuments(manager, clock),
    editing,
    describe,
    registerStaleDocumentBanner({ entry: (id) => manager.entry(id), onDidChangeEntries: (l) => manager.onDidChangeEntries(l), stalenessOf: (id) => tree.model.stalenessOf(id) }, clock),
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
        // stop() (the pause) also stopped following the kubeconfig files: follow them again.
        // The subscription below still ends it on deactivation (it switches the same manager flag).
        manager.watchKubeconfigFiles();
        await manager.start();
      },
    }),
    onDidChangeSettings(() => {
      recorder.setWindow(readHealthWindowMs());
      if (!paused) void manager.update(readWatchConfig());
    }),
    manager.watchKubeconfigFiles(),
  );
  void setPaused(false);
  void manager.start();
  return { manager, tree, statusBar, log, history, health, logs, isPaused: () => paused, describe, editing };
}

/** Stops every watch and waits until no request, timer or file watcher is left. */
export function deactivate(): Promise<void> | undefined {
  const manager = running;
  running = undefined;
  return manager?.stop();
}
