import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { Clock } from '../../base';
import type { WatchManager } from '../../manager';
import type { ResourcesTree } from '../../ui/tree/resources-tree';
import { WorkspaceRows, type WorkspaceNode } from '../../ui/tree/workspace-rows';
import { followWorkspace, workspaceSource } from './manifest-workspace';
import { ManagerCluster } from '../../manifests/manager-cluster';
import { ManifestEngine, type DocumentView } from '../../manifests/manifest-engine';
import { comparable, maskedSecretSides } from '../../manifests/drift';
import { LENS_COMMAND_TITLES, lensLine } from '../../ui/manifests/lens-text';
import { applyManifests, deleteManifest } from './manifest-commands';
import { isKustomization, kustomizationNamespace, renderKustomization } from '../../manifests/kustomize';
import { documentLabel } from '../../manifests/manifest-documents';
import { workspaceContextOf, workspaceContexts, type FolderSettings } from '../../ui/manifests/workspace-context';
import { contextStatus } from './manifest-context-status';
import { fileProblems } from '../../ui/manifests/manifest-problems';

/**
 * Workspace manifests in the editor (thin): a CodeLens above each Kubernetes document with its
 * live state, the dry run's problems in the Problems panel, Show Diff (live left, after-apply
 * right, read-only documents), Apply and Delete. The engine does the work (src/manifests/).
 */

const SCHEME = 'kubewatch-manifest';
const SELECTOR: vscode.DocumentSelector = [{ language: 'yaml' }, { language: 'json' }, { pattern: '**/*.{yaml,yml,json}' }];

/** The workspace folders' `kubeWatch` settings, for the per-folder `kubeWatch.workspace.context`. */
const folderSettings: FolderSettings = {
  folderOf: (uri) => vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri))?.uri.toString(),
  folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
  settings: (folder) => vscode.workspace.getConfiguration('kubeWatch', folder === undefined ? undefined : vscode.Uri.parse(folder)),
};

export interface ManifestsRegistration extends vscode.Disposable {
  readonly engine: ManifestEngine;
}

