import assert from 'node:assert/strict';
import { pathText, resolveFieldPath } from '../../src/edit/field-path';
import { yamlLocations, yamlSyntaxProblem } from '../../src/edit/yaml-locations';
import { load } from 'js-yaml';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    spec:
      containers:
        - name: web
          image: nginx:1
        - name: side
          image: "envoy:1"
data:
  bad key: "1"
`;

describe('edit: YAML mapping (server field paths to the lines of the buffer)', () => {
  const obj = load(DEPLOYMENT);
  const at = yamlLocations(DEPLOYMENT);

  it('places map keys, scalar values and list items on their lines and columns (zero-based)', () => {
    assert.deepEqual(at.keyOf(['spec', 'replicas']), { line: 7, character: 2, endLine: 7, endCharacter: 10 });
    assert.deepEqual(at.valueOf(['spec', 'replicas']), { line: 7, character: 12, endLine: 7, endCharacter: 13 });
    assert.equal(at.keyOf(['spec', 'template', 'spec', 'containers', 1])?.line, 16);
    assert.deepEqual(at.valueOf(['spec', 'template', 'spec', 'containers', 1, 'image']), { line: 17, character: 18, endLine: 17, endCharacter: 25 });
  });

  it('resolves a 422 field (validation spelling) and places it: containers[0].image, data[bad key], metadata.labels', () => {
    const image = resolveFieldPath('spec.template.spec.containers[0].image', obj);
    assert.deepEqual(image, { path: ['spec', 'template', 'spec', 'containers', 0, 'image'], complete: true });
    assert.equal(at.rangeFor(image.path).line, 15);
    const key = resolveFieldPath('data[bad key]', obj);
    assert.deepEqual(key.path, ['data', 'bad key']);
    assert.equal(at.rangeFor(key.path).line, 19);
    assert.equal(at.rangeFor(resolveFieldPath('metadata.labels', obj).path).line, 4);
  });

  it('resolves a server-side apply field: a leading dot, list items by name, map keys holding dots', () => {
    assert.deepEqual(resolveFieldPath('.spec.template.spec.containers[name="side"].image', obj).path, ['spec', 'template', 'spec', 'containers', 1, 'image']);
    assert.deepEqual(resolveFieldPath('.metadata.labels.app.kubernetes.io/name', obj), { path: ['metadata', 'labels', 'app.kubernetes.io/name'], complete: true });
  });

  it('a field the text leaves out lands on the nearest enclosing field; unknown paths stop where they stop', () => {
    const missing = resolveFieldPath('spec.strategy.rollingUpdate', obj);
    assert.deepEqual(missing, { path: ['spec'], complete: false });
    assert.equal(at.rangeFor(['spec', 'strategy']).line, 6);
    assert.equal(at.rangeFor(['nothing']).line, 0);
  });

  it('pathText reads as the server writes it', () => {
    assert.equal(pathText(['spec', 'template', 'spec', 'containers', 0, 'image']), 'spec.template.spec.containers[0].image');
    assert.equal(pathText(['metadata', 'labels', 'app.kubernetes.io/name']), 'metadata.labels[app.kubernetes.io/name]');
    assert.equal(pathText(['data', 'bad key']), 'data[bad key]');
  });

  it('a YAML syntax error names its line and column', () => {
    assert.deepEqual(yamlSyntaxProblem('a: 1\n b: 2\n'), { message: 'YAML: bad indentation of a mapping entry (line 2, column 3)', range: { line: 1, character: 2, endLine: 1, endCharacter: 3 } });
    assert.equal(yamlSyntaxProblem(DEPLOYMENT), undefined);
  });
});
