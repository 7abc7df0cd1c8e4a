import * as vscode from 'vscode';
import { systemClock, type Clock } from '../base';
import type { WatchEntry } from '../manager';
import { InspectHistory, inspectReport, type InspectReport } from '../ui/inspect';
import type { WatchEventSource } from '../ui/log';
import { entryHealth, healthIcon, rowStateText } from '../ui/status';

/** What the commands use of the watch manager (a WatchManager is one). */
export interface WatchCommandsSource extends WatchEventSource {
  restart(id: string, reason: string): Promise<void>;
  restartAll(reason: string): Promise<void>;
}

/** Scheme of the read-only documents that show a report of several watches. */
export const INSPECT_SCHEME = 'kube-watch-inspect';

/** Reports kept for their documents; older ones answer "run the command again". */
const KEPT_REPORTS = 20;

/** Restart reasons, as the log shows them (the wording of config-commands.ts). */
const RESTART_FROM_LIST = 'restart requested by the Restart action of the watch list';
const RESTART_ALL_FROM_LIST = 'restart requested by Restart All Watches in the watch list';

/**
 * The watch list and the Inspect Resource Version command:
 *
 * - `kubeWatch.showWatches` (the status bar item's click): a live quick pick of every watch with
 *   its state and resourceVersion; picking one offers Restart, Inspect Resource Version, Show
 *   Watch Health and Show Log; the list ends with Show Watch Health, Restart All Watches,
 *   Inspect All and Show Watch Log.
 * - `kubeWatch.inspectResourceVersion`, with a tree node (`{ entryId }`, or `{ entryIds }` for a
 *   resource over several namespaces) or nothing (then a quick pick, "All watches" first). One watch: a modal dialog with the report and "Copy
 *   resourceVersion" / "Copy Report". Several: a read-only Markdown preview of the report and a
 *   notification with "Copy Report".
 *
 * Disposing unregisters both commands and the document provider, closes an open quick pick and
 * drops every listener on the manager.
 */
