import assert from 'node:assert/strict';
import { EvictionQueue } from '../../src/history/eviction-queue';

class Item {
  skip = 0;
  constructor(readonly name: string) {}
}

describe('eviction queue', () => {
  it('gives histories back in the order their versions were queued, front entries first', () => {
    const q = new EvictionQueue<Item>();
    const [a, b, c] = [new Item('a'), new Item('b'), new Item('c')];
    q.push(a);
    q.push(b);
    q.push(a);
    q.pushFront(c);
    assert.deepEqual([q.shift(), q.shift(), q.shift(), q.shift(), q.shift()].map((i) => i?.name), ['c', 'a', 'b', 'a', undefined]);
  });

  it('passes over entries of versions dropped otherwise, before and after a compaction', () => {
    const q = new EvictionQueue<Item>();
    const items = Array.from({ length: 3000 }, (_, i) => new Item(`i${i}`));
    // Every item: three versions queued; the first two of each are then dropped by the per-object bound.
    for (let round = 0; round < 3; round++) for (const it of items) q.push(it);
    for (const it of items) {
      q.forgetOne(it);
      q.forgetOne(it);
    }
    assert.ok(q.length < 9000, `compacted: ${q.length}`);
    // Item 0 goes whole; the rest come out once each, in order.
    q.forgetAll(items[0], 1);
    const out: string[] = [];
    for (let it = q.shift(); it; it = q.shift()) out.push(it.name);
    assert.deepEqual(out, items.slice(1).map((i) => i.name));
    assert.equal(q.length, 0);
  });
});
