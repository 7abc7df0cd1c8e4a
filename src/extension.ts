import { registerHelmReleases } from './vscode/helm/helm-view';
import * as vscode from 'vscode';
import { CatchUpTracker, HealthRecorder } from './health';
import { ExecLoginTerminals } from './vscode/exec-login-terminals';
import { registerActions, type ActionsRegistration } from './vscode/actions';
import { setTimeFormat, systemClock } from './base';
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
import { withForwardBands } from './port-forward';
import { registerPortForwards, type PortForwardsRegistration } from './vscode/port-forward/port-forward-commands';
import { registerShells, type ShellsRegistration } from './vscode/shell/shell-commands';
import { registerDebugPod, type DebugRegistration } from './vscode/shell/debug-commands';
import { registerContainerFiles } from './vscode/container-files/files-commands';
import { onDidChangeSettings, readConnectionSettings, readEditorProxy, readHealthWindowMs, readWatchConfig } from './vscode/settings';
import { registerStatusBar, type StatusBarRegistration } from './vscode/status-bar';
import { registerTreeView, type TreeViewRegistration } from './vscode/tree-provider';
import { registerWatchCommands } from './vscode/watch-commands';
import { registerViewCommands } from './vscode/view-commands';
import { registerFindObject } from './vscode/find-object';
import { registerContextCommands } from './vscode/context-commands';
import { registerEvents } from './vscode/events';
import { registerManifests } from './vscode/manifests/manifest-lenses';
import { registerMetrics, type MetricsRegistration } from './vscode/overview/metrics-registration';
import { registerOverview, type KindTarget, type OverviewRegistration } from './vscode/overview/overview-panel';
import { revealKind } from './vscode/overview/reveal-kind';
import { chainDecorators } from './ui/metrics';
import { pluralOf } from './ui/overview';
import { registerTables } from './vscode/table/table-commands';
import { contextNamedColumns, managerContextNames } from './ui/table/context-named-columns';
import { resolveKindOnServer } from './ui/table/kind-resolver';

/**
 * Wiring only. The manager turns settings into informers; every adapter observes it. Everything
 * created here is in `context.subscriptions`, so deactivation stops every watch, timer, socket
 * and file watcher.
 */
let running: WatchManager | undefined;
let runningForwards: PortForwardsRegistration | undefined;

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
  /** Port-forwards: the set, and the listeners, streams, sockets, timers and watches they hold (all 0 once stopped). */
  readonly portForwards: PortForwardsRegistration;
  /** Open Shell / Run Command: exec sessions and terminals open now. */
  readonly shells: ShellsRegistration;
  readonly debugPods: DebugRegistration;
  /** Actions on objects: the write journal (every write pending until the watch shows it) and the rows' actions. */
  readonly actions: ActionsRegistration;
  /** Editing live objects: the open edits and their diagnostics. */
  readonly editing: EditingRegistration;
  /** CPU and memory from metrics.k8s.io: the hub, the table's ExtraColumnSource (`metrics.columns`), the tree's rows. */
  readonly metrics: MetricsRegistration;
  /** The cluster overview panels. */
  readonly overview: OverviewRegistration;
}

