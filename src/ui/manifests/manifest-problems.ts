import type { BufferProblem } from '../../edit';
import type { FileView } from '../../manifests/manifest-engine';
import { documentLabel } from '../../manifests/manifest-documents';

/**
 * What a manifest file puts in the Problems panel: each document's dry-run problems on its own
 * lines. A kustomization's objects are rendered, not written in the file shown (their lines are
 * the render's): their problems go on the kustomization's first line, each naming its resource.
 */
export function fileProblems(view: FileView): BufferProblem[] {
  if (!view.rendered) return view.documents.flatMap((d) => d.problems);
  const firstLine = { line: 0, character: 0, endLine: 0, endCharacter: Number.MAX_SAFE_INTEGER };
  return view.documents.flatMap((d) => {
    const label = documentLabel(d.doc, d.target?.namespace ?? d.doc.namespace);
    return d.problems.map((p) => ({ message: `${label}: ${p.message}`, range: firstLine, ...(p.path ? { path: p.path } : {}) }));
  });
}