export function registerManifests(manager: WatchManager, clock: Clock, tree?: ResourcesTree): ManifestsRegistration {
  const trusted = () => vscode.workspace.isTrusted;
  const cluster = new ManagerCluster(manager, (uri) => workspaceContextOf(folderSettings, uri, trusted()), clock, tree?.catalog, () => workspaceContexts(folderSettings, trusted()));
  const engine = new ManifestEngine(cluster, { clock });
  const lensChanges = new vscode.EventEmitter<void>();
  const diagnostics = vscode.languages.createDiagnosticCollection('Kube Watch manifests');
  const diffTexts = new Map<string, string>();
  const diffChanges = new vscode.EventEmitter<vscode.Uri>();
  const follows = (d: vscode.TextDocument) => d.uri.scheme === 'file' && /\.(ya?ml|json)$/i.test(d.uri.path);
  const show = (uri: string) => {
    lensChanges.fire();
    const view = engine.view(uri);
    if (!view) return;
    // A kustomization's objects: on its first line, each naming its resource (manifest-problems.ts).
    const problems = fileProblems(view).map((p) => {
      const diag = new vscode.Diagnostic(new vscode.Range(p.range.line, p.range.character, p.range.endLine, p.range.endCharacter), p.message, vscode.DiagnosticSeverity.Error);
      diag.source = 'Kube Watch (dry run)';
      return diag;
    });
    diagnostics.set(vscode.Uri.parse(uri), problems);
  };
  const viewOf = (uri: string, key: string): DocumentView | undefined => engine.view(uri)?.documents.find((d) => d.doc.key === key);

  const provider: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensChanges.event,
    provideCodeLenses(document) {
      const view = engine.view(document.uri.toString());
      if (!view) return [];
      const now = clock.now();
      const lenses: vscode.CodeLens[] = view.problems.map((p) => new vscode.CodeLens(new vscode.Range(p.lines.start, 0, p.lines.start, 0), { title: p.message, command: '' }));
      for (const d of view.documents) {
        const at = new vscode.Range(d.doc.lines.start, 0, d.doc.lines.start, 0);
        const line = lensLine(d.state, now);
        const args = [document.uri.toString(), d.doc.key];
        const title = view.rendered ? `${documentLabel(d.doc, d.target?.namespace ?? d.doc.namespace)}: ${line.title}` : line.title;
        lenses.push(new vscode.CodeLens(at, { title, tooltip: line.tooltip, command: '' }));
        for (const c of line.commands) lenses.push(new vscode.CodeLens(at, { title: LENS_COMMAND_TITLES[c], command: `kubeWatch.manifests.${c}`, arguments: args }));
      }
      return lenses;
    },
  };

  const followText = (file: vscode.Uri, text: string) => {
    if (isKustomization(file.fsPath)) return void render(file);
    engine.update(file.toString(), text, false, namespaceBeside(file));
  };
  const follow = (d: vscode.TextDocument) => follows(d) && followText(d.uri, d.getText());
  // A kustomization is rendered on open and on save (never while typing): `kubectl kustomize DIR`.
  const render = (file: vscode.Uri) => {
    void renderKustomization(path.dirname(file.fsPath)).then((r) => {
      if (r.kind === 'rendered') engine.update(file.toString(), r.text, true);
      else engine.note(file.toString(), r.message);
    });
  };
  const source = workspaceSource(engine);
  const rows = new WorkspaceRows(source);
  // Ages in the lenses ("3 min ago") move on: redrawn every 30 s while a manifest is open.
  const ticker = setInterval(() => engine.uris().length > 0 && lensChanges.fire(), 30_000);
  const disposables: vscode.Disposable[] = [
    engine.onDidChange(show),
    vscode.languages.registerCodeLensProvider(SELECTOR, provider),
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, { onDidChange: diffChanges.event, provideTextDocumentContent: (uri) => diffTexts.get(uri.toString()) ?? '' }),
    vscode.workspace.onDidOpenTextDocument(follow),
    vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && !isKustomization(e.document.uri.fsPath) && follow(e.document)),
    vscode.workspace.onDidSaveTextDocument((d) => {
      // A saved file of a kustomization's folder: the kustomization is rendered again.
      for (const uri of engine.uris()) {
        const k = vscode.Uri.parse(uri);
        if (isKustomization(k.fsPath) && d.uri.fsPath.startsWith(path.dirname(k.fsPath))) render(k);
      }
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      // A workspace file stays followed (from disk: manifest-workspace.ts); another is let go.
      if (vscode.workspace.getWorkspaceFolder(d.uri)) return;
      engine.close(d.uri.toString());
      diagnostics.delete(d.uri);
    }),
    followWorkspace(engine, followText),
    contextStatus(engine, cluster, manager),
    source,
    ...(tree ? [tree.setWorkspace(rows)] : []),
    vscode.commands.registerCommand('kubeWatch.manifests.reveal', async (node: WorkspaceNode) => {
      const uri = rows.uriOf(node);
      if (!uri) return;
      const editor = await vscode.window.showTextDocument(vscode.Uri.parse(uri), { preview: true });
      const doc = node.level === 'document' ? engine.view(uri)?.documents[Number(node.key)] : undefined;
      if (doc) editor.revealRange(new vscode.Range(doc.doc.lines.start, 0, doc.doc.lines.start, 0), vscode.TextEditorRevealType.AtTop);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('kubeWatch.workspace.context') && cluster.targetMayHaveChanged()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => cluster.targetMayHaveChanged()),
    vscode.commands.registerCommand('kubeWatch.manifests.refresh', (uri?: string) => engine.refresh(uri)),
    vscode.commands.registerCommand('kubeWatch.manifests.showDiff', async (uri: string, key: string) => {
      const view = viewOf(uri, key);
      if (!view?.diff) return void vscode.window.showInformationMessage('Kube Watch: nothing to compare yet for this document.');
      const name = `${view.doc.kind}-${view.doc.name}.yaml`;
      const left = vscode.Uri.from({ scheme: SCHEME, path: `/live/${name}`, query: `${encodeURIComponent(uri)}#${key}` });
      const right = vscode.Uri.from({ scheme: SCHEME, path: `/after-apply/${name}`, query: `${encodeURIComponent(uri)}#${key}` });
      const [before, after] = maskedSecretSides(comparable(view.diff.live), comparable(view.diff.result));
      diffTexts.set(left.toString(), stringify(before));
      diffTexts.set(right.toString(), stringify(after));
      diffChanges.fire(left);
      diffChanges.fire(right);
      const context = view.origin?.context ?? '';
      await vscode.commands.executeCommand('vscode.diff', left, right, `${view.doc.kind} ${view.doc.name}: live on ${context} ↔ after apply`, { preview: true });
    }),
    vscode.commands.registerCommand('kubeWatch.manifests.apply', async (uriOrResource?: string | vscode.Uri, key?: string) => {
      const uris = await manifestUris(uriOrResource);
      for (const u of uris) {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u) ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(u)));
        follow(doc);
      }
      await applyManifests(engine, cluster, uris, key);
    }),
    vscode.commands.registerCommand('kubeWatch.manifests.delete', async (uri?: string, key?: string) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
      const line = vscode.window.activeTextEditor?.selection.active.line ?? 0;
      const view = target ? (key ? viewOf(target, key) : engine.view(target)?.documents.find((d) => d.doc.lines.start <= line && line <= d.doc.lines.end)) : undefined;
      if (view) await deleteManifest(cluster, view);
    }),
    lensChanges,
    diffChanges,
    diagnostics,
    { dispose: () => clearInterval(ticker) },
  ];
  for (const d of vscode.workspace.textDocuments) follow(d);
  return {
    engine,
    dispose: () => {
      for (const d of disposables) d.dispose();
      engine.dispose();
      cluster.dispose();
    },
  };
}

/** The namespace a kustomization beside `file` gives its resources (kustomize's, before the context's). */
function namespaceBeside(file: vscode.Uri): string | undefined {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    try {
      return kustomizationNamespace(fs.readFileSync(path.join(path.dirname(file.fsPath), name), 'utf8'));
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** The manifests a command names: a file, every YAML/JSON file of a folder, or the active editor's. */
async function manifestUris(resource?: string | vscode.Uri): Promise<string[]> {
  const uri = typeof resource === 'string' ? vscode.Uri.parse(resource) : (resource ?? vscode.window.activeTextEditor?.document.uri);
  if (!uri) return [];
  const stat = await vscode.workspace.fs.stat(uri).then((s) => s, () => undefined);
  if (stat?.type === vscode.FileType.Directory) {
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*.{yaml,yml,json}'), '**/node_modules/**', 500);
    return found.map((u) => u.toString()).sort();
  }
  return [uri.toString()];
}
