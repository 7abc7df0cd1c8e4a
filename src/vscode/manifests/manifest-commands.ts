import * as vscode from 'vscode';
import type { ManifestCluster } from '../../manifests/manifest-cluster';
import { applyDocuments, deleteManifestDocument, type ApplyResult } from '../../manifests/manifest-apply';
import type { DocumentView, ManifestEngine } from '../../manifests/manifest-engine';
import { documentLabel } from '../../manifests/manifest-documents';

/**
 * Apply and Delete from Cluster for manifests (thin): a modal confirmation that names the context
 * (the one the lenses compared with: the writes are pinned to it), one result line per document,
 * "applied" only once the watch shows the written version.
 */

/** How long "applied" waits for the watch before it says "written, not yet seen". */
const CONFIRM_MS = 15_000;

export async function applyManifests(engine: ManifestEngine, cluster: ManifestCluster, uris: readonly string[], key?: string): Promise<void> {
  const views = uris.flatMap((u) => (engine.view(u)?.documents ?? []).filter((d) => !key || d.doc.key === key).map((view) => ({ uri: u, view })));
  if (views.length === 0) return void vscode.window.showInformationMessage('Kube Watch: no Kubernetes documents to apply here.');
  const contexts = [...new Set(views.map(({ view }) => view.origin?.context).filter((c): c is string => Boolean(c)))];
  if (contexts.length !== 1) return void vscode.window.showWarningMessage(`Kube Watch: ${contexts.length === 0 ? 'these documents were not compared with a cluster yet' : `these documents were compared on several contexts (${contexts.join(', ')})`}: nothing was applied. Wait for their lenses, then apply again.`);
  const names = views.slice(0, 5).map(({ view }) => documentLabel(view.doc, view.target?.namespace));
  const more = views.length > 5 ? ` and ${views.length - 5} more` : '';
  const choice = await vscode.window.showWarningMessage(`Apply ${views.length === 1 ? names[0] : `${views.length} documents (${names.join(', ')}${more})`} to context "${contexts[0]}" (server ${views[0].view.origin?.server ?? ''})?`, { modal: true, detail: 'Server-side apply as Kube Watch\'s field manager; Namespaces and CustomResourceDefinitions first.' }, 'Apply');
  if (choice !== 'Apply') return;
  let results = await applyDocuments(cluster, views.map((v) => v.view), false, new AbortController().signal);
  const conflicted = results.filter((r) => r.outcome === 'conflicts');
  if (conflicted.length > 0) {
    const force = await vscode.window.showWarningMessage(conflicted.map((r) => r.message).join('\n'), { modal: true }, 'Apply, taking these fields');
    if (force) {
      const again = await applyDocuments(cluster, conflicted.map((r) => r.view), true, new AbortController().signal);
      results = results.map((r) => again.find((a) => a.view === r.view) ?? r);
    }
  }
  await report(engine, views, results);
}

/** One line per document; the applied ones once the watch shows them. */
async function report(engine: ManifestEngine, views: readonly { uri: string; view: DocumentView }[], results: readonly ApplyResult[]): Promise<void> {
  const lines = await Promise.all(results.map(async (r) => {
    if (r.outcome !== 'applied') return r.message;
    const uri = views.find((v) => v.view === r.view)?.uri ?? '';
    const seen = await seenByWatch(engine, uri, r.view.doc.key, r.object?.metadata.resourceVersion ?? '');
    return seen ? `${r.what}: applied, confirmed by the watch.` : `${r.what}: written (rv ${r.object?.metadata.resourceVersion ?? '?'}), not yet seen by the watch.`;
  }));
  const failed = results.some((r) => r.outcome !== 'applied');
  const text = `Kube Watch: ${lines.join(' ')}`;
  if (failed) void vscode.window.showWarningMessage(text);
  else void vscode.window.showInformationMessage(text);
}

function seenByWatch(engine: ManifestEngine, uri: string, key: string, resourceVersion: string): Promise<boolean> {
  const seen = () => engine.view(uri)?.documents.find((d) => d.doc.key === key)?.live?.metadata.resourceVersion === resourceVersion;
  if (seen()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const sub = engine.onDidChange((u) => u === uri && seen() && done(true));
    const timer = setTimeout(() => done(false), CONFIRM_MS);
    function done(v: boolean) {
      sub.dispose();
      clearTimeout(timer);
      resolve(v);
    }
  });
}

export async function deleteManifest(cluster: ManifestCluster, view: DocumentView): Promise<void> {
  const what = documentLabel(view.doc, view.target?.namespace);
  if (!view.live || !view.origin) return void vscode.window.showInformationMessage(`Kube Watch: ${what} is not on the cluster as the watch shows it: nothing to delete.`);
  const choice = await vscode.window.showWarningMessage(`Delete ${what} from context "${view.origin.context}" (server ${view.origin.server})?`, { modal: true, detail: 'The file stays as it is.' }, 'Delete from Cluster');
  if (choice !== 'Delete from Cluster') return;
  void vscode.window.showInformationMessage(`Kube Watch: ${await deleteManifestDocument(cluster, view, new AbortController().signal)}`);
}
