import assert from 'node:assert/strict';
import { emptyStats, type InformerState, type Informer } from '../../src/informer';
import type { WatchEntry } from '../../src/manager';
import { describeWatchState } from '../../src/ui/watch-state-text';
import { themeColors } from '../../src/ui/tree/tone';

const NOW = Date.parse('2026-03-01T12:00:00Z');

/** A hand-made entry: only what describeWatchState reads. */
function entry(state: Partial<InformerState> & Pick<InformerState, 'phase'>, extra: Partial<WatchEntry> = {}): WatchEntry {
  return {
    id: 'e',
    context: 'kind-dev',
    resource: 'pods',
    namespace: 'default',
    label: 'kind-dev/pods in default',
    state: { since: NOW - 5000, synced: true, ...state },
    stats: { ...emptyStats(), resourceVersion: '48213', resourceVersionSource: 'event' },
    // Only its presence matters here: describeWatchState never calls it.
    informer: {} as Informer,
    ...extra,
  };
}

describe('describeWatchState', () => {
  it('watching shows the resourceVersion, calm (no colour)', () => {
    assert.deepEqual(describeWatchState(entry({ phase: 'watching' }), NOW), { text: 'watching · rv 48213', icon: 'eye', tone: 'ok' });
  });

  it('V04 unreachable and the refusals say when the next try is', () => {
    assert.equal(describeWatchState(entry({ phase: 'unreachable', reason: 'connect ECONNREFUSED', nextRetryAt: NOW + 3200 }), NOW).text, 'unreachable: connect ECONNREFUSED · next try in 4 s');
    assert.equal(describeWatchState(entry({ phase: 'forbidden', nextRetryAt: NOW + 60_000 }), NOW).text, 'forbidden · next try in 60 s');
    assert.equal(describeWatchState(entry({ phase: 'unreachable', nextRetryAt: NOW - 1 }), NOW).text, 'unreachable', 'no countdown once due');
  });

  it('backing off counts down to the next attempt in whole seconds', () => {
    const s = describeWatchState(entry({ phase: 'backing-off', reason: 'connection reset', nextRetryAt: NOW + 3200 }), NOW);
    assert.equal(s.text, 'reconnecting in 4 s');
    assert.equal(s.color, themeColors.yellow);
    assert.equal(describeWatchState(entry({ phase: 'backing-off', nextRetryAt: NOW - 1 }), NOW).text, 'reconnecting');
  });

  it('an expiry relist, a first list and a later relist read differently', () => {
    assert.equal(describeWatchState(entry({ phase: 'listing', reason: 'expired' }), NOW).text, 'expired, relisting');
    assert.equal(describeWatchState(entry({ phase: 'listing', synced: false }), NOW).text, 'listing');
    assert.equal(describeWatchState(entry({ phase: 'listing', reason: 'the same error repeated: x' }), NOW).text, 'relisting');
    assert.equal(describeWatchState(entry({ phase: 'listing', reason: 'expired' }), NOW).icon, 'sync~spin');
  });

  it('refusals and outages are red, with the cause where it is short enough to read', () => {
    const forbidden = describeWatchState(entry({ phase: 'forbidden', reason: 'pods is forbidden: User "x" cannot list resource' }), NOW);
    assert.deepEqual([forbidden.text, forbidden.color, forbidden.tone], ['forbidden', themeColors.red, 'error']);
    assert.equal(describeWatchState(entry({ phase: 'unauthorized', reason: 'Unauthorized' }), NOW).text, 'unauthorized');
    assert.equal(describeWatchState(entry({ phase: 'unreachable', reason: 'connect ECONNREFUSED' }), NOW).text, 'unreachable: connect ECONNREFUSED');
    assert.equal(describeWatchState(entry({ phase: 'not-found', reason: 'the server could not find the requested resource' }), NOW).text, 'not found: the server could not find the requested resource');
    const long = describeWatchState(entry({ phase: 'unreachable', reason: `x${'y'.repeat(300)}\nsecond line` }), NOW).text;
    assert.ok(long.length <= 'unreachable: '.length + 80 && long.endsWith('…'), long);
  });

  it('configuration problems take precedence over the phase', () => {
    const base = { informer: undefined, stats: emptyStats() };
    assert.equal(describeWatchState(entry({ phase: 'stopped', reason: 'x' }, { ...base, error: 'no file at /nope', errorKind: 'kubeconfig' }), NOW).text, 'kubeconfig: no file at /nope');
    assert.equal(describeWatchState(entry({ phase: 'stopped' }, { ...base, error: 'no context "x"', errorKind: 'context' }), NOW).text, 'context: no context "x"');
    const unknown = describeWatchState(entry({ phase: 'not-found', reason: 'the server has no resource type "nosuchthings"' }, { ...base, error: 'the server has no resource type "nosuchthings"', errorKind: 'unknown-resource' }), NOW);
    assert.deepEqual([unknown.text, unknown.tone], ['unknown resource type', 'error']);
    // Discovery failures read as the phase they put the entry in.
    const discovery = describeWatchState(entry({ phase: 'unreachable', reason: 'discovery failed: connect ECONNREFUSED' }, { ...base, error: 'discovery failed: connect ECONNREFUSED', errorKind: 'discovery' }), NOW);
    assert.equal(discovery.text, 'unreachable: discovery failed: connect ECONNREFUSED');
  });

  it('a running informer whose kubeconfig reload failed keeps its phase and warns', () => {
    const s = describeWatchState(entry({ phase: 'watching' }, { error: 'cannot read (still using the configuration read before)', errorKind: 'kubeconfig' }), NOW);
    assert.equal(s.text, 'watching · rv 48213 · kubeconfig unreadable');
    assert.equal(s.tone, 'warning');
  });

  it('resolving, connecting, paused and stopped', () => {
    assert.equal(describeWatchState(entry({ phase: 'connecting', reason: 'resolving the resource type' }, { informer: undefined }), NOW).text, 'resolving resource type');
    assert.equal(describeWatchState(entry({ phase: 'connecting' }), NOW).text, 'connecting');
    assert.equal(describeWatchState(entry({ phase: 'stopped', reason: 'paused by the user' }), NOW).text, 'paused');
    assert.equal(describeWatchState(entry({ phase: 'stopped' }), NOW).text, 'stopped');
  });
});
