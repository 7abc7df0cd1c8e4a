import * as vscode from 'vscode';
import { DoubleClick, objectTabPath } from './tab-title';
import { groupVersion, type KubeObject } from '../informer';
import { systemClock, type Clock, type Disposable as EngineDisposable } from '../base';
import type { EntryHandler, ObjectsRemoved, WatchEntry } from '../manager';
import { isSecret, objectYaml } from '../ui/object-yaml';
import { RefreshThrottle } from '../ui/tree/refresh-throttle';

/** The URI scheme of live object documents. */
export const OBJECT_SCHEME = 'kubewatch';
/** The URI scheme of editable object documents (src/vscode/edit/): the same path as OBJECT_SCHEME's, no query. */
export const EDIT_SCHEME = 'kubewatch-edit';
export const OPEN_OBJECT_COMMAND = 'kubeWatch.openObject';
export const REVEAL_SECRET_VALUES_COMMAND = 'kubeWatch.revealSecretValues';
/** Context key: the active editor shows a Secret from a `kubewatch:` document (for the editor title button). */
export const SECRET_DOCUMENT_CONTEXT = 'kubeWatch.secretDocumentActive';

/** Least time between two re-renders of one document while its object changes fast. */
const DOCUMENT_REFRESH_MS = 250;

/** What the documents need of the watch manager. */
export interface ObjectDocumentSource {
  entry(id: string): WatchEntry | undefined;
  addHandler(handler: EntryHandler): EngineDisposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): EngineDisposable;
}

/** An object of a watch: what an object tree node carries (`ObjectNode` satisfies it). */
export interface ObjectRef {
  entryId: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
}

/** One open document: the object it follows and what was last known of it. */
interface DocumentState {
  ref: ObjectRef;
  /** The URI VS Code opened (the one to announce changes for). */
  uri: vscode.Uri;
  /** The newest state seen, kept after a delete to show as the last known state. */
  last?: KubeObject;
  /** Set while the object is gone: when, and why. */
  gone?: { at: number; why: string };
  /** Secret values shown in plain text (after a confirmation); reset when the document closes. */
  revealed: boolean;
  readonly throttle: RefreshThrottle;
}

/** The identity of an object across URIs: the key documents are tracked by. */
function keyOf(ref: ObjectRef): string {
  return `${ref.entryId}\u0000${ref.namespace}\u0000${ref.name}`;
}

/**
 * `kubewatch:/context/namespace/Deployment∕web.yaml?o=…`: the path is for people (the tab shows
 * `Deployment∕web.yaml`, its description the context and namespace; see tab-title.ts), the query
 * carries the reference as base64url JSON, which survives any re-encoding of the URI.
 */
export function objectUri(ref: ObjectRef, entry: WatchEntry | undefined): vscode.Uri {
  const kind = entry?.type?.kind ?? entry?.resource ?? 'object';
  const query = `o=${Buffer.from(JSON.stringify([ref.entryId, ref.namespace, ref.name]), 'utf8').toString('base64url')}`;
  return vscode.Uri.from({ scheme: OBJECT_SCHEME, path: objectTabPath(entry?.context ?? '', ref.namespace, kind, ref.name, '.yaml'), query });
}

/** How an editable document's path maps to its object: set by src/vscode/edit while editing is registered. */
let editRefResolver: ((uri: vscode.Uri) => ObjectRef | undefined) | undefined;

/** Makes `parseObjectUri` answer `kubewatch-edit:` URIs through `resolver` until the returned disposable is disposed. */
export function setEditRefResolver(resolver: (uri: vscode.Uri) => ObjectRef | undefined): vscode.Disposable {
  editRefResolver = resolver;
  return new vscode.Disposable(() => {
    if (editRefResolver === resolver) editRefResolver = undefined;
  });
}

/** The reference a `kubewatch:` (or `kubewatch-edit:`) URI carries, or undefined for a foreign or damaged one. */
export function parseObjectUri(uri: vscode.Uri): ObjectRef | undefined {
  if (uri.scheme === EDIT_SCHEME) return editRefResolver?.(uri);
  if (uri.scheme !== OBJECT_SCHEME) return undefined;
  const encoded = new URLSearchParams(uri.query).get('o');
  if (!encoded) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) {
      const [entryId, namespace, name] = value as string[];
      return { entryId, namespace, name };
    }
  } catch {
    // a damaged query: not one of ours
  }
  return undefined;
}

