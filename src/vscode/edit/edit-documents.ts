import * as vscode from 'vscode';
import type { Clock, Disposable as EngineDisposable } from '../../base';
import { EditSession, type MergeConflict, type EditJournal, type EditWrite } from '../../edit';
import type { KubeObject } from '../../informer';
import { sameCluster, type EntryHandler, type ObjectOrigin, type ObjectsRemoved, type OriginResolution, type WatchEntry } from '../../manager';
import type { ObjectRef } from '../object-documents';
import { EditRefs, editKey } from './edit-uri';

/** What editing needs of the watch manager (a WatchManager is one). */
export interface EditSource {
  entry(id: string): WatchEntry | undefined;
  addHandler(handler: EntryHandler): EngineDisposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): EngineDisposable;
  /** Where an object read now from an entry comes from (its writes go there or nowhere). */
  originOf(id: string, object?: KubeObject): ObjectOrigin | undefined;
  resolveOrigin(origin: ObjectOrigin): OriginResolution;
  entries(): WatchEntry[];
  customResourceDefinition?(id: string): KubeObject | undefined;
}

/** One object open for editing. */
export interface OpenEdit {
  readonly ref: ObjectRef;
  readonly uri: vscode.Uri;
  readonly session: EditSession;
  /** The file's modification time as VS Code sees it: moves only when the buffer is to follow the server. */
  mtime: number;
  /** Byte length of the text last read. */
  size: number;
  /** Why the object is no longer there to save to, when it is not. */
  gone?: string;
  /**
   * The edit's one merge in the merge editor (merge-editor.ts): its scratch result, the live
   * version it merges onto, its inputs' snapshots (kept, so a new conflict updates this merge
   * instead of opening another), and how often the server changed during it.
   */
  merge?: { text: string; theirs: KubeObject; inputs?: { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri }; serverChanges?: number; ours?: string; conflicts?: readonly MergeConflict[] };
  /** The last save: its resourceVersion, whether the watch has delivered it yet, and whether that is taking long. */
  saved?: { resourceVersion: string; confirmed: boolean; late?: boolean; rebased?: string };
  /** The newest resourceVersion the watch delivered for the object. */
  watchRv?: string;
  /** A save just wrote the file: once VS Code has marked the document saved, it reloads the server's version. */
  reloadAfterSave?: boolean;
  /** Why VS Code is saving the document now (from onWillSaveTextDocument), until the write. */
  saveReason?: vscode.TextDocumentSaveReason;
  /** The next write of exactly this text is already done (an apply from the title bar): nothing to send. */
  skipWrite?: string;
}

/** How long to wait for a watch to list an object that a restored or reopened document names. */
const WAIT_FOR_OBJECT_MS = 15_000;

function numericRv(rv: string | undefined): number | undefined {
  return rv !== undefined && /^\d+$/.test(rv) ? Number(rv) : undefined;
}

/**
 * The objects being edited, one session each, following their live objects: a clean document
 * follows every change (its file changes, so VS Code reloads it), a dirty one keeps the user's
 * text and the session notes the change for the notice. Invariant: a session exists only while
 * VS Code has its document open (or is opening it); state changes fire `onDidChangeState`.
 */
export class EditDocuments implements vscode.Disposable {
  private readonly edits = new Map<string, OpenEdit>();
  private readonly fileChanged = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.fileChanged.event;
  private readonly stateChanged = new vscode.EventEmitter<OpenEdit>();
  /** A session's state changed (live object, save, merge, gone): lenses and diagnostics redraw. */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly subscriptions: { dispose(): void }[];
  private readonly managersInFlight = new Set<string>();
  /** The objects editable documents' paths name. */
  readonly refs: EditRefs;

