import assert from 'node:assert/strict';
import { EventsStore, recordBytes, type EventRecord } from '../../src/events';

function event(uid: string, lastSeen: number, extra: Partial<EventRecord> = {}): EventRecord {
  return { uid, namespace: 'shop', name: uid, type: 'Normal', reason: 'Pulled', message: 'x'.repeat(100), count: 1, firstSeen: lastSeen, lastSeen, reporter: 'kubelet', subject: { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'p' }, api: 'v1', ...extra };
}

describe('events: the store keeps events for the session within a memory bound', () => {
  it('keeps a deleted event (the server TTL), marked deleted', () => {
    const store = new EventsStore();
    store.put(event('a', 1000));
    store.markDeleted('a');
    assert.equal(store.size, 1);
    assert.equal(store.get('a')?.deleted, true);
  });

  it('an update replaces the record and its bytes', () => {
    const store = new EventsStore();
    store.put(event('a', 1000));
    const before = store.bytes;
    store.put(event('a', 2000, { count: 5, message: 'y'.repeat(300) }));
    assert.equal(store.size, 1);
    assert.equal(store.get('a')?.count, 5);
    assert.equal(store.bytes, before + 200);
  });

  it('over the bound, drops the events seen longest ago first, and counts them', () => {
    const one = recordBytes(event('e10', 0));
    const store = new EventsStore(one * 10);
    // Arrival order differs from age: the bound follows lastSeen.
    const ages = [5, 3, 9, 1, 7, 2, 8, 4, 6, 10];
    for (const t of ages) store.put(event(`e${t}`, t * 1000));
    assert.equal(store.dropped, 0);
    store.put(event('e11', 11_000));
    assert.ok(store.bytes <= one * 10);
    assert.ok(store.dropped >= 1);
    const kept = new Set(store.records().map((r) => r.uid));
    for (let t = 1; t <= store.dropped; t++) assert.ok(!kept.has(`e${t}`), `e${t} (the oldest) was dropped`);
    for (let t = store.dropped + 1; t <= 11; t++) assert.ok(kept.has(`e${t}`), `e${t} is kept`);
  });

  it('a lower bound set later drops at once', () => {
    const store = new EventsStore();
    for (let t = 1; t <= 20; t++) store.put(event(`e${t}`, t));
    store.setMaxBytes(recordBytes(event('e10', 0)) * 5);
    assert.ok(store.size <= 5);
    assert.equal(store.dropped, 20 - store.size);
    assert.ok(store.get('e20'));
  });
});
