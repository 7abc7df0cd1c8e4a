import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { summarizeChange } from '../../src/history';

function deployment(replicas: number, available: number, rv: string, extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: rv, generation: replicas, labels: { app: 'web' }, managedFields: [{ manager: rv }] },
    spec: { replicas, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
    status: {
      observedGeneration: replicas,
      replicas,
      availableReplicas: available,
      conditions: [
        { type: 'Available', status: 'True', lastUpdateTime: `t${rv}`, lastTransitionTime: 't0' },
        { type: 'Progressing', status: 'True', lastUpdateTime: `t${rv}`, lastTransitionTime: 't0' },
      ],
    },
    ...extra,
  };
}

describe('change summaries', () => {
  it('name spec.replicas with its values, and leave out resourceVersion, managedFields, generation and heartbeats', () => {
    const s = summarizeChange(deployment(3, 3, '10'), deployment(5, 3, '11'));
    assert.deepEqual(
      s.changes.map((c) => c.path),
      ['spec.replicas', 'status.observedGeneration', 'status.replicas'],
    );
    assert.equal(s.text, 'spec.replicas 3 → 5, status.observedGeneration 3 → 5, status.replicas 3 → 5');
    assert.deepEqual(
      s.heartbeats.map((c) => c.path),
      ['status.conditions[Available].lastUpdateTime', 'status.conditions[Progressing].lastUpdateTime'],
    );
    assert.equal(s.heartbeatOnly, false);
  });

  it('summarise a heartbeat-only change as such', () => {
    const a = deployment(3, 3, '10');
    const b = deployment(3, 3, '11');
    const s = summarizeChange(a, b);
    assert.equal(s.heartbeatOnly, true);
    assert.deepEqual(s.changes, []);
    assert.equal(s.text, 'heartbeat only: lastUpdateTime');
    assert.equal(summarizeChange(a, b, { includeHeartbeats: true }).changes.length, 2);
  });

  it('report a resourceVersion-only change', () => {
    const a = deployment(3, 3, '10');
    const b = structuredClone(a);
    b.metadata.resourceVersion = '12';
    assert.equal(summarizeChange(a, b).text, 'no field changed (resourceVersion only)');
  });

  it('match conditions by type and containers by name, and mark added and removed fields', () => {
    const a = deployment(3, 3, '10');
    const b = structuredClone(a) as KubeObject & { spec: any; status: any };
    b.metadata.labels = { tier: 'front' };
    b.spec.template.spec.containers.unshift({ name: 'sidecar', image: 'envoy' });
    b.spec.template.spec.containers[1].image = 'nginx:1.28';
    b.status.conditions.reverse();
    b.status.conditions[0].status = 'False';
    const s = summarizeChange(a, b);
    assert.deepEqual(
      s.changes.map((c) => `${c.kind} ${c.path}`),
      [
        'added metadata.labels.tier',
        'removed metadata.labels.app',
        'added spec.template.spec.containers[sidecar]',
        'changed spec.template.spec.containers[web].image',
        'changed status.conditions[Progressing].status',
      ],
    );
    assert.match(s.text, /^\+metadata\.labels\.tier, -metadata\.labels\.app, \+spec\.template\.spec\.containers\[sidecar\], spec\.template\.spec\.containers\[web\]\.image nginx:1\.27 → nginx:1\.28 and 1 more$/);
  });

  it('bracket keys that are not identifiers, and never show Secret values', () => {
    const a: KubeObject = { kind: 'Secret', metadata: { name: 's', resourceVersion: '1', annotations: { 'app.kubernetes.io/name': 'a' } }, data: { password: 'aHVudGVyMg==' } };
    const b: KubeObject = { kind: 'Secret', metadata: { name: 's', resourceVersion: '2', annotations: { 'app.kubernetes.io/name': 'b' } }, data: { password: 'c2VjcmV0' } };
    const s = summarizeChange(a, b);
    assert.equal(s.text, 'metadata.annotations[app.kubernetes.io/name] a → b, data.password');
    assert.ok(!s.text.includes('c2VjcmV0'));
  });
});
