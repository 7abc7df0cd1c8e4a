import assert from 'node:assert/strict';
import type { DocumentView, FileView } from '../../src/manifests/manifest-engine';
import type { ManifestDocument } from '../../src/manifests/manifest-documents';
import { fileProblems } from '../../src/ui/manifests/manifest-problems';

const doc = (kind: string, name: string, start: number, namespace?: string): ManifestDocument => ({
  key: String(start), lines: { start, end: start + 5 }, apiVersion: 'v1', kind, name, ...(namespace ? { namespace } : {}), object: {}, text: '', textLine: start,
});
const problem = (line: number, message: string) => ({ message, range: { line, character: 2, endLine: line, endCharacter: 10 } });
const view = (rendered: boolean, documents: DocumentView[]): FileView => ({ rendered, parsed: { kind: 'manifests', documents: documents.map((d) => d.doc), problems: [] }, documents, problems: [] });
const invalid = { kind: 'invalid', context: 'prod', message: 'x' } as const;

describe("manifests: what a file puts in the Problems panel", () => {
  it("a file's own documents: each problem on its own line, as the dry run placed it", () => {
    const v = view(false, [{ doc: doc('Deployment', 'web', 0), state: invalid, problems: [problem(7, 'spec.replicas: Invalid value: -1')] }]);
    assert.deepEqual(fileProblems(v), [problem(7, 'spec.replicas: Invalid value: -1')]);
  });

  it("a kustomization's rendered objects: on the kustomization's first line, each naming its resource", () => {
    const v = view(true, [
      { doc: doc('Deployment', 'web', 0), state: invalid, problems: [problem(12, 'spec.replicas: Invalid value: -1')], target: { spec: '', type: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true }, namespace: 'shop', name: 'web' } },
      { doc: doc('ConfigMap', 'settings', 20, 'shop'), state: { kind: 'in-sync', context: 'prod' }, problems: [] },
      { doc: doc('Service', 'web', 30, 'shop'), state: invalid, problems: [problem(33, 'unknown field "spec.portz"')] },
    ]);
    const got = fileProblems(v);
    assert.deepEqual(got.map((p) => p.message), ['Deployment shop/web: spec.replicas: Invalid value: -1', 'Service shop/web: unknown field "spec.portz"']);
    for (const p of got) assert.equal(p.range.line, 0);
  });
});
