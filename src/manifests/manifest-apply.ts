import { ApiError, describeError, fieldManager } from '../base';
import { applyConflictsOf, conflictLines, type ApplyConflict } from '../edit';
import type { KubeObject } from '../informer';
import { configurationOf, objectPathOf } from './dry-run';
import type { ManifestCluster } from './manifest-cluster';
import { documentLabel } from './manifest-documents';
import type { DocumentView } from './manifest-engine';

/**
 * Server-side apply of manifest documents (a document, a file, a folder), pinned to the cluster
 * each was compared on (its lens's origin: never another context, W01), each carrying the uid of
 * the live object it was compared with (W02: a re-created object is refused, not overwritten).
 * Namespaces go first, then CustomResourceDefinitions, then the rest, so a file that creates its
 * namespace applies in one go. Each document has its own result; a field-manager conflict is
 * explained in the edit's words and taken only when the user confirmed forcing.
 */

export interface ApplyResult {
  readonly what: string;
  readonly view: DocumentView;
  readonly outcome: 'applied' | 'conflicts' | 'refused';
  readonly message: string;
  /** What the server returned (its resourceVersion is what the watch must show to confirm it). */
  readonly object?: KubeObject;
  readonly conflicts?: readonly ApplyConflict[];
}

const ORDER: Record<string, number> = { Namespace: 0, CustomResourceDefinition: 1 };

/** Namespaces, then CRDs, then the rest in their order. */
export function applyOrder(views: readonly DocumentView[]): DocumentView[] {
  return views.map((v, i) => ({ v, i })).sort((a, b) => (ORDER[a.v.doc.kind] ?? 2) - (ORDER[b.v.doc.kind] ?? 2) || a.i - b.i).map(({ v }) => v);
}

/** Applies `views` in order (see the file comment). `force`: take the conflicts the user confirmed. */
export async function applyDocuments(cluster: ManifestCluster, views: readonly DocumentView[], force: boolean, signal: AbortSignal): Promise<ApplyResult[]> {
  const results: ApplyResult[] = [];
  for (const view of applyOrder(views)) {
    const what = documentLabel(view.doc, view.target?.namespace);
    if (!view.target || !view.origin) {
      results.push({ what, view, outcome: 'refused', message: `${what} was not compared with the cluster yet (${view.state.kind}): nothing was sent.` });
      continue;
    }
    const body = JSON.stringify(configurationOf(view.doc, view.target, view.live));
    try {
      const object = await cluster.write<KubeObject>(view.origin, { method: 'PATCH', path: objectPathOf(view.target), query: { fieldManager: fieldManager(), fieldValidation: 'Strict', ...(force ? { force: 'true' } : {}) }, body, contentType: 'application/apply-patch+yaml' }, signal);
      results.push({ what, view, outcome: 'applied', message: `${what}: applied on ${view.origin.context}, waiting for the watch to show it.`, object });
    } catch (err) {
      const conflicts = applyConflictsOf(err, view.doc.object);
      if (conflicts) {
        results.push({ what, view, outcome: 'conflicts', message: `${what}: not applied. ${conflictLines(conflicts, fieldManager()).join(' ')}`, conflicts });
        continue;
      }
      results.push({ what, view, outcome: 'refused', message: `${what}: not applied: ${refusal(err)}` });
    }
  }
  return results;
}

/** Deletes the live object of `view` on the cluster it was compared on, only if it is still the same object (its uid). */
export async function deleteManifestDocument(cluster: ManifestCluster, view: DocumentView, signal: AbortSignal): Promise<string> {
  const what = documentLabel(view.doc, view.target?.namespace);
  if (!view.target || !view.origin || !view.live?.metadata.uid) return `${what} is not on the cluster as far as the watch shows: nothing was deleted.`;
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: view.live.metadata.uid } });
  try {
    await cluster.write(view.origin, { method: 'DELETE', path: objectPathOf(view.target), body }, signal);
    return `${what}: deleted on ${view.origin.context}.`;
  } catch (err) {
    return `${what}: not deleted: ${refusal(err)}`;
  }
}

function refusal(err: unknown): string {
  if (err instanceof ApiError && err.code === 409 && /uid/i.test(err.message)) return 'the object on the cluster is another one (re-created since it was compared); compare again.';
  if (err instanceof ApiError && err.code === 404) return 'it is no longer on the cluster.';
  return describeError(err);
}
