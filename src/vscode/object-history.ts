import * as vscode from 'vscode';
import { groupVersion, type KubeObject } from '../informer';
import { systemClock, type Clock } from '../base';
import type { WatchEntry } from '../manager';
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
  type HistorySource,
  type ObjectHistory,
  type VersionInfo,
  type VersionRow,
} from '../history';
import { entryIdsOf, type TreeNode } from '../ui/tree';
import { objectYaml } from '../ui/object-yaml';
import { RefreshThrottle } from '../ui/tree/refresh-throttle';
import { OBJECT_SCHEME, parseObjectUri } from './object-documents';

/** The URI scheme of history documents: stored versions, and live objects for "Compare with Live". */
export const HISTORY_SCHEME = 'kubewatch-history';
export const SHOW_OBJECT_HISTORY_COMMAND = 'kubeWatch.showObjectHistory';
export const COMPARE_WITH_LIVE_COMMAND = 'kubeWatch.compareWithLive';
export const SHOW_DELETED_OBJECTS_COMMAND = 'kubeWatch.showDeletedObjects';

const SETTINGS_SECTION = 'kubeWatch.history';
/** Least time between two re-renders of a live document while its object changes fast. */
const LIVE_REFRESH_MS = 250;
/** Objects listed by the palette's "recently changed" pick. */
const RECENT_LIMIT = 200;

/** What the history needs of the watch manager (WatchManager satisfies it). */
export interface ObjectHistorySource extends HistorySource {
  entry(id: string): WatchEntry | undefined;
}

/** The registration: disposing it stops recording and unregisters everything. */
export interface ObjectHistoryRegistration extends vscode.Disposable {
  readonly store: HistoryStore;
  /** The history quick pick being shown, if any (for tests inside VS Code). */
  readonly activePick: () => vscode.QuickPick<vscode.QuickPickItem> | undefined;
}

/** An object of a watch, by name: what the commands act on. */
interface Target {
  entryId: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
  /** The incarnation to show first, when known (a gone one picked from a list). */
  uid?: string;
}

/** What a history document URI names. */
type DocRef =
  | { type: 'version'; target: Target; uid: string; seq: number }
  /** The empty left side of a diff against a version that created the object. */
  | { type: 'empty'; target: Target }
  | { type: 'live'; target: Target };

// ---- URIs ----

function encodeQuery(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** `kubewatch-history:/context/resource/namespace/name@rv.yaml?h=…`: the path for people, the query for us. */
function historyUri(ref: DocRef, entry: WatchEntry | undefined, pathName: string): vscode.Uri {
  const clean = (s: string) => s.replace(/[/\\?#]/g, '_') || '_';
  const segments = [entry?.context || 'current-context', entry?.resource ?? 'objects', ref.target.namespace || '_cluster', `${pathName}.yaml`].map(clean);
  const t = ref.target;
  const payload = ref.type === 'version' ? ['v', t.entryId, t.namespace, t.name, ref.uid, ref.seq] : [ref.type === 'empty' ? 'e' : 'l', t.entryId, t.namespace, t.name];
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${segments.join('/')}`, query: `h=${encodeQuery(payload)}` });
}

/** The reference a `kubewatch-history:` URI carries, or undefined for a foreign or damaged one. */
export function parseHistoryUri(uri: vscode.Uri): DocRef | undefined {
  if (uri.scheme !== HISTORY_SCHEME) return undefined;
  const encoded = new URLSearchParams(uri.query).get('h');
  if (!encoded) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || !v.slice(1, 4).every((s) => typeof s === 'string')) return undefined;
    const target: Target = { entryId: v[1] as string, namespace: v[2] as string, name: v[3] as string };
    if (v[0] === 'v' && typeof v[4] === 'string' && typeof v[5] === 'number') return { type: 'version', target, uid: v[4], seq: v[5] };
    if (v[0] === 'e') return { type: 'empty', target };
    if (v[0] === 'l') return { type: 'live', target };
  } catch {
    // a damaged query: not one of ours
  }
  return undefined;
}

// ---- documents ----

/**
 * Read-only documents under `kubewatch-history:`: a stored version as YAML (Secrets masked),
 * an empty document (the left side of "created"), and the live object, which follows every
 * change (at most every 250 ms), shows a deleted object's last state under a comment, and a
 * re-created one's new state.
 */
class HistoryDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Open live documents, by object, with the object as last shown (for when its watch stops). */
  private readonly live = new Map<string, { uri: vscode.Uri; throttle: RefreshThrottle; last?: KubeObject }>();
  /** Kind and apiVersion per entry as last resolved: a paused or stopped entry has no type, yet its versions still need them (list items lack both). */
  private readonly typeOfEntry = new Map<string, { kind: string; apiVersion: string }>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(
    private readonly source: ObjectHistorySource,
    private readonly store: HistoryStore,
    private readonly clock: Clock,
    private readonly isPaused: () => boolean,
  ) {
    const touched = (entryId: string, obj: KubeObject) => {
      if (!this.typeOfEntry.has(entryId)) this.rememberType(entryId);
      if (this.live.size === 0) return;
      this.live.get(liveKey({ entryId, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }))?.throttle.request();
    };
    this.subscriptions = [
      source.addHandler({ onAdd: touched, onUpdate: (id, _old, obj) => touched(id, obj), onDelete: touched }),
      source.onObjectsRemoved((removed) => {
        for (const obj of removed.objects) touched(removed.entryId, obj);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const ref = parseHistoryUri(doc.uri);
        if (ref?.type !== 'live') return;
        const key = liveKey(ref.target);
        this.live.get(key)?.throttle.dispose();
        this.live.delete(key);
      }),
    ];
  }

  private rememberType(entryId: string): void {
    const type = this.source.entry(entryId)?.type;
    if (type) this.typeOfEntry.set(entryId, { kind: type.kind, apiVersion: groupVersion(type) });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = parseHistoryUri(uri);
    if (!ref) return '# not a Kube Watch history document\n';
    const entry = this.source.entry(ref.target.entryId);
    this.rememberType(ref.target.entryId);
    const options: { kind?: string; apiVersion?: string } = this.typeOfEntry.get(ref.target.entryId) ?? {};
    if (ref.type === 'empty') return '';
    if (ref.type === 'version') {
      const found = resolveVersion(this.source, this.store, ref.target, ref.uid, ref.seq);
      if (!found) return `# ${objectLabel(ref.target.namespace, ref.target.name)}: this version is no longer kept (dropped by the history's limits)\n`;
      return objectYaml(found.object, options);
    }
    const key = liveKey(ref.target);
    if (!this.live.has(key)) this.live.set(key, { uri, throttle: new RefreshThrottle(this.clock, LIVE_REFRESH_MS, () => this.changed.fire(this.live.get(key)?.uri ?? uri)) });
    const doc = this.live.get(key)!;
    const obj = liveObject(this.source, ref.target);
    if (obj) {
      doc.last = obj;
      return objectYaml(obj, options);
    }
    const [last] = this.store.find(ref.target.entryId, ref.target.namespace, ref.target.name).filter((h) => h.gone);
    if (last?.gone?.why === 'deleted') {
      return objectYaml(last.newest(), { ...options, comments: [`deleted at ${new Date(last.gone.at).toISOString()} (last known state)`] });
    }
    // Not deleted, only no longer watched (paused, stopped, switched away): what was last seen,
    // said as such, never "does not exist".
    const known = last?.newest() ?? doc.last;
    if (known) {
      const why = this.isPaused() ? 'paused' : `${last?.gone?.reason ?? 'its watch is not running'}`;
      return objectYaml(known, { ...options, comments: [`last known, rv ${known.metadata.resourceVersion ?? '?'} (${why})`] });
    }
    return `# ${objectLabel(ref.target.namespace, ref.target.name)} does not exist in ${entry?.label ?? 'a watched resource'}\n`;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const doc of this.live.values()) doc.throttle.dispose();
    this.live.clear();
    this.changed.dispose();
  }
}

