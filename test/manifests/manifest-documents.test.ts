import assert from 'node:assert/strict';
import { parseManifests, MAX_DOCUMENTS } from '../../src/manifests/manifest-documents';

describe('manifests: recognising Kubernetes documents', () => {
  it('finds each document of a multi-document YAML with its own lines and namespace', () => {
    const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: a', 'data: {x: "1"}', '---', 'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', '  namespace: shop', 'spec:', '  replicas: 2', ''].join('\n');
    const f = parseManifests(text);
    assert.equal(f.kind, 'manifests');
    if (f.kind !== 'manifests') return;
    assert.deepEqual(f.documents.map((d) => [d.kind, d.name, d.namespace, d.lines.start, d.lines.end]), [
      ['ConfigMap', 'a', undefined, 0, 4],
      ['Deployment', 'web', 'shop', 6, 12],
    ]);
    assert.equal(f.documents[1].textLine, 5); // its text starts at its `---`
    assert.deepEqual(f.problems, []);
  });

  it('expands a List into its items, each on its own lines; reads JSON', () => {
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { name: 'l' }, items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b' } }] }, null, 2);
    const f = parseManifests(json);
    assert.equal(f.kind, 'manifests');
    if (f.kind !== 'manifests') return;
    assert.deepEqual(f.documents.map((d) => `${d.kind}/${d.name}`), ['ConfigMap/a', 'Secret/b']);
    assert.ok(f.documents[1].lines.start > f.documents[0].lines.end);
  });

  it('a file that is not Kubernetes shows nothing', () => {
    assert.equal(parseManifests('name: my-app\nversion: 1.0\n').kind, 'not-kubernetes');
    assert.equal(parseManifests('{"compilerOptions": {"strict": true}}').kind, 'not-kubernetes');
    assert.equal(parseManifests('apiVersion: v1\nkind: Config\n').kind, 'manifests'); // kind without a name: one line says why
  });

  it('invalid YAML in a manifest is one clear line where it breaks, and the other documents stay', () => {
    const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: ok', '---', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: [broken', ''].join('\n');
    const f = parseManifests(text);
    assert.equal(f.kind, 'manifests');
    if (f.kind !== 'manifests') return;
    assert.deepEqual(f.documents.map((d) => d.name), ['ok']);
    assert.equal(f.problems.length, 1);
    assert.match(f.problems[0].message, /not valid YAML \(line \d+\)/);
    assert.ok(f.problems[0].lines.start >= 5);
  });

  it(`a file of more than ${MAX_DOCUMENTS} documents is one line, never compared`, () => {
    const doc = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n`;
    const text = Array.from({ length: 5000 }, (_, i) => doc(i)).join('---\n');
    const f = parseManifests(text);
    assert.equal(f.kind, 'manifests');
    if (f.kind !== 'manifests') return;
    assert.equal(f.documents.length, 0);
    assert.match(f.problems[0].message, /^5,000 documents: more than Kube Watch compares/);
  });
});

describe('manifests: kustomize', () => {
  it('reads the namespace a kustomization gives its resources', async () => {
    const { kustomizationNamespace, renderKustomization } = await import('../../src/manifests/kustomize');
    assert.equal(kustomizationNamespace('namespace: batch\nresources:\n- a.yaml\n'), 'batch');
    assert.equal(kustomizationNamespace('resources:\n- a.yaml\n'), undefined);
    const missing = await renderKustomization('/w', async () => ({ code: -2, stdout: '', stderr: '', notFound: true }));
    assert.deepEqual(missing, { kind: 'problem', message: 'kubectl is not on the PATH: this kustomization is not rendered, so its objects are not compared (install kubectl to see them).' });
    const failed = await renderKustomization('/w', async () => ({ code: 1, stdout: '', stderr: 'error: accumulating resources: open /w/x.yaml: no such file\n' }));
    assert.deepEqual(failed, { kind: 'problem', message: 'kubectl kustomize failed: accumulating resources: open /w/x.yaml: no such file' });
  });
});
