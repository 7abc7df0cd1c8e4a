import assert from 'node:assert/strict';
import { STALE_AFTER_MS, staleBanner } from '../../src/describe';

describe('describe: stale banner', () => {
  const t0 = Date.parse('2026-11-22T06:00:00Z');
  const watching = { what: 'shop/pods', state: { phase: 'watching' as const, since: t0, synced: true } };
  const down = { what: 'the events of Pod web-1', state: { phase: 'unreachable' as const, since: t0, synced: true, reason: 'connect ECONNREFUSED 127.0.0.1:6443' } };

  it('none while every watch is watching, or one is down for less than a second', () => {
    assert.equal(staleBanner([watching], t0 + 60_000), undefined);
    assert.equal(staleBanner([watching, down], t0 + STALE_AFTER_MS - 1), undefined);
  });

  it('a line per watch down for a second or more, saying since when and why', () => {
    assert.deepEqual(staleBanner([watching, down], t0 + STALE_AFTER_MS), [
      '⚠ STALE: the watch of the events of Pod web-1 has been unreachable since 06:00:00 UTC: connect ECONNREFUSED 127.0.0.1:6443; what follows may be out of date.',
    ]);
  });
});
