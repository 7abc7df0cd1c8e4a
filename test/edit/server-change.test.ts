import assert from 'node:assert/strict';
import { SECRET_MASK as VIEW_MASK } from '../../src/ui/object-yaml';
import { SECRET_MASK, editableText, objectToSave, serverChange, serverChangeText } from '../../src/edit';
import type { KubeObject } from '../../src/informer';

const base: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'u1', resourceVersion: '10', generation: 1, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'a' } },
  spec: { replicas: 2 },
  status: { readyReplicas: 2 },
};

describe('edit: the editable text and the notice of a change on the server', () => {
  it('the editor leaves out status and server metadata (a setting), and puts them back from the base when saving', () => {
    const { text } = editableText(base, { hideServerFields: true, revealSecrets: false });
    assert.equal(text, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  annotations:\n    team: a\nspec:\n  replicas: 2\n');
    const all = editableText(base, { hideServerFields: false, revealSecrets: false }).text;
    assert.match(all, /resourceVersion: '10'/);
    assert.match(all, /readyReplicas: 2/);
    const saved = objectToSave({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', annotations: { team: 'b' } }, spec: { replicas: 3 } }, base, { hideServerFields: true, revealSecrets: false, binaryKeys: [] });
    assert.deepEqual(saved, { ...base, metadata: { ...base.metadata, annotations: { team: 'b', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } }, spec: { replicas: 3 } });
  });

  it('masks Secret values with the live view’s mask', () => {
    assert.equal(SECRET_MASK, VIEW_MASK);
  });

  it('says what changed, how long ago and by whom; server fields alone are said as such', () => {
    const live: KubeObject = { ...base, metadata: { ...base.metadata, resourceVersion: '12', generation: 2 }, spec: { replicas: 5 }, status: { readyReplicas: 3 } };
    const managed: KubeObject = {
      ...live,
      metadata: {
        ...live.metadata,
        managedFields: [
          { manager: 'kubectl-client-side-apply', operation: 'Update', time: '2026-01-01T00:00:00Z', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
          { manager: 'kube-controller-manager', operation: 'Update', time: '2026-01-01T00:05:00Z', fieldsV1: { 'f:status': { 'f:readyReplicas': {} } } },
          { manager: 'horizontal-pod-autoscaler', operation: 'Update', time: '2026-01-01T00:04:00Z', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
        ],
      },
    };
    const change = serverChange(base, live, 1_000, managed);
    assert.deepEqual(change?.fields, [['spec', 'replicas']]);
    assert.equal(change?.manager, 'horizontal-pod-autoscaler');
    assert.equal(serverChangeText(change!, 13_000), 'Changed on the server 12 s ago by horizontal-pod-autoscaler: 1 field (spec.replicas)');
    const statusOnly = serverChange(base, { ...base, metadata: { ...base.metadata, resourceVersion: '11' }, status: { readyReplicas: 1 } }, 0);
    assert.equal(serverChangeText(statusOnly!, 180_000), 'Changed on the server 3 min ago: only server fields (status.readyReplicas)');
    assert.equal(serverChange(base, base, 0), undefined);
  });
});
