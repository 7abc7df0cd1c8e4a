import * as vscode from 'vscode';
import { systemClock, type Clock } from '../base';
import {
  HistoryStore,
  diffTitle,
  goneRow,
  normalizeHistorySettings,
  objectLabel,
  recentRow,
  recordHistory,
  versionRows,
  type GoneRow,
  type HistorySettings,
  type ObjectHistory,
  type VersionInfo,
  type VersionRow,
} from '../history';
import { entryIdsOf, type TreeNode } from '../ui/tree';
import { HistoryDocuments, historiesOf, liveObject, type ObjectHistorySource } from './history-documents';
import { HISTORY_SCHEME, historyUri, targetOf, type Target } from './history-uri';

export { HISTORY_SCHEME, parseHistoryUri } from './history-uri';
export type { ObjectHistorySource } from './history-documents';
export const SHOW_OBJECT_HISTORY_COMMAND = 'kubeWatch.showObjectHistory';
export const COMPARE_WITH_LIVE_COMMAND = 'kubeWatch.compareWithLive';
export const SHOW_DELETED_OBJECTS_COMMAND = 'kubeWatch.showDeletedObjects';

const SETTINGS_SECTION = 'kubeWatch.history';
/** Objects listed by the palette's "recently changed" pick. */
const RECENT_LIMIT = 200;

/** The registration: disposing it stops recording and unregisters everything. */
export interface ObjectHistoryRegistration extends vscode.Disposable {
  readonly store: HistoryStore;
  /** The history quick pick being shown, if any (for tests inside VS Code). */
  readonly activePick: () => vscode.QuickPick<vscode.QuickPickItem> | undefined;
}

// ---- commands ----

type PickItem = vscode.QuickPickItem & { history?: ObjectHistory; row?: VersionRow; gone?: GoneRow; pickVersion?: VersionInfo };

/**
 * Records the history of every object the manager caches (see src/history) and registers:
 * - `kubeWatch.showObjectHistory` (an object tree node, a `{ entryId, namespace, name }`, a
 *   `kubewatch:` or `kubewatch-history:` URI, or none: the active editor's object, else a pick of
 *   recently changed objects): a quick pick of its versions, newest first, each with its summary,
 *   resourceVersion, time and arrival; picking one opens the diff with the version before.
 *   Earlier incarnations of the same name (deleted and re-created) follow, under separators.
 * - `kubeWatch.compareWithLive` (same arguments): a diff between a chosen version (the oldest
 *   kept, as it is now, or any) and the live object, whose right side follows the object.
 * - `kubeWatch.showDeletedObjects` (a resource or namespace node, or none): a pick of the
 *   objects deleted (or removed from the view) whose history is still kept; picking one shows
 *   its history.
 * Settings `kubeWatch.history.*` are read (and followed) unless `settings` fixes them.
 */