export function registerWatchCommands(manager: WatchCommandsSource, log: { readonly channel: vscode.LogOutputChannel }, clock: Clock = systemClock): vscode.Disposable {
  const history = new InspectHistory();
  const reports = new Map<string, string>();
  const disposables: vscode.Disposable[] = [];
  let openPick: vscode.QuickPick<vscode.QuickPickItem> | undefined;
  let serial = 0;

  disposables.push(
    manager.onLifecycle((id, event) => history.record(id, event)),
    manager.onDidChangeEntries((change) => {
      if (change.removed.length > 0) history.retain(manager.entries().map((e) => e.id));
    }),
    vscode.workspace.registerTextDocumentContentProvider(INSPECT_SCHEME, {
      provideTextDocumentContent: (uri) => reports.get(uri.toString()) ?? 'This report is no longer kept. Run **Kube Watch: Inspect Resource Version** again.',
    }),
  );

  const report = (entries: readonly WatchEntry[]): InspectReport => inspectReport(entries, clock.now(), (id) => history.get(id));

  const copy = async (text: string, what: string) => {
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`$(check) Copied ${what}`, 3000);
  };

  /** One watch: a modal dialog, with copy actions. */
  const inspectOne = async (entry: WatchEntry) => {
    const r = report([entry]);
    const copyRv = 'Copy resourceVersion';
    const copyReport = 'Copy Report';
    const actions = r.resourceVersion ? [copyRv, copyReport] : [copyReport];
    const picked = await vscode.window.showInformationMessage(r.title, { modal: true, detail: r.detail }, ...actions);
    if (picked === copyRv && r.resourceVersion) await copy(r.resourceVersion, `resourceVersion ${r.resourceVersion}`);
    else if (picked === copyReport) await copy(r.text, 'the report');
  };

  /** Several watches: a read-only Markdown document in the preview, and a copy action. */
  const inspectMany = async (entries: readonly WatchEntry[]) => {
    const r = report(entries);
    const uri = vscode.Uri.from({ scheme: INSPECT_SCHEME, path: `/Resource Versions ${++serial}.md` });
    reports.set(uri.toString(), r.markdown);
    while (reports.size > KEPT_REPORTS) reports.delete(reports.keys().next().value as string);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      // No Markdown preview (the built-in extension disabled): the read-only source is still readable.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    }
    const copyReport = 'Copy Report';
    const picked = await vscode.window.showInformationMessage(r.title, copyReport);
    if (picked === copyReport) await copy(r.text, 'the report');
  };

  const inspect = async (arg?: unknown) => {
    const ids = entryIdsOf(arg);
    if (ids.length > 0) {
      const named = ids.map((id) => manager.entry(id)).filter((e): e is WatchEntry => e !== undefined);
      if (named.length === 0) {
        void vscode.window.showWarningMessage('That watch is no longer configured.');
        return;
      }
      return named.length === 1 ? inspectOne(named[0]) : inspectMany(named);
    }
    const entries = manager.entries();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('Nothing is watched, so there is no resourceVersion to inspect.');
      return;
    }
    if (entries.length === 1) return inspectOne(entries[0]);
    type Item = vscode.QuickPickItem & { entryId?: string };
    const items: Item[] = [
      { label: '$(list-flat) All watches', description: `${entries.length} watches` },
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      ...sortByLabel(entries).map((e) => ({ label: e.label, description: e.stats.resourceVersion ? `resourceVersion ${e.stats.resourceVersion}` : 'no resourceVersion yet', entryId: e.id })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'Inspect Resource Version', placeHolder: 'Which watch?', matchOnDescription: true });
    if (!picked) return;
    if (picked.entryId === undefined) return inspectMany(manager.entries());
    const entry = manager.entry(picked.entryId);
    if (entry) return inspectOne(entry);
  };

  /** The actions for one watch, after it was picked from the list. */
  const entryActions = async (entry: WatchEntry) => {
    type Action = vscode.QuickPickItem & { run: () => Promise<unknown> | void };
    const actions: Action[] = [
      {
        label: '$(debug-restart) Restart',
        detail: 'Abort what is in flight and start again from a full list; the cache is kept',
        run: () => {
          vscode.window.setStatusBarMessage(`$(debug-restart) Restarting ${entry.label}`, 3000);
          return manager.restart(entry.id, RESTART_FROM_LIST);
        },
      },
      { label: '$(search) Inspect Resource Version', detail: 'Last seen resourceVersion, where it came from, the last bookmark, the counts', run: () => inspect({ entryId: entry.id }) },
      { label: '$(pulse) Show Watch Health', detail: 'Its states, markers and event rate over the last hour', run: () => vscode.commands.executeCommand('kubeWatch.showHealth', { entryId: entry.id }) },
      { label: '$(output) Show Log', detail: 'The lifecycle log of every watch', run: () => log.channel.show(true) },
    ];
    const picked = await vscode.window.showQuickPick(actions, { title: entry.label, placeHolder: rowStateText(entryHealth(entry, undefined, clock.now()), clock.now()) });
    await picked?.run();
  };

  const showWatches = () => {
    openPick?.dispose();
    type Item = vscode.QuickPickItem & { entryId?: string; run?: () => Promise<unknown> | void };
    const pick = vscode.window.createQuickPick<Item>();
    openPick = pick as vscode.QuickPick<vscode.QuickPickItem>;
    pick.title = 'Kube Watch: Watches';
    pick.placeholder = 'Pick a watch to restart it, inspect its resourceVersion or show the log';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const commands: Item[] = [
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(pulse) Show Watch Health', run: () => vscode.commands.executeCommand('kubeWatch.showHealth') },
      { label: '$(dashboard) Show Cluster Overview', run: () => vscode.commands.executeCommand('kubeWatch.showOverview') },
      { label: '$(debug-restart) Restart All Watches', run: () => manager.restartAll(RESTART_ALL_FROM_LIST) },
      { label: '$(search) Inspect All Resource Versions', run: () => inspectMany(manager.entries()) },
      { label: '$(output) Show Watch Log', run: () => log.channel.show(true) },
    ];
    const render = () => {
      const now = clock.now();
      const active = pick.activeItems[0]?.entryId;
      const items: Item[] = sortByLabel(manager.entries()).map((e) => {
        const health = entryHealth(e, undefined, now);
        const rv = e.stats.resourceVersion;
        return {
          label: `${healthIcon(health)} ${e.label}`,
          description: rowStateText(health, now),
          detail: rv ? `resourceVersion ${rv} · ${e.stats.objects.toLocaleString('en-US')} objects` : undefined,
          entryId: e.id,
        };
      });
      pick.items = items.length > 0 ? [...items, ...commands] : [{ label: 'Nothing is watched', description: 'configure kubeWatch.resources' }, ...commands.slice(1)];
      const again = active === undefined ? undefined : pick.items.find((i) => i.entryId === active);
      if (again) pick.activeItems = [again];
    };
    const live = manager.onDidChangeEntries(render);
    render();
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0];
      pick.hide();
      if (!picked) return;
      if (picked.run) return void Promise.resolve(picked.run()).catch(showError);
      const entry = picked.entryId !== undefined ? manager.entry(picked.entryId) : undefined;
      if (entry) void entryActions(entry).catch(showError);
    });
    pick.onDidHide(() => {
      live.dispose();
      pick.dispose();
      if (openPick === (pick as vscode.QuickPick<vscode.QuickPickItem>)) openPick = undefined;
    });
    pick.show();
  };

  disposables.push(
    vscode.commands.registerCommand('kubeWatch.showWatches', showWatches),
    vscode.commands.registerCommand('kubeWatch.inspectResourceVersion', (arg?: unknown) => inspect(arg).catch(showError)),
  );

  return {
    dispose() {
      openPick?.dispose();
      openPick = undefined;
      for (const d of disposables.splice(0)) d.dispose();
      reports.clear();
    },
  };
}

/**
 * The entry ids a command argument names: a tree node with `entryId` (one watch) or `entryIds`
 * (a resource node over several namespaces), or an entry id itself. None for anything else.
 */
function entryIdsOf(arg: unknown): string[] {
  if (typeof arg === 'string') return [arg];
  if (typeof arg !== 'object' || arg === null) return [];
  const node = arg as { entryId?: unknown; entryIds?: unknown };
  if (typeof node.entryId === 'string') return [node.entryId];
  if (Array.isArray(node.entryIds)) return node.entryIds.filter((id): id is string => typeof id === 'string');
  return [];
}

function sortByLabel(entries: readonly WatchEntry[]): WatchEntry[] {
  return [...entries].sort((a, b) => a.label.localeCompare(b.label));
}

function showError(err: unknown): void {
  void vscode.window.showErrorMessage(`Kube Watch: ${err instanceof Error ? err.message : String(err)}`);
}
