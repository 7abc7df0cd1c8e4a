import assert from 'node:assert/strict';
import { load } from 'js-yaml';
import type { KubeObject } from '../../src/informer';
import { SECRET_MASK, objectYaml } from '../../src/ui/object-yaml';

function secret(): KubeObject {
  return {
    metadata: {
      name: 'db',
      namespace: 'default',
      resourceVersion: '7',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}', team: 'x' },
      managedFields: [{ manager: 'kubectl' }],
    },
    type: 'Opaque',
    data: { password: 'aHVudGVyMg==', user: 'YWRtaW4=' },
    stringData: { token: 'plain' },
  };
}

describe('objectYaml', () => {
  it('masks every Secret value (keys stay) and the last-applied copy, unless revealed', () => {
    const obj = secret();
    const before = JSON.stringify(obj);
    const masked = objectYaml(obj, { kind: 'Secret', apiVersion: 'v1' });
    assert.ok(!masked.includes('aHVudGVyMg=='), masked);
    assert.ok(!masked.includes('YWRtaW4='), masked);
    assert.ok(!masked.includes('plain'), masked);
    const parsed = load(masked) as KubeObject & { data: Record<string, string>; stringData: Record<string, string> };
    assert.deepEqual(parsed.data, { password: SECRET_MASK, user: SECRET_MASK });
    assert.deepEqual(parsed.stringData, { token: SECRET_MASK });
    assert.equal(parsed.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'], SECRET_MASK);
    assert.equal(parsed.metadata.annotations?.team, 'x');
    assert.equal(JSON.stringify(obj), before, 'the cached object is not touched');

    const revealed = load(objectYaml(obj, { kind: 'Secret', revealSecrets: true })) as { data: Record<string, string> };
    assert.deepEqual(revealed.data, { password: 'aHVudGVyMg==', user: 'YWRtaW4=' });
  });

  it('puts apiVersion, kind and metadata first, keeps every other field, drops managedFields', () => {
    const obj: KubeObject = {
      metadata: { name: 'c', namespace: 'default', resourceVersion: '3', managedFields: [{ manager: 'x' }], custom: 1 },
      data: { 'app.conf': 'a: 1\nb: 2\n', yes: 'no', number: '0123' },
      extra: { deep: [1, { x: null }] },
    };
    const text = objectYaml(obj, { kind: 'ConfigMap', apiVersion: 'v1' });
    assert.ok(text.startsWith('apiVersion: v1\nkind: ConfigMap\nmetadata:\n'), text);
    assert.ok(!text.includes('managedFields'));
    const parsed = load(text) as Record<string, unknown>;
    assert.deepEqual(parsed, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', resourceVersion: '3', custom: 1 }, data: obj.data, extra: obj.extra });
    assert.ok(text.includes('app.conf: |'), 'multi-line values as block literals');
  });

  it("prefers the object's own kind and apiVersion, and writes comment lines first", () => {
    const obj: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', resourceVersion: '1' } };
    const text = objectYaml(obj, { kind: 'Other', apiVersion: 'v9', comments: ['deleted at 2026-01-01T00:00:00.000Z (last known state)'] });
    assert.ok(text.startsWith('# deleted at 2026-01-01T00:00:00.000Z (last known state)\napiVersion: example.com/v1\nkind: Widget\n'), text);
  });

  it('does not mask a ConfigMap that has a data field', () => {
    const text = objectYaml({ metadata: { name: 'c', resourceVersion: '1' }, data: { k: 'v' } }, { kind: 'ConfigMap' });
    assert.ok(text.includes('k: v'));
  });
});
