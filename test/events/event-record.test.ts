import assert from 'node:assert/strict';
import { readEvent } from '../../src/events';
import type { KubeObject } from '../../src/informer';

/** Both API groups' Events read into the same record (issue 33 item 2). */
describe('events: reading both API groups', () => {
  it('events.k8s.io/v1: series.count and lastObservedTime, note, reportingController/Instance, regarding', () => {
    const obj = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'web-1.abc', namespace: 'shop', uid: 'e1', creationTimestamp: '2026-01-01T10:00:00Z' },
      eventTime: '2026-01-01T10:00:00.000000Z',
      series: { count: 7, lastObservedTime: '2026-01-01T10:05:00.000000Z' },
      deprecatedCount: 2,
      deprecatedLastTimestamp: '2026-01-01T10:01:00Z',
      reportingController: 'kubelet',
      reportingInstance: 'node-a',
      deprecatedSource: { component: 'old-kubelet' },
      regarding: { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'p1' },
      reason: 'BackOff',
      note: 'Back-off restarting failed container',
      type: 'Warning',
    } as unknown as KubeObject;
    const r = readEvent(obj);
    assert.equal(r.api, 'events.k8s.io/v1');
    assert.equal(r.count, 7);
    assert.equal(r.firstSeen, Date.parse('2026-01-01T10:00:00Z'));
    assert.equal(r.lastSeen, Date.parse('2026-01-01T10:05:00Z'));
    assert.equal(r.reporter, 'kubelet, node-a');
    assert.equal(r.message, 'Back-off restarting failed container');
    assert.deepEqual(r.subject, { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'p1' });
    assert.equal(r.type, 'Warning');
  });

  it('events.k8s.io/v1 without series: deprecatedCount and deprecatedLastTimestamp', () => {
    const r = readEvent({
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'x', namespace: 'a', uid: 'e2' },
      deprecatedFirstTimestamp: '2026-01-01T09:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T09:30:00Z',
      deprecatedCount: 4,
      regarding: { kind: 'Node', name: 'n1' },
      note: 'n',
    } as unknown as KubeObject);
    assert.equal(r.count, 4);
    assert.equal(r.firstSeen, Date.parse('2026-01-01T09:00:00Z'));
    assert.equal(r.lastSeen, Date.parse('2026-01-01T09:30:00Z'));
    assert.equal(r.type, 'Normal');
  });

  it('core v1: count, firstTimestamp/lastTimestamp, source.component/host, involvedObject, message', () => {
    const r = readEvent({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.1', namespace: 'shop', uid: 'e3' },
      firstTimestamp: '2026-01-01T08:00:00Z',
      lastTimestamp: '2026-01-01T08:20:00Z',
      count: 12,
      source: { component: 'kubelet', host: 'node-b' },
      involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'p2' },
      reason: 'Unhealthy',
      message: ' Readiness probe failed \n',
      type: 'Warning',
    } as unknown as KubeObject);
    assert.equal(r.api, 'v1');
    assert.equal(r.count, 12);
    assert.equal(r.lastSeen, Date.parse('2026-01-01T08:20:00Z'));
    assert.equal(r.reporter, 'kubelet, node-b');
    assert.equal(r.message, 'Readiness probe failed');
    assert.equal(r.subject.uid, 'p2');
  });

  it('core v1 with eventTime and series (written through events.k8s.io): the series wins, reportingController names the reporter', () => {
    const r = readEvent({
      apiVersion: 'v1',
      metadata: { name: 'y', namespace: 'a', uid: 'e4' },
      eventTime: '2026-01-01T07:00:00.000000Z',
      series: { count: 3, lastObservedTime: '2026-01-01T07:10:00.000000Z' },
      reportingComponent: 'ctrl',
      reportingController: 'ctrl',
      reportingInstance: 'ctrl-1',
      involvedObject: { kind: 'Deployment', namespace: 'a', name: 'web' },
      message: 'm',
    } as unknown as KubeObject);
    assert.equal(r.count, 3);
    assert.equal(r.lastSeen, Date.parse('2026-01-01T07:10:00Z'));
    assert.equal(r.reporter, 'ctrl, ctrl-1');
  });
});