/**
 * A read-only document provider whose documents show an object's YAML and follow the live
 * object: every change re-renders (at most every 250 ms); a delete keeps the last known state
 * under a "# deleted at …" header; a re-create shows the new object. Secrets are masked unless
 * revealed for that document; closing the document (or its last tab) masks them again.
 * Invariant: state is kept only for documents VS Code has open.
 */
export class ObjectDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly docs = new Map<string, DocumentState>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(
    private readonly source: ObjectDocumentSource,
    private readonly clock: Clock = systemClock,
  ) {
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => this.objectChanged(id, obj),
        onUpdate: (id, _old, obj) => this.objectChanged(id, obj),
        onDelete: (id, obj, unknown) => this.objectGone(id, obj, unknown ? 'deleted while the watch was away' : 'deleted'),
      }),
      source.onObjectsRemoved((removed) => {
        if (this.docs.size === 0) return;
        for (const obj of removed.objects) this.objectGone(removed.entryId, obj, `removed from the view (${removed.reason})`);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.closed(doc.uri)),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) if (tab.input instanceof vscode.TabInputText) this.tabClosed(tab.input.uri);
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = parseObjectUri(uri);
    if (!ref) return '# not a Kube Watch object document\n';
    const state = this.stateOf(ref, uri);
    const entry = this.source.entry(ref.entryId);
    const live = entry?.informer?.get(ref.namespace || undefined, ref.name);
    if (live) {
      state.last = live;
      state.gone = undefined;
    }
    const kind = entry?.type?.kind;
    const apiVersion = entry?.type ? groupVersion(entry.type) : undefined;
    const what = `${kind ?? 'object'} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
    if (live) return objectYaml(live, { kind, apiVersion, revealSecrets: state.revealed });
    if (state.last) {
      const gone = state.gone ?? { at: this.clock.now(), why: 'deleted' };
      state.gone = gone;
      return objectYaml(state.last, { kind, apiVersion, revealSecrets: state.revealed, comments: [`${gone.why === 'deleted' ? 'deleted' : gone.why} at ${new Date(gone.at).toISOString()} (last known state)`] });
    }
    if (!entry) return `# ${what}: its watch is no longer configured\n`;
    if (!entry.state.synced) return `# ${what}: waiting for ${entry.label} to list its objects…\n`;
    return `# ${what} does not exist in ${entry.label}\n`;
  }

  /**
   * Makes sure the document at `uri` follows its object. Needed after
   * `setTextDocumentLanguage`, which closes and re-opens a document (dropping its state here).
   */
  track(uri: vscode.Uri): void {
    const ref = parseObjectUri(uri);
    if (ref) this.stateOf(ref, uri);
  }

  /** True when the document at `uri` shows a Secret. */
  isSecretDocument(uri: vscode.Uri): boolean {
    const ref = parseObjectUri(uri);
    if (!ref) return false;
    const entry = this.source.entry(ref.entryId);
    const obj = entry?.informer?.get(ref.namespace || undefined, ref.name) ?? this.docs.get(keyOf(ref))?.last;
    return obj !== undefined ? isSecret(obj, entry?.type?.kind) : entry?.type?.kind === 'Secret';
  }

  /** Shows (or masks again) the Secret values of the document at `uri`. */
  setRevealed(uri: vscode.Uri, revealed: boolean): void {
    const ref = parseObjectUri(uri);
    if (!ref) return;
    const state = this.stateOf(ref, uri);
    if (state.revealed === revealed) return;
    state.revealed = revealed;
    this.changed.fire(state.uri);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const state of this.docs.values()) state.throttle.dispose();
    this.docs.clear();
    this.changed.dispose();
  }

  private stateOf(ref: ObjectRef, uri: vscode.Uri): DocumentState {
    const key = keyOf(ref);
    let state = this.docs.get(key);
    if (!state) {
      const throttle = new RefreshThrottle(this.clock, DOCUMENT_REFRESH_MS, () => this.changed.fire(this.docs.get(key)?.uri ?? uri));
      state = { ref, uri, revealed: false, throttle };
      this.docs.set(key, state);
    }
    return state;
  }

  private objectChanged(entryId: string, obj: KubeObject): void {
    if (this.docs.size === 0) return;
    const state = this.docs.get(keyOf({ entryId, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }));
    if (!state) return;
    state.last = obj;
    state.gone = undefined;
    state.throttle.request();
  }

  private objectGone(entryId: string, obj: KubeObject, why: string): void {
    if (this.docs.size === 0) return;
    const state = this.docs.get(keyOf({ entryId, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }));
    if (!state) return;
    state.last = obj;
    state.gone = { at: this.clock.now(), why };
    state.throttle.request();
  }

  private closed(uri: vscode.Uri): void {
    const ref = uri.scheme === OBJECT_SCHEME ? parseObjectUri(uri) : undefined;
    if (!ref) return;
    const key = keyOf(ref);
    this.docs.get(key)?.throttle.dispose();
    this.docs.delete(key);
  }

  /** The last tab of a document closed: mask its Secret values again (VS Code may keep the document a while). */
  private tabClosed(uri: vscode.Uri): void {
    const ref = uri.scheme === OBJECT_SCHEME ? parseObjectUri(uri) : undefined;
    if (!ref) return;
    const key = keyOf(ref);
    const state = this.docs.get(key);
    if (!state?.revealed) return;
    const stillShown = vscode.window.tabGroups.all.some((g) =>
      g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === OBJECT_SCHEME && parseObjectUri(t.input.uri) !== undefined && keyOf(parseObjectUri(t.input.uri) as ObjectRef) === key),
    );
    if (!stillShown) {
      state.revealed = false;
      this.changed.fire(state.uri);
    }
  }
}

