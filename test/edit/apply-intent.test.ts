import assert from 'node:assert/strict';
import { objectMergeShape } from '../../src/edit/merge-keys/object-merge-shape';
import { listKeysOf } from '../../src/edit/merge-keys/shape-list-keys';
import { applyIntent, conflictLines, unconfirmedConflicts, userChanges, type IntentInput, type ListKeys } from '../../src/edit';

const meta = { name: 'web', namespace: 'shop', uid: 'u-1', resourceVersion: '7' };
const deployment = (env: { name: string; value: string }[], image = 'nginx:1', labels: Record<string, string> = { app: 'web' }) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { ...meta, labels },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image, env, ports: [{ containerPort: 80 }] }, { name: 'sidecar', image: 'envoy:1' }] } } },
});
const input = (base: Record<string, unknown>, ours: Record<string, unknown>, live: Record<string, unknown> = base, more: Partial<IntentInput> = {}): IntentInput => ({ base, ours, live, manager: 'kube-watch', apiVersion: 'apps/v1', kind: 'Deployment', ...more });
const withManagers = (obj: Record<string, unknown>, managedFields: unknown[]) => ({ ...obj, metadata: { ...(obj.metadata as object), managedFields } });

describe('edit: the intent of a server-side apply (only what the user changed)', () => {
  it('a changed env var is applied alone, inside its container named by its merge key: not the image, not the other container, not the ports', () => {
    const base = deployment([{ name: 'LOG', value: 'info' }, { name: 'MODE', value: 'a' }]);
    const ours = deployment([{ name: 'LOG', value: 'debug' }, { name: 'MODE', value: 'a' }]);
    const out = applyIntent(input(base, ours));
    assert.deepEqual(out.configuration, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', uid: 'u-1' },
      spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'LOG', value: 'debug' }] }] } } },
    });
    assert.deepEqual(out.changed, [['spec', 'template', 'spec', 'containers', { keys: { name: 'web' } }, 'env', { keys: { name: 'LOG' } }, 'value']]);
  });

  it('a new item is applied whole; an atomic list (no merge key) whole; server fields, status and identity never', () => {
    const base = deployment([{ name: 'LOG', value: 'info' }]);
    const ours = deployment([{ name: 'LOG', value: 'info' }, { name: 'NEW', value: '1' }]);
    (ours.spec.template.spec.containers[0].ports as unknown[]) = [{ containerPort: 8080 }];
    const changes = userChanges({ ...base, status: { a: 1 } }, { ...ours, status: { a: 2 }, metadata: { ...ours.metadata, resourceVersion: '9' } });
    assert.deepEqual(changes.set, [
      ['spec', 'template', 'spec', 'containers', { keys: { name: 'web' } }, 'env', { keys: { name: 'NEW' } }],
      ['spec', 'template', 'spec', 'containers', { keys: { name: 'web' } }, 'ports'],
    ]);
  });

  it('the merge-key seam: a table keying ports by containerPort applies the port item alone', () => {
    const keys: ListKeys = (path, items) => (path.join('.') === 'spec.template.spec.containers.*.ports' ? ['containerPort'] : items.every((i) => typeof (i as { name?: unknown }).name === 'string') ? ['name'] : undefined);
    const base = deployment([]);
    const ours = deployment([]);
    (ours.spec.template.spec.containers[0].ports as unknown[]) = [{ containerPort: 80, hostPort: 8080 }];
    const out = applyIntent(input(base, ours, base, { listKeys: keys }));
    assert.deepEqual((out.configuration.spec as { template: unknown }).template, { spec: { containers: [{ name: 'web', ports: [{ containerPort: 80, hostPort: 8080 }] }] } });
  });

  it('W06 the keys of the type itself (the merge shape the merge follows): a Deployment\'s container port is named by containerPort and protocol, a custom resource\'s unkeyed list is sent whole', () => {
    const keys = listKeysOf(objectMergeShape('apps/v1', 'Deployment'));
    assert.deepEqual(keys(['spec', 'template', 'spec', 'containers'], []), ['name']);
    assert.deepEqual(keys(['spec', 'template', 'spec', 'containers', '*', 'ports'], []), ['containerPort', 'protocol']);
    assert.deepEqual(keys(['spec', 'template', 'spec', 'containers', '*', 'env'], []), ['name']);
    assert.equal(keys(['spec', 'template', 'spec', 'containers', '*', 'args'], []), undefined, 'atomic: whole');
    assert.deepEqual(keys(['metadata', 'ownerReferences'], []), ['uid']);
    assert.equal(listKeysOf(objectMergeShape('example.com/v1', 'Widget'))(['spec', 'items'], []), undefined);
    const base = deployment([]);
    const ours = deployment([]);
    (ours.spec.template.spec.containers[0].ports as unknown[]) = [{ containerPort: 80, protocol: 'TCP', name: 'http' }];
    const out = applyIntent(input(base, ours, base, { listKeys: keys }));
    assert.deepEqual((out.configuration.spec as { template: unknown }).template, { spec: { containers: [{ name: 'web', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] } });
  });

  it('what this manager applied before stays in the configuration with its live value (else the server would remove it); removed by the user, it is left out', () => {
    const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { A: '1', B: '2', C: '3' } };
    const mine = { manager: 'kube-watch', operation: 'Apply', fieldsV1: { 'f:data': { 'f:A': {}, 'f:B': {} } } };
    const theirs = { manager: 'ci', operation: 'Apply', fieldsV1: { 'f:data': { 'f:C': {} } } };
    const live = withManagers(base, [mine, theirs]);
    const ours = { ...base, data: { A: '1', C: 'x' } };
    const out = applyIntent({ ...input(base, ours, live), apiVersion: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(out.configuration.data, { A: '1', C: 'x' });
    assert.deepEqual(out.removed, [['data', 'B']], 'B: only kube-watch applied it, so leaving it out removes it');
  });

  it('a removal another manager owns cannot happen by server-side apply: kept, naming the managers', () => {
    const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...meta, labels: { app: 'web', tier: 'a' } }, data: { A: '1' } };
    const live = withManagers(base, [{ manager: 'helm', operation: 'Update', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:tier': {} } } } }]);
    const ours = { ...base, metadata: { ...meta, labels: { app: 'web' } } };
    const out = applyIntent({ ...input(base, ours, live), apiVersion: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(out.kept, [{ path: ['metadata', 'labels', 'tier'], field: ['metadata', 'labels', 'tier'], managers: ['helm'] }]);
    assert.deepEqual(out.removed, []);
    assert.equal((out.configuration.metadata as { labels?: unknown }).labels, undefined);
  });

  it('W07: a stale buffer: an untouched label the server removed is not applied; a changed one is re-added only when asked', () => {
    const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...meta, labels: { app: 'web', tier: 'a', team: 'x' } }, data: { A: '1' } };
    const live = { ...base, metadata: { ...meta, resourceVersion: '8', labels: { app: 'web' } } };
    const ours = { ...base, metadata: { ...meta, labels: { app: 'web', tier: 'a', team: 'y' } }, data: { A: '2' } };
    const out = applyIntent({ ...input(base, ours, live), apiVersion: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(out.configuration, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'shop', uid: 'u-1' }, data: { A: '2' } });
    assert.deepEqual(out.reAdded, [{ path: ['metadata', 'labels', 'team'], field: ['metadata', 'labels', 'team'] }]);
    const again = applyIntent({ ...input(base, ours, live), apiVersion: 'v1', kind: 'ConfigMap', reAdd: true });
    assert.deepEqual((again.configuration.metadata as { labels?: unknown }).labels, { team: 'y' });
  });

  it('W07: an env var the server removed, changed in a stale buffer: named as re-added by its item', () => {
    const base = deployment([{ name: 'LOG', value: 'info' }, { name: 'OLD', value: '1' }]);
    const live = deployment([{ name: 'LOG', value: 'info' }]);
    const ours = deployment([{ name: 'LOG', value: 'info' }, { name: 'OLD', value: '2' }]);
    const out = applyIntent(input(base, ours, live));
    assert.deepEqual(out.reAdded.map((r) => r.field), [['spec', 'template', 'spec', 'containers', 0, 'env', 1]]);
    assert.equal(out.configuration.spec, undefined);
  });

  it('repeated keys make a list one value (never a guess which item is which)', () => {
    const base = deployment([{ name: 'A', value: '1' }, { name: 'A', value: '2' }]);
    const ours = deployment([{ name: 'A', value: '1' }, { name: 'A', value: '3' }]);
    assert.deepEqual(userChanges(base, ours).set, [['spec', 'template', 'spec', 'containers', { keys: { name: 'web' } }, 'env']]);
  });
});

describe('edit: server-side apply conflicts in words', () => {
  it("a field the same manager last wrote as an update (kube-apiserver counts it apart from its applies) is said as such; another manager's as before", () => {
    const lines = conflictLines([{ field: '.data.A', manager: 'kube-watch', path: ['data', 'A'] }, { field: '.data.B', manager: 'ci', path: ['data', 'B'] }], 'kube-watch');
    assert.deepEqual(lines, [
      'data.A was last written by kube-watch as an update (a save or an action), which server-side apply counts as another manager: forcing the apply makes its apply own it.',
      'data.B is managed by ci: forcing the apply makes Kube Watch their manager and takes it from ci.',
    ]);
  });

  it('force covers the confirmed conflicts only: one on another field or by another manager is unconfirmed', () => {
    const confirmed = [{ field: '.data.A', manager: 'ci' }];
    assert.deepEqual(unconfirmedConflicts([{ field: '.data.A', manager: 'ci' }], confirmed), []);
    assert.deepEqual(unconfirmedConflicts([{ field: '.data.A', manager: 'helm' }, { field: '.data.B', manager: 'ci' }], confirmed), [{ field: '.data.A', manager: 'helm' }, { field: '.data.B', manager: 'ci' }]);
  });
});
