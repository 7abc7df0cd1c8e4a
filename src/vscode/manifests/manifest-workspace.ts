import * as path from 'node:path';
import * as vscode from 'vscode';
import { Emitter, type Disposable } from '../../base';
import { documentLabel } from '../../manifests/manifest-documents';
import type { ManifestEngine } from '../../manifests/manifest-engine';
import type { WorkspaceManifest, WorkspaceSource } from '../../ui/tree/workspace-rows';

/**
 * The workspace's manifests, for the engine and the Workspace section (thin): every YAML and JSON
 * file of the workspace folders (at most MAX_FILES, node_modules and .git left out) is read from
 * disk and followed as it changes on disk; an open editor's text takes over while it is open.
 */

const GLOB = '**/*.{yaml,yml,json}';
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/.vscode/**}';
const MAX_FILES = 1000;

export function followWorkspace(engine: ManifestEngine, follow: (uri: vscode.Uri, text: string) => void): vscode.Disposable {
  const isOpen = (uri: vscode.Uri) => vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
  const readIn = async (uri: vscode.Uri) => {
    if (isOpen(uri)) return;
    const bytes = await vscode.workspace.fs.readFile(uri).then((b) => b, () => undefined);
    if (!bytes || bytes.length > 4 * 1024 * 1024) return;
    const text = Buffer.from(bytes).toString('utf8');
    if (/apiVersion/.test(text) || /kustomization\.ya?ml$/.test(uri.path)) follow(uri, text);
  };
  const watcher = vscode.workspace.createFileSystemWatcher(GLOB);
  let stopped = false;
  void vscode.workspace.findFiles(GLOB, EXCLUDE, MAX_FILES).then(async (uris) => {
    for (const uri of uris) if (!stopped) await readIn(uri);
  });
  return vscode.Disposable.from(
    watcher,
    watcher.onDidCreate(readIn),
    watcher.onDidChange(readIn),
    watcher.onDidDelete((uri) => engine.close(uri.toString())),
    // A closed editor: the file on disk again (its unsaved text is gone with it).
    vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === 'file' && void readIn(d.uri)),
    { dispose: () => (stopped = true) },
  );
}

/** The Workspace section's view of the engine. */
export function workspaceSource(engine: ManifestEngine): WorkspaceSource & Disposable {
  const changes = new Emitter<void>();
  const sub = engine.onDidChange(() => changes.fire());
  return {
    manifests(): WorkspaceManifest[] {
      const out: WorkspaceManifest[] = [];
      for (const uri of engine.uris()) {
        const view = engine.view(uri);
        if (!view || view.parsed.kind !== 'manifests') continue;
        const file = vscode.Uri.parse(uri);
        const folder = vscode.workspace.asRelativePath(path.dirname(file.fsPath), false);
        out.push({
          uri,
          folder: folder === path.dirname(file.fsPath) || folder === '' ? '.' : folder,
          file: path.basename(file.fsPath),
          documents: view.documents.map((d) => ({ label: documentLabel(d.doc, d.target?.namespace ?? d.doc.namespace), state: d.state })),
          problems: view.problems.map((p) => p.message),
        });
      }
      return out;
    },
    onDidChange: (listener) => changes.on(listener),
    dispose: () => {
      sub.dispose();
      changes.dispose();
    },
  };
}