  constructor(
    readonly source: EditSource,
    private readonly clock: Clock,
    private readonly settings: () => { hideServerFields: boolean },
    private readonly onWrite: (write: EditWrite, ref: ObjectRef) => void,
    private readonly journalFor: (ref: ObjectRef) => EditJournal | undefined = () => undefined,
  ) {
    this.refs = new EditRefs(() => source.entries());
    const touched = (entryId: string, obj: KubeObject | undefined, key: { namespace?: string; name?: string }, why?: string) => {
      if (this.edits.size === 0) return;
      const edit = this.edits.get(editKey({ entryId, namespace: key.namespace ?? '', name: key.name ?? '' }));
      if (!edit) return;
      // The entry's watch now runs on another cluster (the current context switched): its objects are not this edit's (W01).
      const now = source.originOf(entryId);
      if (now && !sameCluster(now, edit.session.target.origin)) {
        if (edit.session.live || !edit.gone) this.noteLive(edit, undefined, `its watch now shows context "${now.context}"; this edit stays on context "${edit.session.target.origin.context}"`, 'unwatched');
        return;
      }
      this.noteLive(edit, obj, why);
    };
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => touched(id, obj, obj.metadata),
        onUpdate: (id, _old, obj) => touched(id, obj, obj.metadata),
        onDelete: (id, obj) => touched(id, undefined, obj.metadata, 'deleted on the server'),
      }),
      source.onObjectsRemoved((removed) => {
        for (const obj of removed.objects) touched(removed.entryId, undefined, obj.metadata, `no longer watched (${removed.reason})`);
      }),
      // A document clean again (reverted, undone to its saved text) follows the server again.
      vscode.workspace.onDidChangeTextDocument((e) => {
        const edit = this.get(e.document.uri);
        if (!edit || e.document.isDirty || e.document.uri.toString() !== edit.uri.toString()) return;
        if (edit.session.live && edit.session.live.metadata.resourceVersion !== edit.session.base.metadata.resourceVersion) this.refreshIfClean(edit);
        this.changed(edit);
      }),
      vscode.workspace.onWillSaveTextDocument((e) => {
        const edit = this.get(e.document.uri);
        if (edit && e.document.uri.toString() === edit.uri.toString()) edit.saveReason = e.reason;
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        const edit = this.get(doc.uri);
        if (!edit?.reloadAfterSave || doc.uri.toString() !== edit.uri.toString()) return;
        edit.reloadAfterSave = false;
        this.refreshIfClean(edit);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const ref = this.refs.refOf(doc.uri);
        if (ref && doc.uri.toString() === this.edits.get(editKey(ref))?.uri.toString()) this.edits.delete(editKey(ref));
      }),
    ];
  }

  /** The edit of `uri` (an edit or merge URI), if open. */
  get(uri: vscode.Uri): OpenEdit | undefined {
    const ref = this.refs.refOf(uri);
    return ref && this.edits.get(editKey(ref));
  }

  all(): OpenEdit[] {
    return [...this.edits.values()];
  }

  /** The edit of `uri`, made from the watch's object (waiting for the watch to list it when it has not yet). */
  async open(uri: vscode.Uri): Promise<OpenEdit> {
    const ref = this.refs.refOf(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    const existing = this.edits.get(editKey(ref));
    if (existing) return existing;
    const obj = await this.objectOf(ref);
    const again = this.edits.get(editKey(ref));
    if (again) return again;
    if (!obj) throw vscode.FileSystemError.FileNotFound(uri);
    const entry = this.source.entry(ref.entryId);
    const type = entry?.type;
    if (!type) throw vscode.FileSystemError.Unavailable(`the watch of ${ref.name} is not running`);
    // Which cluster is decided here, where the object is read: every write of the edit goes there or nowhere (W01).
    const origin = this.source.originOf(ref.entryId, obj);
    if (!origin) throw vscode.FileSystemError.Unavailable(`the context of ${ref.name} has no connection now`);
    const session = new EditSession(
      { type, namespace: ref.namespace, name: ref.name, origin, connect: (o) => this.source.resolveOrigin(o) },
      obj,
      { hideServerFields: this.settings().hideServerFields, now: () => this.clock.now(), onWrite: (w) => this.onWrite(w, ref), journal: this.journalFor(ref), customResourceDefinition: () => this.source.customResourceDefinition?.(ref.entryId) },
    );
    // An integer beyond 2^53 came rounded through the watch: the edit shows and keeps the server's exact one (W11).
    await session.standOnExactCopy(AbortSignal.timeout(10_000)).catch(() => undefined);
    const raced = this.edits.get(editKey(ref));
    if (raced) return raced;
    const edit: OpenEdit = { ref, uri: this.refs.uriOf(ref, entry), session, mtime: this.clock.now(), size: 0 };
    this.edits.set(editKey(ref), edit);
    return edit;
  }

  /** The document of an edit as VS Code has it, when open. */
  documentOf(edit: OpenEdit): vscode.TextDocument | undefined {
    const key = edit.uri.toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  }

  /** True when the user's text differs from what was last read (VS Code's dirty state). */
  isDirty(edit: OpenEdit): boolean {
    return this.documentOf(edit)?.isDirty ?? false;
  }

  /** Moves the file's mtime on (VS Code reloads a clean document whose mtime moved). */
  touch(edit: OpenEdit): void {
    edit.mtime = Math.max(edit.mtime + 1, this.clock.now());
  }

  /** Makes a clean document reload from the server (its file "changed"); a dirty one is left alone. */
  refreshIfClean(edit: OpenEdit): void {
    const doc = this.documentOf(edit);
    if (!doc || doc.isDirty) return;
    this.touch(edit);
    this.fileChanged.fire([{ type: vscode.FileChangeType.Changed, uri: edit.uri }]);
  }

  /** Tells the lenses and diagnostics that `edit` changed. */
  changed(edit: OpenEdit): void {
    this.stateChanged.fire(edit);
  }

  /** `why` of a missing object: 'deleted on the server' (a watch's delete: a save is never sent), else it is merely unwatched. */
  private noteLive(edit: OpenEdit, obj: KubeObject | undefined, why?: string, gone: 'deleted' | 'unwatched' = why === undefined || why.startsWith('deleted') ? 'deleted' : 'unwatched'): void {
    if (obj) {
      const current = edit.session.live;
      const incoming = numericRv(obj.metadata.resourceVersion);
      const known = numericRv(current?.metadata.resourceVersion);
      // An older version arriving after a save's answer (the watch lags the write): not news.
      if (current && current.metadata.uid === obj.metadata.uid && incoming !== undefined && known !== undefined && incoming < known) return;
      edit.session.noteLive(obj, this.clock.now());
      edit.watchRv = obj.metadata.resourceVersion;
      edit.gone = edit.session.base.metadata.uid && obj.metadata.uid && obj.metadata.uid !== edit.session.base.metadata.uid ? 'deleted and created again on the server (a new uid)' : undefined;
      if (edit.saved && !edit.saved.confirmed && incoming !== undefined && incoming >= (numericRv(edit.saved.resourceVersion) ?? Infinity)) edit.saved.confirmed = true;
    } else {
      edit.session.noteLive(undefined, this.clock.now(), gone);
      edit.gone = why ?? 'deleted on the server';
    }
    // Who changed it (the watch drops managedFields): read once per change, dirty or not, since the
    // extension host may learn that the user started typing only after this change arrived.
    if (obj) this.fetchManagers(edit);
    this.refreshIfClean(edit);
    this.changed(edit);
  }

  /** Reads the live object with its managedFields (the watch drops them) to name who changed it; one read at a time. */
  private fetchManagers(edit: OpenEdit): void {
    const key = editKey(edit.ref);
    if (this.managersInFlight.has(key) || !edit.session.live) return;
    this.managersInFlight.add(key);
    const ctl = new AbortController();
    const timer = this.clock.setTimer(() => ctl.abort(), 10_000);
    edit.session
      .read(ctl.signal)
      .then((obj) => {
        edit.session.noteManagedFields(obj);
        this.changed(edit);
        return obj.metadata.resourceVersion;
      })
      .catch(() => undefined)
      .then((readRv) => {
        timer.cancel();
        this.managersInFlight.delete(key);
        // Changed again while reading: read once more, for the newest version.
        const liveRv = edit.session.live?.metadata.resourceVersion;
        if (readRv !== undefined && liveRv !== readRv && this.edits.get(key) === edit) this.fetchManagers(edit);
      });
  }

  /** The watch's object for `ref`, waiting (bounded) while its watch has not listed yet. */
  private async objectOf(ref: ObjectRef): Promise<KubeObject | undefined> {
    const now = () => this.source.entry(ref.entryId)?.informer?.get(ref.namespace || undefined, ref.name);
    const found = now();
    if (found) return found;
    if (this.source.entry(ref.entryId)?.state.synced) return undefined;
    return new Promise((resolve) => {
      let done = false;
      const finish = (obj: KubeObject | undefined) => {
        if (done) return;
        done = true;
        timer.cancel();
        handler.dispose();
        resolve(obj);
      };
      const handler = this.source.addHandler({
        onAdd: (id, obj) => {
          if (id === ref.entryId && obj.metadata.name === ref.name && (obj.metadata.namespace ?? '') === ref.namespace) finish(obj);
        },
      });
      const timer = this.clock.setTimer(() => finish(now()), WAIT_FOR_OBJECT_MS);
    });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.edits.clear();
    this.fileChanged.dispose();
    this.stateChanged.dispose();
  }
}
