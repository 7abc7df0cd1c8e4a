import * as vscode from 'vscode';
import { groupVersion, type KubeObject } from '../informer';
import type { Clock } from '../base';
import type { WatchEntry } from '../manager';
import { objectLabel, type HistorySource, type HistoryStore, type ObjectHistory, type VersionInfo } from '../history';
import { objectYaml } from '../ui/object-yaml';
import { RefreshThrottle } from '../ui/tree/refresh-throttle';
import { parseHistoryUri, type Target } from './history-uri';

/** Least time between two re-renders of a live document while its object changes fast. */
const LIVE_REFRESH_MS = 250;

/** What the history needs of the watch manager (WatchManager satisfies it). */
export interface ObjectHistorySource extends HistorySource {
  entry(id: string): WatchEntry | undefined;
}

/**
 * Read-only documents under `kubewatch-history:`: a stored version as YAML (Secrets masked),
 * an empty document (the left side of "created"), and the live object, which follows every
 * change (at most every 250 ms), shows a deleted object's last state under a comment, and a
 * re-created one's new state.
 */
export class HistoryDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
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

export function liveObject(source: ObjectHistorySource, t: Target): KubeObject | undefined {
  return source.entry(t.entryId)?.informer?.get(t.namespace || undefined, t.name);
}

/** The histories of a target: the live object's first (made for the occasion if it never changed), then gone incarnations. */
export function historiesOf(source: ObjectHistorySource, store: HistoryStore, t: Target): { history: ObjectHistory; firstSeenKnown: boolean }[] {
  const out: { history: ObjectHistory; firstSeenKnown: boolean }[] = [];
  const live = liveObject(source, t);
  if (live) out.push(store.historyOf(t.entryId, live));
  for (const h of store.find(t.entryId, t.namespace, t.name)) if (h.gone) out.push({ history: h, firstSeenKnown: true });
  if (t.uid) out.sort((a, b) => Number(b.history.uid === t.uid) - Number(a.history.uid === t.uid));
  return out;
}

/** A stored version as an object, or undefined when no longer kept. Seq 0 is the first-list version of an object with no history. */
export function resolveVersion(source: ObjectHistorySource, store: HistoryStore, t: Target, uid: string, seq: number): { object: KubeObject; info: VersionInfo } | undefined {
  const histories = historiesOf(source, store, { ...t, uid }).filter((h) => h.history.uid === uid);
  const h = histories[0]?.history;
  if (!h) return undefined;
  let index = h.indexOf(seq);
  if (index < 0 && seq === 0 && h.oldestInfo().arrival === 'list') index = 0;
  if (index < 0) return undefined;
  return { object: h.objects()[index], info: h.infos()[index] };
}