/**
 * Registers the `kubewatch:` document provider and the commands `kubeWatch.openObject` (argument:
 * an object tree node or any `{ entryId, namespace, name }`) and `kubeWatch.revealSecretValues`
 * (argument: none for the active editor's document, or an object node / reference to open first),
 * and keeps the context key `kubeWatch.secretDocumentActive` true while the active editor shows a Secret.
 */
export function registerObjectDocuments(manager: ObjectDocumentSource, clock?: Clock): vscode.Disposable {
  const provider = new ObjectDocumentProvider(manager, clock);

  const doubleClick = new DoubleClick();

  /** A click opens a preview (the next click elsewhere replaces it); a double click pins it, as in the Explorer. */
  async function open(ref: ObjectRef): Promise<vscode.TextEditor> {
    const pin = doubleClick.isSecond(keyOf(ref), Date.now());
    let doc = await vscode.workspace.openTextDocument(objectUri(ref, manager.entry(ref.entryId)));
    if (doc.languageId !== 'yaml') doc = await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
    provider.track(doc.uri);
    return vscode.window.showTextDocument(doc, { preview: !pin, preserveFocus: !pin });
  }

  async function reveal(arg?: unknown): Promise<void> {
    const ref = asObjectRef(arg);
    const uri = ref ? (await open(ref)).document.uri : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== OBJECT_SCHEME) {
      void vscode.window.showInformationMessage('Open a Secret from the Kube Watch view first, then reveal its values.');
      return;
    }
    if (!provider.isSecretDocument(uri)) {
      void vscode.window.showInformationMessage('This document does not show a Secret: nothing is masked.');
      return;
    }
    const target = parseObjectUri(uri);
    const answer = await vscode.window.showWarningMessage(
      `Reveal the values of Secret "${target?.name ?? ''}"?`,
      { modal: true, detail: 'They will show in plain text in this editor until it is closed.' },
      'Reveal',
    );
    if (answer === 'Reveal') provider.setRevealed(uri, true);
  }

  const updateSecretContext = () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const secret = uri !== undefined && uri.scheme === OBJECT_SCHEME && provider.isSecretDocument(uri);
    void vscode.commands.executeCommand('setContext', SECRET_DOCUMENT_CONTEXT, secret);
  };
  updateSecretContext();

  return vscode.Disposable.from(
    provider,
    vscode.window.onDidChangeActiveTextEditor(updateSecretContext),
    provider.onDidChange(updateSecretContext),
    vscode.workspace.registerTextDocumentContentProvider(OBJECT_SCHEME, provider),
    vscode.commands.registerCommand(OPEN_OBJECT_COMMAND, async (arg?: unknown) => {
      const ref = asObjectRef(arg);
      if (ref) await open(ref);
    }),
    vscode.commands.registerCommand(REVEAL_SECRET_VALUES_COMMAND, (arg?: unknown) => reveal(arg)),
  );
}

/** A command argument as an object reference: an object tree node, or `{ entryId, namespace, name }`. */
function asObjectRef(arg: unknown): ObjectRef | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name, kind } = arg as Partial<ObjectRef> & { kind?: unknown };
  if (kind !== undefined && kind !== 'object') return undefined;
  if (typeof entryId !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { entryId, namespace, name };
}
