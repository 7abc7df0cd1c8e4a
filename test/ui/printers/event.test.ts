/** Events: kubectl's LAST SEEN TYPE REASON OBJECT MESSAGE, the count, and newest first. */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { compareEventsNewestFirst, describeRow, eventCount, eventLastSeen, printObject } from '../../../src/ui/printers';
import { MINUTE, NOW, SECOND, ago, defaultCells } from './support';

function event(name: string, fields: Record<string, unknown>): KubeObject {
  return { metadata: { name, namespace: 'default', creationTimestamp: ago(20 * MINUTE) }, involvedObject: { kind: 'Pod', name: 'foo', namespace: 'default' }, ...fields };
}

describe('printers: Event', () => {
  it('LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE FIRST SEEN COUNT NAME (TestPrintEvent)', () => {
    const e = event('event1', {
      source: { component: 'kubelet', host: 'Node1' },
      involvedObject: { kind: 'Deployment', name: 'Deployment Name', fieldPath: 'spec.containers{foo}' },
      reason: 'Event Reason',
      message: 'Message Data',
      firstTimestamp: ago(3 * 24 * 60 * MINUTE),
      lastTimestamp: ago(2 * 24 * 60 * MINUTE),
      count: 6,
      type: 'Normal',
    });
    const row = printObject(e, 'Event', NOW);
    assert.deepEqual(row.columns, ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE', 'SUBOBJECT', 'SOURCE', 'FIRST SEEN', 'COUNT', 'NAME']);
    assert.deepEqual(row.cells, ['2d', 'Normal', 'Event Reason', 'deployment/Deployment Name', 'Message Data', 'spec.containers{foo}', 'kubelet, Node1', '3d', '6', 'event1']);
    const noName = printObject(event('e2', { involvedObject: { kind: 'Deployment' }, reason: 'R', message: ' trimmed \n', eventTime: ago(3 * SECOND), type: 'Warning' }), 'Event', NOW);
    assert.deepEqual(defaultCells(noName), ['3s', 'Warning', 'R', 'deployment', 'trimmed']);
  });

  it('the count: the series\' when there is one, else count, else 1; last seen from the series, else lastTimestamp, else the first sighting', () => {
    const series = event('s', { eventTime: ago(10 * MINUTE), series: { count: 4, lastObservedTime: ago(30 * SECOND) } });
    assert.equal(eventCount(series), 4);
    assert.equal(eventLastSeen(series), NOW - 30 * SECOND);
    assert.equal(printObject(series, 'Event', NOW).cells[0], '30s');
    assert.equal(eventCount(event('c', { count: 0 })), 1);
    assert.equal(eventLastSeen(event('f', { firstTimestamp: ago(MINUTE) })), NOW - MINUTE);
    assert.equal(eventLastSeen(event('none', {})), NOW - 20 * MINUTE, 'the creation time, last of all');
  });

  it('the row: labelled by its reason; type and count first, then last seen, object and message', () => {
    const e = event('ledger.17a', {
      involvedObject: { kind: 'Pod', name: 'ledger-6d5f7c8b9-z9w4c' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container main',
      type: 'Warning',
      count: 6,
      lastTimestamp: ago(12 * SECOND),
    });
    const row = printObject(e, 'Event', NOW);
    assert.equal(row.label, 'BackOff');
    assert.equal(describeRow(row), 'Warning ×6 · 12s ago · pod/ledger-6d5f7c8b9-z9w4c · Back-off restarting failed container main');
    assert.deepEqual(row.health, { icon: 'warning', tone: 'warning' });
    assert.equal(printObject(event('n', { reason: 'Started', type: 'Normal' }), 'Event', NOW).health.tone, 'neutral');
  });

  it('newest first, ties by name, and Events without a time last', () => {
    const items = [
      { name: 'b', object: event('b', { lastTimestamp: ago(MINUTE) }) },
      { name: 'a', object: event('a', { lastTimestamp: ago(MINUTE) }) },
      { name: 'new', object: event('new', { lastTimestamp: ago(SECOND) }) },
      { name: 'old', object: event('old', { lastTimestamp: ago(10 * MINUTE) }) },
      { name: 'x', object: { metadata: { name: 'x' } } as KubeObject },
    ];
    assert.deepEqual(items.sort(compareEventsNewestFirst).map((i) => i.name), ['new', 'a', 'b', 'old', 'x']);
  });
});
