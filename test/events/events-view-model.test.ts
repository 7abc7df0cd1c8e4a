import assert from 'node:assert/strict';
import { EventsStore, type EventRecord, type WatchGap } from '../../src/events';
import { defaultFilter, eventsSnapshot, subjectFilter, type EventsRowView } from '../../src/ui/events';
import { setTimeFormat } from '../../src/base';

const T = Date.parse('2026-01-01T14:00:00Z');

function ev(uid: string, kind: string, name: string, minute: number, type = 'Normal', count = 1, reason = 'Pulled'): EventRecord {
  const at = T + minute * 60_000;
  return { uid, namespace: 'shop', name: uid, type, reason, message: `${reason} on ${name}`, count, firstSeen: at, lastSeen: at, reporter: 'kubelet', subject: { kind, namespace: 'shop', name, uid: `${kind}/${name}` }, api: 'v1' };
}

function source(records: EventRecord[], gaps: WatchGap[] = []) {
  const store = new EventsStore();
  for (const r of records) store.put(r);
  return { store, gaps: () => gaps, status: () => ({ deciding: false, phases: new Map() }) };
}

function shape(rows: EventsRowView[]): string[] {
  return rows.map((r) => (r.kind === 'section' ? `# ${r.label}` : r.kind === 'gap' ? `~ ${r.text}` : `${r.object} w${r.warnings} x${r.count}`));
}

describe('events: the view model groups by object, warnings first, with gaps by time', () => {
  before(() => setTimeFormat({ locale: 'en-US', timeZone: 'UTC', hourCycle: 'h23' }));

  it('warnings first, grouped by involved object with counts summed and last seen', () => {
    const src = source([ev('1', 'Pod', 'web-1', 9), ev('2', 'Pod', 'db-0', 1, 'Warning', 6, 'BackOff'), ev('3', 'Pod', 'db-0', 3), ev('4', 'Node', 'n1', 2, 'Warning', 2, 'NotReady'), ev('5', 'Pod', 'web-1', 8)]);
    const snap = eventsSnapshot(src, { title: 't', now: T + 600_000, filter: defaultFilter(), maxBytes: 1 << 20 });
    assert.deepEqual(shape(snap.rows), ['# Warnings (2 objects)', 'Pod shop/db-0 w6 x7', 'Node shop/n1 w2 x2', '# Other events', 'Pod shop/web-1 w0 x2']);
    const db = snap.rows[1];
    assert.ok(db.kind === 'group');
    assert.equal(db.lastSeen, '14:03:00 (7m ago)');
    assert.equal(snap.warnings, 8, 'warnings counted with their repeats, as the groups count them');
  });

  it('a gap sits between the events seen after it began and those before it (one seen inside it stays above: it was seen)', () => {
    const gaps: WatchGap[] = [{ kind: 'down', start: T + 4 * 60_000, end: T + 6 * 60_000, reason: 'connect ECONNREFUSED' }];
    const src = source([ev('1', 'Pod', 'a', 8), ev('3', 'Pod', 'c', 5), ev('2', 'Pod', 'b', 2), ev('4', 'Pod', 'd', 4)], gaps);
    const snap = eventsSnapshot(src, { title: 't', now: T + 600_000, filter: defaultFilter(), maxBytes: 1 << 20 });
    assert.deepEqual(shape(snap.rows), ['# Events', 'Pod shop/a w0 x1', 'Pod shop/c w0 x1', '~ no data: watch down 14:04:00–14:06:00 (connect ECONNREFUSED)', 'Pod shop/d w0 x1', 'Pod shop/b w0 x1']);
  });

  it('an open gap is at the top, and with no events the gap alone says the feed saw nothing', () => {
    const snap = eventsSnapshot(source([], [{ kind: 'suspended', start: T, end: T + 1000 }, { kind: 'down', start: T + 5000 }]), { title: 't', now: T + 60_000, filter: defaultFilter(), maxBytes: 1 << 20 });
    assert.deepEqual(shape(snap.rows), ['# Events', '~ no data: watch down since 14:00:05', '~ no data: process suspended 14:00:00–14:00:01']);
  });

  it('filters: text, namespace, warnings only, and a workload with its ReplicaSets and Pods', () => {
    const recs = [ev('1', 'Deployment', 'web', 1), ev('2', 'ReplicaSet', 'web-6d5f', 2), ev('3', 'Pod', 'web-6d5f-z9w4c', 3, 'Warning', 1, 'BackOff'), ev('4', 'Pod', 'webhook-1', 4), ev('5', 'Pod', 'other', 5)];
    const src = source(recs);
    const opts = { title: 't', now: T + 600_000, maxBytes: 1 << 20 };
    const workload = eventsSnapshot(src, { ...opts, filter: defaultFilter(), subject: subjectFilter('Deployment', 'shop', 'web') });
    assert.deepEqual(shape(workload.rows).filter((r) => !r.startsWith('#')), ['Pod shop/web-6d5f-z9w4c w1 x1', 'ReplicaSet shop/web-6d5f w0 x1', 'Deployment shop/web w0 x1']);
    const pod = eventsSnapshot(src, { ...opts, filter: defaultFilter(), subject: subjectFilter('Pod', 'shop', 'other') });
    assert.deepEqual(shape(pod.rows), ['# Events', 'Pod shop/other w0 x1']);
    const warnings = eventsSnapshot(src, { ...opts, filter: { ...defaultFilter(), warningsOnly: true } });
    assert.deepEqual(shape(warnings.rows), ['# Warnings (1 object)', 'Pod shop/web-6d5f-z9w4c w1 x1']);
    const text = eventsSnapshot(src, { ...opts, filter: { ...defaultFilter(), text: 'WEBHOOK' } });
    assert.deepEqual(shape(text.rows), ['# Events', 'Pod shop/webhook-1 w0 x1']);
    const ns = eventsSnapshot(src, { ...opts, filter: { ...defaultFilter(), namespace: 'elsewhere' } });
    assert.deepEqual(shape(ns.rows), ['# Events']);
  });

  it('says how many events were dropped to stay within the bound', () => {
    const store = new EventsStore(2000);
    for (let i = 0; i < 30; i++) store.put(ev(String(i), 'Pod', `p${i}`, i));
    const snap = eventsSnapshot({ store, gaps: () => [], status: () => ({ deciding: false, phases: new Map() }) }, { title: 't', now: T, filter: defaultFilter(), maxBytes: 2000 });
    assert.ok(snap.dropped > 0);
    assert.match(snap.memory, new RegExp(`${snap.dropped} oldest dropped to stay within 2 KiB \\(kubeWatch.events.maxBytes\\)`));
  });
});
