import assert from 'node:assert/strict';
import { Store, type StoreListener } from '../../src/informer/store';
import type { KubeObject } from '../../src/informer/kube-object';

function obj(name: string, uid: string, rv: string, namespace = 'default'): KubeObject {
  return { metadata: { name, namespace, uid, resourceVersion: rv } };
}

function recordingStore(): { store: Store; log: string[] } {
  const log: string[] = [];
  const listener: StoreListener = {
    add: (o) => log.push(`add ${o.metadata.name} ${o.metadata.uid}`),
    update: (a, b) => log.push(`update ${b.metadata.name} ${a.metadata.resourceVersion}->${b.metadata.resourceVersion}`),
    delete: (o, unknown) => log.push(`delete ${o.metadata.name} ${o.metadata.uid}${unknown ? ' unknown' : ''}`),
  };
  return { store: new Store(listener), log };
}

describe('Store', () => {
  it('replace reports adds, updates, uid changes and vanished objects', () => {
    const { store, log } = recordingStore();
    store.replace([obj('a', 'u1', '1'), obj('b', 'u2', '2'), obj('c', 'u3', '3')]);
    log.length = 0;
    store.replace([obj('a', 'u1', '1'), obj('b', 'u2', '5'), obj('c', 'u9', '6'), obj('d', 'u4', '7')]);
    assert.deepEqual(log, ['update b 2->5', 'delete c u3 unknown', 'add c u9', 'add d u4']);
    store.replace([obj('d', 'u4', '7')]);
    assert.deepEqual(log.slice(4), ['delete a u1 unknown', 'delete b u2 unknown', 'delete c u9 unknown']);
    assert.equal(store.size, 1);
  });

  it('upsert of a new uid under a known name is a delete then an add, never an update', () => {
    const { store, log } = recordingStore();
    store.upsert(obj('a', 'u1', '1'));
    store.upsert(obj('a', 'u2', '2'));
    assert.deepEqual(log, ['add a u1', 'delete a u1 unknown', 'add a u2']);
  });

  it('remove ignores unknown keys and reports the final state', () => {
    const { store, log } = recordingStore();
    store.remove(obj('x', 'u1', '1'));
    store.upsert(obj('a', 'u1', '1'));
    store.remove(obj('a', 'u1', '3'));
    assert.deepEqual(log, ['add a u1', 'delete a u1']);
    assert.equal(store.size, 0);
  });

  it('keeps cluster-scoped objects keyed by name alone', () => {
    const { store } = recordingStore();
    store.upsert({ metadata: { name: 'node-1', uid: 'n1', resourceVersion: '1' } });
    assert.ok(store.get('node-1'));
  });
});