export function registerObjectHistory(
  manager: ObjectHistorySource,
  clock: Clock = systemClock,
  settings: Partial<HistorySettings> = {},
  /** Whether watching is paused: the live side of a diff then reads "last known, rv N (paused)". */
  isPaused: () => boolean = () => false,
): ObjectHistoryRegistration {
  const read = () => normalizeHistorySettings({ ...readHistorySettings(), ...settings });
  const store = new HistoryStore({ clock, settings: read() });
  const recording = recordHistory(manager, store);
  const documents = new HistoryDocuments(manager, store, clock, isPaused);
  let shown: vscode.QuickPick<PickItem> | undefined;

  const kindOf = (entryId: string) => manager.entry(entryId)?.type?.kind;
  const versionUri = (t: Target, h: ObjectHistory, info: VersionInfo) =>
    historyUri({ type: 'version', target: t, uid: h.uid, seq: info.seq }, manager.entry(t.entryId), `${t.name}@${info.resourceVersion}`);
  const liveUri = (t: Target) => historyUri({ type: 'live', target: t }, manager.entry(t.entryId), `${t.name} (live)`);
  const emptyUri = (t: Target) => historyUri({ type: 'empty', target: t }, manager.entry(t.entryId), `${t.name} (none)`);

  /** Shows a quick pick and resolves with the accepted item (undefined if dismissed); item buttons resolve too. */
  function pick(title: string, placeholder: string, items: PickItem[], active?: PickItem, buttons?: (item: PickItem) => Promise<void>): Promise<PickItem | undefined> {
    return new Promise((resolve) => {
      const qp = vscode.window.createQuickPick<PickItem>();
      qp.title = title;
      qp.placeholder = placeholder;
      qp.matchOnDescription = true;
      qp.matchOnDetail = true;
      qp.items = items;
      if (active) qp.activeItems = [active];
      let done = false;
      const finish = (item: PickItem | undefined) => {
        if (done) return;
        done = true;
        if (shown === qp) shown = undefined;
        qp.dispose();
        resolve(item);
      };
      qp.onDidAccept(() => finish(qp.activeItems[0]));
      qp.onDidHide(() => finish(undefined));
      qp.onDidTriggerItemButton(async (e) => {
        finish(undefined);
        await buttons?.(e.item);
      });
      shown = qp;
      qp.show();
    });
  }

  const compareButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('compare-changes'), tooltip: 'Compare with Live' };

  function versionItem(h: ObjectHistory, row: VersionRow, firstSeenKnown: boolean): PickItem {
    const summary = row.info.seq === 0 && !firstSeenKnown ? 'current version (earlier versions may have been dropped by the memory cap)' : row.label;
    // The resourceVersion and age first, where they are never cut; what changed on its own line.
    return { label: `$(${row.icon}) ${row.heading}`, description: row.description, detail: summary, history: h, row, buttons: [compareButton] };
  }

  function separatorFor(h: ObjectHistory, now: number): PickItem {
    const uid = h.uid ? ` · uid ${h.uid.slice(0, 8)}` : '';
    return { kind: vscode.QuickPickItemKind.Separator, label: h.gone ? `${goneRow(h, now).description}${uid}` : `current${uid}` };
  }

  async function openVersionDiff(t: Target, h: ObjectHistory, row: VersionRow): Promise<void> {
    const name = objectLabel(t.namespace, t.name);
    const right = versionUri(t, h, row.info);
    if (row.index > 0) {
      const before = h.infos()[row.index - 1];
      await vscode.commands.executeCommand('vscode.diff', versionUri(t, h, before), right, diffTitle(name, before, row.info), { preview: true });
    } else if (row.info.change === 'added') {
      await vscode.commands.executeCommand('vscode.diff', emptyUri(t), right, diffTitle(name, undefined, row.info), { preview: true });
    } else {
      // The oldest version kept, its predecessor dropped: the version alone.
      const doc = await vscode.workspace.openTextDocument(right);
      await vscode.window.showTextDocument(doc, { preview: true });
    }
  }

  async function openLiveDiff(t: Target, h: ObjectHistory, info: VersionInfo): Promise<void> {
    await vscode.commands.executeCommand('vscode.diff', versionUri(t, h, info), liveUri(t), diffTitle(objectLabel(t.namespace, t.name), info, 'live'), { preview: false });
  }

  async function showHistory(t: Target): Promise<void> {
    const histories = historiesOf(manager, store, t);
    const what = `${kindOf(t.entryId) ?? 'object'} ${objectLabel(t.namespace, t.name)}`;
    if (histories.length === 0) {
      void vscode.window.showInformationMessage(`No history is kept for ${what}.`);
      return;
    }
    const now = clock.now();
    const items: PickItem[] = [];
    for (const { history, firstSeenKnown } of histories) {
      if (histories.length > 1) items.push(separatorFor(history, now));
      for (const row of versionRows(history, now)) items.push(versionItem(history, row, firstSeenKnown));
    }
    const count = items.filter((i) => i.row).length;
    const chosen = await pick(
      `History of ${what} (${count} version${count === 1 ? '' : 's'})`,
      'Pick a version to see what changed from the version before',
      items,
      undefined,
      async (item) => {
        if (item.history && item.row) await openLiveDiff(t, item.history, item.row.info);
      },
    );
    if (chosen?.history && chosen.row) await openVersionDiff(t, chosen.history, chosen.row);
  }

  async function compareWithLive(t: Target): Promise<void> {
    const histories = historiesOf(manager, store, t);
    const current = histories[0];
    const what = `${kindOf(t.entryId) ?? 'object'} ${objectLabel(t.namespace, t.name)}`;
    if (!current) {
      void vscode.window.showInformationMessage(`No history is kept for ${what}.`);
      return;
    }
    const h = current.history;
    const infos = h.infos();
    if (infos.length === 1) {
      await openLiveDiff(t, h, infos[0]);
      // An identical diff with no word would look broken: say there is nothing yet, and that it follows.
      const live = liveObject(manager, t);
      if (!live || live.metadata.resourceVersion === infos[0].resourceVersion) {
        void vscode.window.showInformationMessage(
          `No changes: ${what} is as it was at rv ${infos[0].resourceVersion}, the only version kept. The diff follows the live object from here.`,
        );
      }
      return;
    }
    const now = clock.now();
    const oldest: PickItem = { label: '$(history) The oldest version kept', description: `rv ${infos[0].resourceVersion}`, history: h, pickVersion: infos[0] };
    const newest: PickItem = {
      label: '$(eye) As it is now, to follow what changes from here',
      description: `rv ${infos[infos.length - 1].resourceVersion}`,
      history: h,
      pickVersion: infos[infos.length - 1],
    };
    const rows = versionRows(h, now).map((row) => ({ ...versionItem(h, row, current.firstSeenKnown), buttons: undefined, pickVersion: row.info }));
    const chosen = await pick(`Compare ${what} with the live object`, 'Pick the version to compare', [oldest, newest, { kind: vscode.QuickPickItemKind.Separator, label: 'every version' }, ...rows], oldest);
    if (chosen?.history && chosen.pickVersion) await openLiveDiff(t, chosen.history, chosen.pickVersion);
  }

  async function showDeleted(arg: unknown): Promise<void> {
    const entryIds = isTreeNode(arg) ? entryIdsOf(arg) : undefined;
    const now = clock.now();
    const rows = store.gone(entryIds).map((h) => goneRow(h, now, kindOf(h.entryId)));
    if (rows.length === 0) {
      const minutes = store.currentSettings.keepDeletedMinutes;
      void vscode.window.showInformationMessage(`No deleted object is kept${entryIds ? ' for this watch' : ''}: their history stays ${minutes} minute${minutes === 1 ? '' : 's'} after they go.`);
      return;
    }
    const items: PickItem[] = rows.map((r) => ({ label: `$(${r.icon}) ${r.label}`, description: r.description, detail: r.detail, gone: r, history: r.history }));
    const chosen = await pick(`Deleted objects (${rows.length})`, 'Pick an object to see its history', items);
    if (chosen?.history) await showHistory({ entryId: chosen.history.entryId, namespace: chosen.history.namespace, name: chosen.history.name, uid: chosen.history.uid });
  }

  /** The palette without an object: recently changed objects (deleted ones included). */
  async function pickRecent(): Promise<Target | undefined> {
    const now = clock.now();
    const rows = store.recent(RECENT_LIMIT).map((h) => recentRow(h, now, kindOf(h.entryId)));
    if (rows.length === 0) {
      void vscode.window.showInformationMessage('No object has changed since Kube Watch started watching. Pick an object in the Kube Watch view to see its history.');
      return undefined;
    }
    const items: PickItem[] = rows.map((r) => ({ label: `$(${r.icon}) ${r.label}`, description: r.description, detail: r.detail, history: r.history }));
    const chosen = await pick('Recently changed objects', 'Pick an object to see its history', items);
    const h = chosen?.history;
    return h && { entryId: h.entryId, namespace: h.namespace, name: h.name, uid: h.uid };
  }

  const settingsWatch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SETTINGS_SECTION)) store.configure(read());
  });

  const disposables = vscode.Disposable.from(
    settingsWatch,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, documents),
    vscode.commands.registerCommand(SHOW_OBJECT_HISTORY_COMMAND, async (arg?: unknown) => {
      const t = targetOf(arg) ?? (await pickRecent());
      if (t) await showHistory(t);
    }),
    vscode.commands.registerCommand(COMPARE_WITH_LIVE_COMMAND, async (arg?: unknown) => {
      const t = targetOf(arg) ?? (await pickRecent());
      if (t) await compareWithLive(t);
    }),
    vscode.commands.registerCommand(SHOW_DELETED_OBJECTS_COMMAND, (arg?: unknown) => showDeleted(arg)),
  );
  return {
    store,
    activePick: () => shown,
    dispose: () => {
      shown?.dispose();
      disposables.dispose();
      recording.dispose();
      store.dispose();
    },
  };
}

/** `kubeWatch.history.*` as written (normalised by the caller). */
function readHistorySettings(): Partial<Record<keyof HistorySettings, unknown>> {
  const c = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return { versionsPerObject: c.get('versionsPerObject'), maxMegabytes: c.get('maxMegabytes'), keepDeletedMinutes: c.get('keepDeletedMinutes') };
}

function isTreeNode(arg: unknown): arg is TreeNode {
  const kind = (arg as { kind?: unknown } | null)?.kind;
  return typeof arg === 'object' && arg !== null && (kind === 'resource' || kind === 'namespace' || kind === 'object' || kind === 'more' || kind === 'message');
}
