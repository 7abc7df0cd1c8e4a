import assert from 'node:assert/strict';
import { WarningPins, type EventRecord, type WarningNotice } from '../../src/events';
import { ManualClock } from '../support/manual-clock';

const pod = { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'p1' };

function warning(uid: string, lastSeen: number, count = 1, subject = pod): EventRecord {
  return { uid, namespace: 'shop', name: uid, type: 'Warning', reason: 'BackOff', message: 'm', count, firstSeen: lastSeen, lastSeen, reporter: 'kubelet', subject, api: 'v1' };
}

describe('events: notifications for pinned objects', () => {
  it('never for a warning that existed at pin time; a repeat of it or a new one is announced', () => {
    const clock = new ManualClock();
    const notices: WarningNotice[] = [];
    const pins = new WarningPins(clock, (n) => notices.push(n));
    const old = warning('e1', clock.now() - 60_000, 3);
    pins.pin(pod);
    pins.arrived({ record: old }); // the feed's first list, after the pin
    assert.equal(notices.length, 0);
    clock.advance(1000);
    pins.arrived({ record: warning('e1', clock.now(), 4), previous: old });
    assert.equal(notices.length, 1);
  });

  it('one per object per minute; warnings held back are counted into the next', () => {
    const clock = new ManualClock();
    const notices: WarningNotice[] = [];
    const pins = new WarningPins(clock, (n) => notices.push(n));
    pins.pin(pod);
    const other = { ...pod, name: 'web-2', uid: 'p2' };
    pins.pin(other);
    clock.advance(10);
    pins.arrived({ record: warning('a', clock.now()) });
    clock.advance(10_000);
    pins.arrived({ record: warning('b', clock.now()) });
    pins.arrived({ record: warning('c', clock.now()) });
    pins.arrived({ record: warning('x', clock.now(), 1, other) });
    assert.deepEqual(notices.map((n) => [n.subject.name, n.record.uid]), [['web-1', 'a'], ['web-2', 'x']]);
    clock.advance(50_000);
    pins.arrived({ record: warning('d', clock.now()) });
    assert.equal(notices.length, 3);
    assert.equal(notices[2].heldBack, 2);
  });

  it('Normal events, unpinned objects and deletions are not announced', () => {
    const clock = new ManualClock();
    const notices: WarningNotice[] = [];
    const pins = new WarningPins(clock, (n) => notices.push(n));
    clock.advance(10);
    pins.arrived({ record: warning('a', clock.now()) });
    pins.pin(pod);
    clock.advance(10);
    pins.arrived({ record: { ...warning('b', clock.now()), type: 'Normal' } });
    pins.arrived({ record: { ...warning('c', clock.now()), deleted: true } });
    pins.unpin(pod);
    pins.arrived({ record: warning('d', clock.now()) });
    assert.equal(notices.length, 0);
  });
});