function liveKey(t: Target): string {
  return `${t.entryId}\u0000${t.namespace}\u0000${t.name}`;
}

function liveObject(source: ObjectHistorySource, t: Target): KubeObject | undefined {
  return source.entry(t.entryId)?.informer?.get(t.namespace || undefined, t.name);
}

/** The histories of a target: the live object's first (made for the occasion if it never changed), then gone incarnations. */
function historiesOf(source: ObjectHistorySource, store: HistoryStore, t: Target): { history: ObjectHistory; firstSeenKnown: boolean }[] {
  const out: { history: ObjectHistory; firstSeenKnown: boolean }[] = [];
  const live = liveObject(source, t);
  if (live) out.push(store.historyOf(t.entryId, live));
  for (const h of store.find(t.entryId, t.namespace, t.name)) if (h.gone) out.push({ history: h, firstSeenKnown: true });
  if (t.uid) out.sort((a, b) => Number(b.history.uid === t.uid) - Number(a.history.uid === t.uid));
  return out;
}

/** A stored version as an object, or undefined when no longer kept. Seq 0 is the first-list version of an object with no history. */
function resolveVersion(source: ObjectHistorySource, store: HistoryStore, t: Target, uid: string, seq: number): { object: KubeObject; info: VersionInfo } | undefined {
  const histories = historiesOf(source, store, { ...t, uid }).filter((h) => h.history.uid === uid);
  const h = histories[0]?.history;
  if (!h) return undefined;
  let index = h.indexOf(seq);
  if (index < 0 && seq === 0 && h.oldestInfo().arrival === 'list') index = 0;
  if (index < 0) return undefined;
  return { object: h.objects()[index], info: h.infos()[index] };
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

/**
 * A command argument as a target: an object tree node, a `{ entryId, namespace, name }`, a
 * `kubewatch:` or `kubewatch-history:` URI (what editor title menus pass); with none, the active
 * editor's document when it shows an object.
 */
function targetOf(arg: unknown): Target | undefined {
  if (arg instanceof vscode.Uri) return targetOfUri(arg);
  if (typeof arg === 'object' && arg !== null) {
    const { entryId, namespace, name, kind, uid } = arg as Partial<Target> & { kind?: unknown };
    if (kind !== undefined && kind !== 'object') return undefined;
    if (typeof entryId === 'string' && typeof namespace === 'string' && typeof name === 'string') return { entryId, namespace, name, ...(typeof uid === 'string' ? { uid } : {}) };
    return undefined;
  }
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && targetOfUri(uri);
}

function targetOfUri(uri: vscode.Uri): Target | undefined {
  if (uri.scheme === OBJECT_SCHEME) return parseObjectUri(uri);
  const ref = parseHistoryUri(uri);
  if (!ref) return undefined;
  return ref.type === 'version' ? { ...ref.target, uid: ref.uid } : ref.target;
}
