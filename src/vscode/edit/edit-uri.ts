import * as vscode from 'vscode';
import type { WatchEntry } from '../../manager';
import { EDIT_SCHEME, type ObjectRef } from '../object-documents';

/**
 * The URIs of editing: `kubewatch-edit:/context/resource/namespace/name.yaml` is the editable
 * document of an object, `…/namespace/merge/name.yaml` the scratch result of a merge in VS Code's
 * merge editor (EditRefs maps both back to the object); `kubewatch-snapshot:` holds read-only texts (the merge's inputs, the change on the server,
 * an apply's dry run) kept in memory while open.
 */

export const SNAPSHOT_SCHEME = 'kubewatch-snapshot';

/** The key sessions are kept by: one per object, whatever URI spelling. */
export function editKey(ref: ObjectRef): string {
  return `${ref.entryId}\u0000${ref.namespace}\u0000${ref.name}`;
}

const clean = (s: string) => s.replace(/[/\\?#]/g, '_') || '_';

/**
 * The paths of editable documents, which read as what they are
 * (`kubewatch-edit:/kind-dev/configmaps/shop/web.yaml`; a merge's result under `…/shop/merge/web.yaml`),
 * and the objects they name. VS Code shows the URI in its save errors, so it carries no opaque
 * query: the path is mapped back to the watch it came from, or, for a document VS Code restores
 * after a reload, found among the watches by its context, resource and namespace.
 */
export class EditRefs {
  private readonly byPath = new Map<string, ObjectRef>();

  constructor(private readonly entries: () => readonly WatchEntry[]) {}

  /** The editable document of `ref`. */
  uriOf(ref: ObjectRef, entry: WatchEntry | undefined): vscode.Uri {
    const segments = [entry?.context || 'current-context', entry?.resource ?? 'objects', ref.namespace || '_cluster', `${ref.name}.yaml`].map(clean);
    const uri = vscode.Uri.from({ scheme: EDIT_SCHEME, path: `/${segments.join('/')}` });
    this.byPath.set(uri.path, ref);
    return uri;
  }

  /** The object an editable or merge document edits. */
  refOf(uri: vscode.Uri): ObjectRef | undefined {
    if (uri.scheme !== EDIT_SCHEME) return undefined;
    const path = editPathOf(uri);
    const known = this.byPath.get(path);
    if (known) return known;
    const [context, resource, namespace, file] = path.split('/').slice(1);
    if (!file?.endsWith('.yaml')) return undefined;
    const name = file.slice(0, -'.yaml'.length);
    const ns = namespace === '_cluster' ? '' : namespace;
    const entry = this.entries().find((e) => clean(e.context || 'current-context') === context && clean(e.resource) === resource && (e.namespace === '' || e.namespace === ns));
    if (!entry) return undefined;
    const ref = { entryId: entry.id, namespace: ns, name };
    this.byPath.set(path, ref);
    return ref;
  }
}

/** The editable document's path of an edit or merge URI. */
function editPathOf(uri: vscode.Uri): string {
  const parts = uri.path.split('/');
  return parts.length === 6 && parts[4] === 'merge' ? [...parts.slice(0, 4), parts[5]].join('/') : uri.path;
}

/** The scratch result of a merge of the edit at `uri`: `…/namespace/merge/name.yaml`. */
export function mergeUriOf(uri: vscode.Uri): vscode.Uri {
  const parts = uri.path.split('/');
  return uri.with({ path: [...parts.slice(0, 4), 'merge', parts[4]].join('/') });
}

export function isMergeUri(uri: vscode.Uri): boolean {
  const parts = uri.path.split('/');
  return uri.scheme === EDIT_SCHEME && parts.length === 6 && parts[4] === 'merge';
}

/** Read-only texts by URI, for the merge editor's inputs and the diffs; forgotten when their document closes. */
export class Snapshots implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private serial = 0;
  private readonly closing = vscode.workspace.onDidCloseTextDocument((doc) => {
    if (doc.uri.scheme === SNAPSHOT_SCHEME) this.texts.delete(doc.uri.toString());
  });

  /** A new snapshot URI named `label` (the tab shows it) holding `text`. */
  add(label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${label.replace(/[\\?#]/g, '_')}`, query: `s=${++this.serial}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# this snapshot is no longer kept\n';
  }

  dispose(): void {
    this.closing.dispose();
    this.texts.clear();
  }
}
