import assert from 'node:assert/strict';
import { driftFields, differingFields } from '../../src/manifests/drift';

describe('manifests: drift between the live object and the dry-run result', () => {
  const live = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', uid: 'u1', resourceVersion: '5', generation: 2, managedFields: [{ manager: 'kubectl' }] },
    spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'nginx:1', imagePullPolicy: 'IfNotPresent' }, { name: 'side', image: 'busybox' }] } } },
    status: { readyReplicas: 3 },
  };
  it('server-owned and per-write fields are never drift', () => {
    const result = { ...live, metadata: { ...live.metadata, resourceVersion: '6', generation: 3, managedFields: [] }, status: {} };
    assert.deepEqual(driftFields(live, result), []);
  });
  it('names the fields that differ, containers by name', () => {
    const result = structuredClone(live);
    result.spec.replicas = 2;
    result.spec.template.spec.containers[0].image = 'nginx:2';
    assert.deepEqual(driftFields(live, result), ['spec.replicas', 'spec.template.spec.containers[web].image']);
  });
  it('a list of unnamed items that changed length is one field', () => {
    assert.deepEqual(differingFields({ a: [1, 2] }, { a: [1, 2, 3] }), ['a']);
  });
});

describe('manifests: unknown fields of a dry run on their lines', () => {
  it('reads kube-apiserver 1.34\'s apply refusal and the strict decoding error', async () => {
    const { ApiError } = await import('../../src/base');
    const { strictProblems } = await import('../../src/manifests/dry-run');
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  replicaz: 3\n';
    const object = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, replicaz: 3 } };
    const err = new ApiError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500, reason: 'InternalError', message: 'failed to create typed patch object (shop/web; apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema' } as never, 'http');
    const problems = strictProblems(err, { text, object });
    assert.equal(problems.length, 1);
    assert.equal(problems[0].range.line, 6);
    assert.match(problems[0].message, /^spec\.replicaz: unknown field/);
  });
});

describe('manifests: a Secret\'s diff', () => {
  it('masks its values as kubectl diff does, saying which differ', async () => {
    const { maskedSecretSides } = await import('../../src/manifests/drift');
    const [before, after] = maskedSecretSides({ kind: 'Secret', data: { a: 'eA==', b: 'eQ==' } }, { kind: 'Secret', data: { a: 'eA==', b: 'eg==' } });
    assert.deepEqual(before.data, { a: '***', b: '*** (before)' });
    assert.deepEqual(after.data, { a: '***', b: '*** (after)' });
  });
});