export function activate(context: vscode.ExtensionContext): KubeWatchApi {
  // One time format everywhere: VS Code's display language, the machine's time zone.
  setTimeFormat({ locale: vscode.env.language, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
  const clock = systemClock;
  // Exec plugins that log in (interactiveMode IfAvailable or Always) answer the user in a terminal.
  const logins = new ExecLoginTerminals();
  context.subscriptions.push(logins);
  const manager = new WatchManager(readWatchConfig(), { clock, healthCheck: readConnectionSettings(), editorProxy: readEditorProxy(), execInteraction: logins });
  running = manager;
  const portForwards = registerPortForwards(manager, clock, context.workspaceState, (line) => log.channel.info(line));
  runningForwards = portForwards;
  // A band per port-forward next to the watches' (forward-bands.ts).
  const bands = withForwardBands(manager, portForwards.forwards);
  // Before anything starts the manager, so the recording begins with the first state.
  const recorder = new HealthRecorder(bands, { clock, lineOf: markerLine, windowMs: readHealthWindowMs() });
  const health = registerHealthPanel(bands, recorder, clock, context.extensionUri);
  const log = registerLogChannel(manager);
  const shells = registerShells(manager, clock);
  const debugPods = registerDebugPod(manager, clock, context.globalState);
  // After a resume (sleep, a stopped process), which watches have not yet shown they are current.
  const catchUp = new CatchUpTracker(manager);
  const actions = registerActions(manager, log, clock);
  const metrics = registerMetrics(manager, clock);
  const tree = registerTreeView(manager, clock, { catchUp, decorator: chainDecorators(actions.rows, metrics.rows) });
  const describe = registerDescribeDocuments(manager, clock, { stalenessOf: (id) => tree.model.stalenessOf(id), extraLines: metrics.describeLines });
  let paused = false;
  const contextNames = managerContextNames(manager);
  const tables = registerTables(manager, clock, context.globalState, context.extensionUri, { stalenessOf: (id) => tree.model.stalenessOf(id), isPaused: () => paused, decorator: actions.rows, extra: contextNamedColumns(metrics.columns, contextNames), typesOf: (c) => tree.resources.catalog.state(c).groups?.flatMap((g) => g.types) ?? [], resolveKind: (c, text) => resolveKindOnServer(manager, c, text) });
  // A count of the overview opens its kind's table (the tree's row when the context has no name yet).
  const openKind = (target: KindTarget) => {
    const name = contextNames.nameOf(target.context);
    return name === undefined ? revealKind({ ...tree, entry: (id) => manager.entry(id), contextSpecOf: (id) => manager.contextSpecOf(id) }, target) : tables.open({ context: name, group: target.group, resource: pluralOf(target), namespace: '' });
  };
  const overview = registerOverview(manager, metrics.hub, clock, context.extensionUri, openKind);
  // Drawn with the tree's refreshes, from the same entries: the two never disagree (V13).
  // Drawn once VS Code has taken the tree's rows (it delays tree refreshes), at most 1 s after a change.
  const statusBar = registerStatusBar(manager, clock, {
    viewChanges: (listener) => tree.onDidRender(listener),
    viewRequests: (listener) => tree.model.onDidChange(listener),
    fallbackMs: 1000,
    scopeOf: (entries) => viewScope(manager.configuration, entries).lines,
    catchUp: () => catchUp.current(),
  });
  const history = registerObjectHistory(manager, clock, {}, () => paused);
  const logs = registerPodLogs(manager, clock);
  const editing = registerEditing(manager, log.sink, clock, actions.journal);
  const setPaused = async (value: boolean) => {
    paused = value;
    recorder.setPaused(value);
    statusBar.setPaused(value);
    metrics.setPaused(value);
    await vscode.commands.executeCommand('setContext', 'kubeWatch.paused', value);
  };

  context.subscriptions.push(
    { dispose: () => manager.dispose() },
    portForwards,
    bands,
    shells,
    debugPods,
    registerContainerFiles(manager),
    recorder,
    catchUp,
    health,
    log,
    statusBar,
    tree,
    actions,
    history,
    logs,
    registerObjectDocuments(manager, clock),
    registerHelmReleases(manager, clock, (line) => log.channel.info(line), tree.resources.catalog),
    editing,
    describe,
    overview,
    metrics,
    registerStaleDocumentBanner({ entry: (id) => manager.entry(id), onDidChangeEntries: (l) => manager.onDidChangeEntries(l), stalenessOf: (id) => tree.model.stalenessOf(id) }, clock),
    registerWatchCommands(manager, log, clock),
    registerViewCommands(manager, tree.resources),
    registerFindObject(manager, tree.resources, tree.view),
    registerContextCommands(manager),
    registerManifests(manager, clock, tree.resources),
    tables,
    registerKubeconfigProblem(manager),
    registerConfigCommands(manager, {
      pause: async () => {
        // The tree keeps what it shows, drawn stale, while the manager stops.
        tree.model.setPaused(true);
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
        tree.model.setPaused(false);
      },
    }),
    onDidChangeSettings(() => {
      recorder.setWindow(readHealthWindowMs());
      if (!paused) void manager.update(readWatchConfig());
    }),
    manager.watchKubeconfigFiles(),
  );
  // The remembering events feed (issue 33): its view, pins and an Events row per context in the tree.
  context.subscriptions.push(registerEvents(manager, clock, context.extensionUri, tree.resources));
  void setPaused(false);
  void manager.start();
  return { manager, tree, statusBar, log, history, health, logs, isPaused: () => paused, describe, portForwards, shells, debugPods, actions, editing, metrics, overview };
}

/** Stops every watch and port-forward and waits until no request, timer, socket or file watcher is left. */
export function deactivate(): Promise<void> | undefined {
  const manager = running;
  const forwards = runningForwards;
  running = undefined;
  runningForwards = undefined;
  return Promise.all([manager?.stop(), forwards?.shutdown()]).then(() => undefined);
}
