import assert from 'node:assert/strict';
import { WatchGaps } from '../../src/events';
import type { InformerState } from '../../src/informer';
import { ManualClock } from '../support/manual-clock';

function state(phase: InformerState['phase'], since: number, synced = true, reason?: string): InformerState {
  return { phase, since, synced, ...(reason ? { reason } : {}) };
}

/** The spans the events watch did not deliver, from its states and lifecycle events, on a manual clock. */
describe('events: gaps from the watch lifecycle', () => {
  it('nothing before the first sync is a gap; a drop after it is one, from leaving watching to watching again', () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const gaps = new WatchGaps(clock);
    gaps.state(state('connecting', t0, false));
    gaps.state(state('listing', t0 + 10, false));
    gaps.state(state('watching', t0 + 20));
    assert.deepEqual(gaps.gaps(), []);
    gaps.state(state('backing-off', t0 + 60_000, true, 'connect ECONNREFUSED'));
    gaps.state(state('connecting', t0 + 61_000));
    gaps.state(state('unreachable', t0 + 62_000, true, 'the cluster does not answer'));
    assert.deepEqual(gaps.gaps(), [{ kind: 'down', start: t0 + 60_000, reason: 'the cluster does not answer' }]);
    gaps.state(state('listing', t0 + 240_000));
    gaps.state(state('watching', t0 + 241_000));
    assert.deepEqual(gaps.gaps(), [{ kind: 'down', start: t0 + 60_000, end: t0 + 241_000, reason: 'the cluster does not answer' }]);
  });

  it('a relist from a live watch (410) is not a gap', () => {
    const clock = new ManualClock();
    const gaps = new WatchGaps(clock);
    gaps.state(state('watching', 1));
    gaps.state(state('listing', 2));
    gaps.state(state('watching', 3));
    assert.deepEqual(gaps.gaps(), []);
  });

  it('a resume: suspended for the time away, then catching up until a bookmark after it', () => {
    const clock = new ManualClock();
    const gaps = new WatchGaps(clock);
    gaps.state(state('watching', clock.now()));
    clock.advance(600_000);
    const at = clock.now();
    gaps.lifecycle({ type: 'resumed', awayMs: 300_000, at });
    assert.deepEqual(gaps.gaps(), [
      { kind: 'suspended', start: at - 300_000, end: at },
      { kind: 'catching-up', start: at },
    ]);
    gaps.lifecycle({ type: 'watch-opened', resourceVersion: '', timeoutSeconds: 300, streaming: true, at: at + 5 });
    assert.equal(gaps.gaps().length, 2, 'a streaming list does not prove it current');
    gaps.lifecycle({ type: 'bookmark', resourceVersion: '9', at: at + 2000 });
    assert.deepEqual(gaps.gaps()[1], { kind: 'catching-up', start: at, end: at + 2000 });
  });

  it('an event delivered ends catching up; stop() ends open gaps', () => {
    const clock = new ManualClock();
    const gaps = new WatchGaps(clock);
    gaps.state(state('watching', clock.now()));
    gaps.lifecycle({ type: 'resumed', awayMs: 1000, at: clock.now() });
    clock.advance(50);
    gaps.delivered();
    assert.equal(gaps.gaps()[1].end, clock.now());
    gaps.state(state('backing-off', clock.now(), true, 'x'));
    clock.advance(70);
    gaps.stop();
    assert.deepEqual(gaps.gaps()[2], { kind: 'down', start: clock.now() - 70, end: clock.now(), reason: 'x' });
  });
});
