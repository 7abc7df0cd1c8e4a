import assert from 'node:assert/strict';
import { ApiError } from '../../src/base/api-error';
import type { Clock } from '../../src/base/clock';
import { STREAMING_LIST_MEMORY_MS, StreamingListMemory } from '../../src/informer/streaming-list-memory';
import { isInitialEventsEnd, refusesStreamingList, watchListQuery } from '../../src/informer/watch-list';

/** The 422 bodies of the transcripts (fixtures/apiserver/06, fixtures/apiserver-modern/11). */
const refused126 = new ApiError(
  {
    kind: 'Status',
    code: 422,
    reason: 'Invalid',
    message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch',
    details: { causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden for watch', field: 'resourceVersionMatch' }] },
  },
  'http',
  422,
);
const refused133 = new ApiError(
  {
    kind: 'Status',
    code: 422,
    reason: 'Invalid',
    message: 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    details: { causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', field: 'sendInitialEvents' }] },
  },
  'http',
  422,
);
const badSelector = new ApiError(
  {
    kind: 'Status',
    code: 422,
    reason: 'Invalid',
    message: 'ListOptions.meta.k8s.io "" is invalid: labelSelector: Invalid value: "a==": bad selector',
    details: { causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "a==": bad selector', field: 'labelSelector' }] },
  },
  'http',
  422,
);

/** A clock that moves only when told (the memory sets no timers). */
function manualClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    setTimer: () => ({ cancel: () => undefined }),
    random: () => 0.5,
    advance: (ms: number) => void (now += ms),
  };
}

describe('streaming list: refusals and the fallback memory', () => {
  it('a 422 naming sendInitialEvents or resourceVersionMatch means no streaming list; a 422 for a bad selector does not', () => {
    assert.equal(refusesStreamingList(refused126), true);
    assert.equal(refusesStreamingList(refused133), true);
    assert.equal(refusesStreamingList(badSelector), false);
    assert.equal(refusesStreamingList(new ApiError({ code: 500, message: 'boom' }, 'event')), false);
  });

  it('builds the WatchList query: resourceVersion unset for a consistent first sync', () => {
    assert.deepEqual(watchListQuery('', 300), { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true', timeoutSeconds: '300' });
    assert.equal(watchListQuery('42', 300).resourceVersion, '42');
    assert.equal(isInitialEventsEnd({ metadata: { resourceVersion: '5', annotations: { 'k8s.io/initial-events-end': 'true' } } }), true);
    assert.equal(isInitialEventsEnd({ metadata: { resourceVersion: '5' } }), false);
  });

  it('remembers a refusal per group/version for an hour on the injected clock', () => {
    const clock = manualClock(1_000);
    const memory = new StreamingListMemory(clock);
    memory.remember('v1', '422 forbidden');
    assert.equal(memory.refusal('v1'), '422 forbidden');
    assert.equal(memory.refusal('apps/v1'), undefined, 'another group/version is tried on its own');
    clock.advance(STREAMING_LIST_MEMORY_MS - 1);
    assert.equal(memory.refusal('v1'), '422 forbidden');
    clock.advance(1);
    assert.equal(memory.refusal('v1'), undefined, 'forgotten after an hour');
  });

  it('forgets everything when the cluster answers again after a connection failure, not on plain successes', () => {
    const memory = new StreamingListMemory(manualClock(0));
    memory.remember('v1', 'no');
    memory.connectionSucceeded();
    assert.equal(memory.refusal('v1'), 'no', 'a success alone changes nothing');
    memory.connectionFailed();
    assert.equal(memory.refusal('v1'), 'no', 'still remembered while unreachable');
    memory.connectionSucceeded();
    assert.equal(memory.refusal('v1'), undefined, 'the server may have been replaced: try again');
  });
});
