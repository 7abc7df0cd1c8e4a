import assert from 'node:assert/strict';
import { emptyStats, type Informer, type InformerState } from '../../src/informer';
import type { WatchEntry } from '../../src/manager';
import { STALE_GRACE_MS, StalenessTracker, staleBanner, staleDescription, staleExplanation } from '../../src/ui/staleness';

const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
/** Stands in for a running informer: the tracker only checks that there is one. */
const running = {} as unknown as Informer;

function entry(state: Partial<InformerState> & Pick<InformerState, 'phase'>, extra: Partial<WatchEntry> = {}): WatchEntry {
  return { id: 'pods', context: 'ctx', resource: 'pods', namespace: 'default', label: 'ctx/pods in default', informer: running, state: { since: t0, synced: true, ...state }, stats: emptyStats(), ...extra };
}

describe('staleness model', () => {
  it('V01 a watch down for more than a second is stale, since its first failure and through the retries, with the telling cause', () => {
    const t = new StalenessTracker();
    t.observe([entry({ phase: 'watching' })], t0);
    assert.equal(t.staleness('pods', t0), undefined);
    t.observe([entry({ phase: 'unreachable', since: t0 + 1000, reason: 'connect ECONNREFUSED 127.0.0.1:6443' })], t0 + 1000);
    assert.equal(t.staleness('pods', t0 + 1000 + STALE_GRACE_MS), undefined, 'within the grace: not stale yet');
    const s1 = t.staleness('pods', t0 + 1000 + STALE_GRACE_MS + 1);
    assert.ok(s1);
    assert.equal(s1.since, t0 + 1000);
    assert.equal(s1.cause, 'unreachable');
    // The retries in between keep the start and the cause.
    t.observe([entry({ phase: 'backing-off', since: t0 + 1200, nextRetryAt: t0 + 5000 })], t0 + 1200);
    t.observe([entry({ phase: 'connecting', since: t0 + 5000 })], t0 + 5000);
    const s2 = t.staleness('pods', t0 + 41_000);
    assert.ok(s2);
    assert.equal(staleDescription(s2, t0 + 41_000), 'stale 40 s · unreachable');
    assert.match(staleExplanation(s2, t0 + 41_000), /^Stale: not live since 2026-01-02 10:00:01 UTC \(40s ago\), the watch is unreachable: connect ECONNREFUSED/);
    assert.match(staleBanner(s2, t0 + 41_000) ?? '', /^⚠ Stale for 40 s \(since 2026-01-02 10:00:01 UTC\): the watch is unreachable/);
    // Live again: at once, no grace.
    t.observe([entry({ phase: 'watching', since: t0 + 41_500 })], t0 + 41_500);
    assert.equal(t.staleness('pods', t0 + 41_500), undefined);
    assert.equal(staleBanner(t.staleness('pods', t0 + 41_500), t0 + 41_500), undefined);
  });

  it('V01 a quick re-watch at a timeout never shows as stale', () => {
    const t = new StalenessTracker();
    t.observe([entry({ phase: 'watching' })], t0);
    t.observe([entry({ phase: 'listing', since: t0 + 300_000, reason: 'expired' })], t0 + 300_000);
    assert.equal(t.staleness('pods', t0 + 300_400), undefined);
    t.observe([entry({ phase: 'watching', since: t0 + 300_400 })], t0 + 300_400);
    assert.equal(t.staleness('pods', t0 + 302_000), undefined, 'watching again: never stale');
    assert.deepEqual(t.down(), []);
  });

  it('V01 says why: forbidden, paused, an unusable kubeconfig; a forgotten entry is dropped', () => {
    const t = new StalenessTracker();
    t.observe([entry({ phase: 'forbidden', since: t0, reason: 'pods is forbidden' })], t0);
    assert.equal(t.staleness('pods', t0 + 2000)?.cause, 'forbidden');
    t.observe([entry({ phase: 'stopped', since: t0 + 3000, reason: 'paused by the user' })], t0 + 3000);
    assert.equal(t.staleness('pods', t0 + 5000)?.cause, 'paused');
    assert.equal(t.staleness('pods', t0 + 5000)?.since, t0, 'still stale since the first failure');
    t.observe([entry({ phase: 'stopped' }, { informer: undefined, error: 'cannot read /nowhere', errorKind: 'kubeconfig' })], t0 + 6000);
    assert.equal(t.staleness('pods', t0 + 7000)?.cause, 'unusable');
    t.observe([], t0 + 8000);
    assert.equal(t.staleness('pods', t0 + 9000), undefined);
  });

  it('V01 counts stale time in seconds, then minutes', () => {
    const s = { since: t0, cause: 'unreachable' as const };
    assert.equal(staleDescription(s, t0 + 119_999), 'stale 119 s · unreachable');
    assert.equal(staleDescription(s, t0 + 180_000), 'stale 3 min · unreachable');
  });
});
