import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { HistoryStore, versionRows, type ObjectHistory } from '../../src/history';
import { ManualClock } from '../ui/lifecycle-rig';

let rvCounter = 100;

function pod(name: string, uid: string, fields: Record<string, unknown> = {}, namespace = 'default'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, uid, resourceVersion: String(++rvCounter), labels: { app: name } },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: 't0' }] },
    ...fields,
  };
}

/** A new version of `obj` (as a watch would deliver: a fresh object) with `edit` applied. */
function next(obj: KubeObject, edit: (o: any) => void): KubeObject {
  const copy = structuredClone(obj);
  copy.metadata.resourceVersion = String(++rvCounter);
  edit(copy);
  return copy;
}

const E = 'ctx/pods';

describe('history store bounds', () => {
  let clock: ManualClock;
  let store: HistoryStore;
  beforeEach(() => {
    clock = new ManualClock();
  });
  afterEach(() => store.dispose());

  it('keeps the last N versions of an object, each with its resourceVersion, time and arrival', () => {
    store = new HistoryStore({ clock, settings: { versionsPerObject: 3 } });
    let p = pod('a', 'ua');
    store.added(E, p, 'list');
    const rvs = [p.metadata.resourceVersion];
    for (let i = 1; i <= 5; i++) {
      clock.advance(1000);
      const prev = p;
      p = next(p, (o) => (o.metadata.labels.step = String(i)));
      rvs.push(p.metadata.resourceVersion);
      store.updated(E, p, 'event', prev);
    }
    const h = store.get(E, 'ua') as ObjectHistory;
    assert.equal(h.size, 3);
    assert.deepEqual(h.infos().map((v) => v.resourceVersion), rvs.slice(-3));
    assert.deepEqual(h.infos().map((v) => v.at - clock.now()), [-2000, -1000, 0]);
    assert.deepEqual(h.infos().map((v) => v.arrival), ['event', 'event', 'event']);
    // Every kept version reads back exactly.
    assert.deepEqual(h.objects().map((o) => (o.metadata.labels as Record<string, string>).step), ['3', '4', '5']);
    assert.equal(h.newest(), p, 'the newest version is the cached object itself');
    assert.equal(store.stats().versions, 3);
  });

  it('drops the oldest versions across all objects first when over the memory cap', () => {
    store = new HistoryStore({ clock, settings: { maxMegabytes: 1, versionsPerObject: 20 } });
    // 200 objects, then 10 rounds of updates with a ~1 KiB label each: far more than 1 MiB.
    const objs = Array.from({ length: 200 }, (_, i) => pod(`p${i}`, `u${i}`));
    for (const o of objs) store.added(E, o, 'list');
    for (let round = 0; round < 10; round++) {
      clock.advance(1000);
      objs.forEach((o, i) => {
        objs[i] = next(o, (x) => (x.metadata.annotations = { note: `${round}-`.repeat(300) }));
        store.updated(E, objs[i], 'event', o);
      });
    }
    const stats = store.stats();
    assert.ok(stats.estimatedBytes <= stats.capBytes, `${stats.estimatedBytes} <= ${stats.capBytes}`);
    assert.ok(stats.droppedByCap > 0);
    // What is left is the newest: every object keeps the same number of versions (give or take
    // one), and the oldest arrival still kept is later than every dropped one.
    const sizes = objs.map((o) => store.get(E, o.metadata.uid as string)?.size ?? 0);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `sizes ${Math.min(...sizes)}..${Math.max(...sizes)}`);
    assert.ok(Math.min(...sizes) >= 2);
    const oldest = Math.min(...objs.map((o) => store.get(E, o.metadata.uid as string)!.oldestInfo().at));
    assert.ok(oldest > clock.now() - 10_000, 'the initial versions went first');
    for (const o of objs) assert.equal(store.get(E, o.metadata.uid as string)!.newest(), o, 'never the live version');
  });

  it('keeps a deleted object for keepDeletedMinutes, then drops it', () => {
    store = new HistoryStore({ clock, settings: { keepDeletedMinutes: 10 } });
    const a = pod('a', 'ua');
    const b = pod('b', 'ub');
    store.added(E, a, 'event');
    store.added(E, b, 'event');
    const final = next(a, (o) => (o.metadata.deletionTimestamp = '2026-01-02T10:00:00Z'));
    store.deleted(E, final, 'event');
    clock.advance(4 * 60_000);
    store.deleted(E, b, 'synthetic-delete');
    const ha = store.get(E, 'ua') as ObjectHistory;
    assert.deepEqual(ha.infos().map((v) => `${v.change}/${v.arrival}`), ['added/event', 'deleted/event']);
    assert.equal(ha.gone?.why, 'deleted');
    assert.deepEqual(store.gone().map((h) => h.name), ['b', 'a']);
    const hb = store.get(E, 'ub') as ObjectHistory;
    assert.deepEqual(hb.infos().map((v) => `${v.change}/${v.arrival}`), ['added/event', 'deleted/synthetic-delete']);
    assert.equal(hb.infos()[1].resourceVersion, b.metadata.resourceVersion, 'a synthetic delete carries the last known version');

    clock.advance(6 * 60_000 - 1);
    assert.ok(store.get(E, 'ua'), 'still kept just before 10 minutes');
    clock.advance(1);
    assert.equal(store.get(E, 'ua'), undefined, 'dropped at 10 minutes');
    assert.ok(store.get(E, 'ub'));
    clock.advance(4 * 60_000);
    assert.equal(store.get(E, 'ub'), undefined);
    assert.deepEqual(store.stats(), { histories: 0, gone: 0, versions: 0, estimatedBytes: 0, capBytes: 64 * 1024 * 1024, droppedByCap: 0, expired: 2 });
    assert.equal(clock.pendingTimers, 0, 'no timer left');
  });

  it('keeps the history of an object removed from the view, and continues it when the object comes back', () => {
    store = new HistoryStore({ clock });
    const a = pod('a', 'ua');
    store.added(E, a, 'list');
    const a2 = next(a, (o) => (o.status.phase = 'Succeeded'));
    store.updated(E, a2, 'event', a);
    store.removed(E, [a2], 'selectors or timeouts changed');
    assert.equal(store.get(E, 'ua')?.gone?.why, 'removed');
    const again = structuredClone(a2);
    store.added(E, again, 'list');
    const h = store.get(E, 'ua') as ObjectHistory;
    assert.equal(h.gone, undefined);
    assert.equal(h.size, 2, 'unchanged: no new version');
    assert.equal(h.newest(), again, 'shares the new cache object');
    clock.advance(11 * 60_000);
    assert.ok(store.get(E, 'ua'), 'revived: not expired');
  });

  it('merges consecutive heartbeat-only updates into one version', () => {
    store = new HistoryStore({ clock });
    let n: KubeObject = { kind: 'Node', metadata: { name: 'n1', uid: 'un', resourceVersion: '1' }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: 'h0' }] } };
    store.added(E, n, 'list');
    for (let i = 0; i <= 5; i++) {
      const prev = n;
      n = next(n, (o) => (i === 0 ? (o.metadata.labels = { zone: 'a' }) : (o.status.conditions[0].lastHeartbeatTime = `h${i}`)));
      store.updated(E, n, 'event', prev);
    }
    const h = store.get(E, 'un') as ObjectHistory;
    assert.deepEqual(h.infos().map((v) => v.heartbeats), [0, 0, 4]);
    const rows = versionRows(h, clock.now());
    assert.deepEqual(rows.map((r) => r.label), ['heartbeat only: lastHeartbeatTime (5 heartbeats)', '+metadata.labels', 'first seen (initial list)']);
    // V08: the picker's label is the resourceVersion and age; the time and how it arrived beside it.
    assert.match(rows[0].heading, /^rv \d+ · (\d+[smhdy])+ ago$/);
    assert.equal(rows[0].heading.split(' · ')[0], `rv ${rows[0].info.resourceVersion}`);
    assert.match(rows[2].description, /^\d\d:\d\d:\d\d UTC · /);
    assert.equal((h.objects()[1].status as any).conditions[0].lastHeartbeatTime, 'h0', 'the version before the heartbeats reads back');
  });

  it('applies smaller bounds at once when the settings change', () => {
    store = new HistoryStore({ clock });
    let p = pod('a', 'ua');
    store.added(E, p, 'list');
    for (let i = 0; i < 10; i++) {
      const prev = p;
      store.updated(E, (p = next(p, (o) => (o.metadata.labels.i = String(i)))), 'event', prev);
    }
    assert.equal(store.get(E, 'ua')?.size, 11);
    store.configure({ versionsPerObject: 4 });
    assert.equal(store.get(E, 'ua')?.size, 4);
    assert.equal(store.stats().versions, 4);
  });

  it('keeps nothing for listed objects until they change, then records the listed version as first seen at the list', () => {
    store = new HistoryStore({ clock });
    store.listStarted(E);
    const listedAt = clock.now();
    const objs = Array.from({ length: 100 }, (_, i) => pod(`q${i}`, `uq${i}`));
    for (const o of objs) store.added(E, o, 'list');
    assert.equal(store.stats().histories, 0, 'a quiet listed object costs nothing');
    assert.equal(store.stats().estimatedBytes, 0);

    const snapshot = store.historyOf(E, objs[0]);
    assert.equal(snapshot.firstSeenKnown, true);
    assert.deepEqual(snapshot.history.infos().map((v) => [v.seq, v.arrival, v.at]), [[0, 'list', listedAt]]);
    assert.deepEqual(versionRows(snapshot.history, clock.now()).map((r) => r.label), ['first seen (initial list)']);
    assert.equal(store.stats().histories, 0, 'a snapshot is not kept');

    clock.advance(5000);
    const changed = next(objs[0], (o) => (o.spec.containers[0].image = 'nginx:2'));
    store.updated(E, changed, 'event', objs[0]);
    const h = store.get(E, 'uq0') as ObjectHistory;
    assert.deepEqual(h.infos().map((v) => `${v.change}/${v.arrival}@${v.at - listedAt}`), ['added/list@0', 'modified/event@5000']);
    assert.deepEqual(versionRows(h, clock.now()).map((r) => r.label), ['spec.containers[app].image nginx → nginx:2', 'first seen (initial list)']);
  });

  it('stops claiming "first seen in the list" for a watch once the cap dropped the history of one of its live objects', () => {
    store = new HistoryStore({ clock, settings: { maxMegabytes: 1 } });
    store.listStarted(E);
    let objs = Array.from({ length: 300 }, (_, i) => pod(`r${i}`, `ur${i}`));
    for (const o of objs) store.added(E, o, 'list');
    // Objects 0-99 change twice (older versions of 8 KB), then objects 100-199 (16 KB): over the
    // cap, which drops the oldest versions first, the newest versions of 0-99 among them (whole
    // histories of live objects), before the older versions of 100-199.
    for (const [from, size] of [[0, 8000], [100, 16000]]) {
      for (const fill of ['x', 'y']) {
        objs = objs.map((o, i) => {
          if (i < from || i >= from + 100) return o;
          const n = next(o, (x) => (x.metadata.annotations = { big: fill.repeat(size) }));
          store.updated(E, n, 'event', o);
          return n;
        });
      }
    }
    assert.equal(store.get(E, 'ur0'), undefined, 'a live history dropped whole');
    assert.ok(store.stats().droppedByCap > 0);
    const quiet = objs[250];
    assert.equal(store.historyOf(E, quiet).firstSeenKnown, false);
    const changed = next(quiet, (o) => (o.status.phase = 'Failed'));
    store.updated(E, changed, 'event', quiet);
    assert.deepEqual(store.get(E, 'ur250')?.infos().map((v) => `${v.change}/${v.arrival}`), ['modified/event'], 'only what is known');
  });
});

