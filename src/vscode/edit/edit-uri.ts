import * as vscode from 'vscode';
import type { WatchEntry } from '../../manager';
import { EDIT_SCHEME, type ObjectRef } from '../object-documents';
import { KIND_NAME_SLASH, objectTabPath, pathSegment } from '../tab-title';

/**
 * The URIs of editing: `kubewatch-edit:/context/namespace/edit/Kind∕name.yaml` is the editable
 * document of an object, `…/namespace/merge/Kind∕name.yaml` the scratch result of a merge in VS
 * Code's merge editor (EditRefs maps both back to the object); `kubewatch-snapshot:` holds read-only texts (the merge's inputs, the change on the server,
 * an apply's dry run) kept in memory while open.
 */

export const SNAPSHOT_SCHEME = 'kubewatch-snapshot';

/** The key sessions are kept by: one per object, whatever URI spelling. */
export function editKey(ref: ObjectRef): string {
  return `${ref.entryId}\u0000${ref.namespace}\u0000${ref.name}`;
}

/**
 * The paths of editable documents, named as the live documents are (tab-title.ts), in a folder
 * `edit` (`kubewatch-edit:/kind-dev/shop/edit/ConfigMap∕web.yaml`; a merge's result in `merge`),
 * so that the editable tab and the live one of an object tell themselves apart. VS Code shows the
 * URI in its save errors, so it carries no opaque query: the path is mapped back to the watch it
 * came from, or, for a document VS Code restores after a reload, found among the watches by its
 * context, namespace and kind.
 */
export class EditRefs {
  private readonly byPath = new Map<string, ObjectRef>();

  constructor(private readonly entries: () => readonly WatchEntry[]) {}

  /** The editable document of `ref`. */
  uriOf(ref: ObjectRef, entry: WatchEntry | undefined): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: EDIT_SCHEME, path: editPath(ref, entry, 'edit') });
    this.byPath.set(uri.path, ref);
    return uri;
  }

  /** The object an editable or merge document edits. */
  refOf(uri: vscode.Uri): ObjectRef | undefined {
    if (uri.scheme !== EDIT_SCHEME) return undefined;
    const parts = uri.path.split('/');
    if (parts.length !== 5 || (parts[3] !== 'edit' && parts[3] !== 'merge')) return undefined;
    const path = [...parts.slice(0, 3), 'edit', parts[4]].join('/');
    const known = this.byPath.get(path);
    if (known) return known;
    const [, context, namespace, , file] = parts;
    const at = file.indexOf(KIND_NAME_SLASH);
    if (at < 0 || !file.endsWith('.yaml')) return undefined;
    const kind = file.slice(0, at);
    const name = file.slice(at + KIND_NAME_SLASH.length, -'.yaml'.length);
    const ns = namespace === '_cluster' ? '' : namespace;
    const entry = this.entries().find((e) => pathSegment(e.context || 'current-context') === context && e.type?.kind === kind && (e.namespace === '' || e.namespace === ns));
    if (!entry) return undefined;
    const ref = { entryId: entry.id, namespace: ns, name };
    this.byPath.set(path, ref);
    return ref;
  }
}

/** `/context/namespace/edit/Kind∕name.yaml` (or `merge`). */
function editPath(ref: ObjectRef, entry: WatchEntry | undefined, folder: 'edit' | 'merge'): string {
  const kind = entry?.type?.kind ?? entry?.resource ?? 'object';
  const live = objectTabPath(entry?.context ?? '', ref.namespace, kind, ref.name, '.yaml');
  const cut = live.lastIndexOf('/');
  return `${live.slice(0, cut)}/${folder}${live.slice(cut)}`;
}

/** The scratch result of a merge of the edit at `uri`: `…/namespace/merge/Kind∕name.yaml`. */
export function mergeUriOf(uri: vscode.Uri): vscode.Uri {
  const parts = uri.path.split('/');
  return uri.with({ path: [...parts.slice(0, 3), 'merge', parts[4]].join('/') });
}

export function isMergeUri(uri: vscode.Uri): boolean {
  const parts = uri.path.split('/');
  return uri.scheme === EDIT_SCHEME && parts.length === 5 && parts[3] === 'merge';
}

/** The file name a tab shows for an edit: `ConfigMap∕web.yaml`. */
export function editFileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/** Read-only texts by URI, for the merge editor's inputs and the diffs; forgotten when their document closes. */
export class Snapshots implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private serial = 0;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** A snapshot's text was replaced (set): VS Code reloads its open document. */
  readonly onDidChange = this.changed.event;
  private readonly closing = vscode.workspace.onDidCloseTextDocument((doc) => {
    if (doc.uri.scheme === SNAPSHOT_SCHEME) this.texts.delete(doc.uri.toString());
  });

  /** A new snapshot URI named `label` (the tab shows it) holding `text`. */
  add(label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${label.replace(/[\\?#]/g, '_')}`, query: `s=${++this.serial}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /** Replaces the text of snapshot `uri` (a merge's input that moved on). */
  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# this snapshot is no longer kept\n';
  }

  dispose(): void {
    this.closing.dispose();
    this.changed.dispose();
    this.texts.clear();
  }
}
