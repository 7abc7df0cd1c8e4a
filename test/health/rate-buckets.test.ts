import assert from 'node:assert/strict';
import { ADD, DELETE, RateHistory, RateRing, UPDATE } from '../../src/health';

const T0 = Date.UTC(2026, 0, 2, 10, 0, 0);

describe('health rate buckets', () => {
  it('a ring counts adds, updates and deletes per bucket, and an old bucket reused reads as new', () => {
    const ring = new RateRing(1000, 5);
    ring.add(T0, ADD);
    ring.add(T0 + 999, UPDATE);
    ring.add(T0 + 1000, DELETE);
    ring.add(T0 + 5000, ADD); // same slot as T0, five buckets later
    const points = ring.points(T0, T0 + 6000);
    assert.deepEqual(
      points.map((p) => [p.at - T0, p.adds, p.updates, p.deletes]),
      [
        [1000, 0, 0, 1],
        [2000, 0, 0, 0],
        [3000, 0, 0, 0],
        [4000, 0, 0, 0],
        [5000, 1, 0, 0],
      ],
      'only the last five buckets are held; the first was overwritten',
    );
  });

  it('a history gives 10 s buckets before the last 10 minutes and 1 s buckets within them, up to the last complete second', () => {
    const h = new RateHistory();
    // One update per second for 70 minutes.
    for (let s = 0; s < 70 * 60; s++) h.add(T0 + s * 1000 + 500, UPDATE);
    const now = T0 + 70 * 60_000 + 300;
    const series = h.series(now);
    const coarse = series.filter((p) => p.widthMs === 10_000);
    const fine = series.filter((p) => p.widthMs === 1000);
    assert.equal(fine.length, 600);
    assert.equal(fine[fine.length - 1].at, T0 + 70 * 60_000 - 1000, 'the running second is left out');
    assert.ok(fine.every((p) => p.updates === 1));
    assert.ok(coarse.length >= 300 && coarse.length <= 301, `${coarse.length} coarse buckets`);
    assert.ok(coarse.every((p) => p.updates === 10), 'ten changes per 10 s bucket');
    assert.ok(coarse[0].at >= now - 60 * 60_000 - 10_000, 'nothing older than the window');
    assert.equal(coarse[coarse.length - 1].at + 10_000, fine[0].at, 'contiguous: no gap, no overlap');
    // Memory does not depend on the rate.
    const before = h.bytes;
    for (let i = 0; i < 100_000; i++) h.add(now, ADD);
    assert.equal(h.bytes, before);
  });
});
