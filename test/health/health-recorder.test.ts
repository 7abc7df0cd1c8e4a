import assert from 'node:assert/strict';
import { HealthRecorder, isTroubleState } from '../../src/health';
import type { WatchManager } from '../../src/manager';
import { formatLifecycleEvent } from '../../src/ui/log';
import { ManualClock, UiRig, realSleep, until } from '../ui/lifecycle-rig';

/**
 * The recorder on a real WatchManager against the local API server, on a manual clock: states
 * become contiguous spans, lifecycle events markers with their log lines, handler events counts.
 */
describe('health recorder', () => {
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  const lineOf = (label: string, event: Parameters<typeof formatLifecycleEvent>[1]) => formatLifecycleEvent(label, event).message;

  async function started(resources: string[], opts: { maxBytes?: number; windowMs?: number } = {}) {
    const clock = new ManualClock();
    const server = await rig.server({ token: 'token-a' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
    const m = rig.manager({ resources, namespaces: ['default'] }, clock);
    const recorder = new HealthRecorder(m, { clock, lineOf, ...opts });
    await m.start();
    await until(() => m.entries().length === resources.length && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
    return { clock, server, m, recorder };
  }

  const watchingAll = (m: WatchManager) => m.entries().every((e) => e.state.phase === 'watching');

  it('a track per watch from the start: connecting, listing, then watching, in contiguous spans', async () => {
    const { m, recorder } = await started(['configmaps', 'pods']);
    const tracks = recorder.tracks();
    assert.deepEqual(tracks.map((t) => t.id).sort(), m.entries().map((e) => e.id).sort());
    for (const t of tracks) {
      const states = t.spans.map((s) => s.state);
      assert.equal(states[states.length - 1], 'watching', states.join(' '));
      assert.ok(states.includes('listing'), states.join(' '));
      for (let i = 1; i < t.spans.length; i++) assert.equal(t.spans[i].from, t.spans[i - 1].to, 'each span starts where the one before ended');
      assert.equal(t.spans[t.spans.length - 1].to, undefined, 'the last one is open');
    }
    recorder.dispose();
  });

  it('counts adds, updates and deletes per second on the clock', async () => {
    const { clock, server, recorder, m } = await started(['configmaps']);
    const id = m.entries()[0].id;
    for (let i = 0; i < 5; i++) server.create('configmaps', { metadata: { name: `cm${i}`, namespace: 'default' } });
    server.update('configmaps', { metadata: { name: 'cm0', namespace: 'default' }, data: { a: '1' } });
    server.delete('configmaps', 'default', 'cm1');
    await until(() => m.entries()[0].stats.events >= 7, () => `${m.entries()[0].stats.events} events`);
    clock.advance(1000);
    const series = recorder.track(id)!.rate.series(clock.now());
    const sum = series.reduce((acc, p) => ({ adds: acc.adds + p.adds, updates: acc.updates + p.updates, deletes: acc.deletes + p.deletes }), { adds: 0, updates: 0, deletes: 0 });
    assert.deepEqual(sum, { adds: 5, updates: 1, deletes: 1 });
    const last = series[series.length - 1];
    assert.equal(last.widthMs, 1000);
    assert.equal(last.adds, 5, 'all in the second that just ended');
    recorder.dispose();
  });

  it('an outage: a trouble span from the moment the watch dropped, ended when it watches again', async () => {
    const { clock, server, recorder, m } = await started(['configmaps']);
    const id = m.entries()[0].id;
    await server.goDown();
    await until(() => m.entries()[0].state.phase !== 'watching', () => 'a failure');
    const failedAt = m.entries()[0].state.since;
    const track = recorder.track(id)!;
    const trouble = track.spans.find((s) => isTroubleState(s.state));
    assert.ok(trouble, track.spans.map((s) => s.state).join(' '));
    assert.equal(trouble.from, failedAt, 'the span starts when the engine left watching');
    await server.comeUp();
    for (let i = 0; i < 90 && !watchingAll(m); i++) {
      clock.advance(1000);
      await realSleep(20);
    }
    assert.ok(watchingAll(m));
    const last = track.spans[track.spans.length - 1];
    assert.equal(last.state, 'watching');
    const lastTrouble = [...track.spans].reverse().find((s) => isTroubleState(s.state))!;
    assert.ok(lastTrouble.to !== undefined && lastTrouble.to <= last.from, 'the outage ended before watching began');
    recorder.dispose();
  });

  it('markers for restarts and relists, with the log line; removed entries end in a stopped span and leave with the window', async () => {
    const { clock, recorder, m } = await started(['configmaps'], { windowMs: 10 * 60_000 });
    const id = m.entries()[0].id;
    await m.restart(id, 'restart requested by a test');
    await until(() => watchingAll(m) && recorder.track(id)!.markers.some((x) => x.kind === 'restart'), () => JSON.stringify(recorder.track(id)!.markers));
    const restart = recorder.track(id)!.markers.find((x) => x.kind === 'restart')!;
    assert.equal(restart.line, `[${m.entries()[0].label}] restart requested by a test`);
    assert.equal(restart.at, clock.now());
    const relist = recorder.track(id)!.markers.find((x) => x.kind === 'relist')!;
    assert.match(relist.line, /relist started \(last resourceVersion \d+\)$/);
    assert.equal(recorder.track(id)!.markers.filter((x) => x.kind === 'relist').length, 1, 'one marker per relist');

    await m.update({ ...m.configuration, resources: [] });
    const track = recorder.track(id)!;
    assert.equal(track.state, 'stopped');
    assert.equal(track.removedAt, clock.now());
    assert.equal(recorder.tracks().length, 1, 'kept while within the window');
    clock.advance(10 * 60_000 + 1);
    assert.equal(recorder.tracks().length, 0, 'dropped once older than the window');
    recorder.dispose();
  });

  it('a pause ends the band in a paused span; resuming goes on in the same track', async () => {
    const { recorder, m } = await started(['configmaps']);
    const id = m.entries()[0].id;
    recorder.setPaused(true);
    await m.stop();
    assert.equal(recorder.track(id)!.state, 'paused');
    recorder.setPaused(false);
    await m.start();
    await until(() => m.entries()[0]?.state.phase === 'watching', () => JSON.stringify(m.entries().map((e) => e.state)));
    const states = recorder.track(id)!.spans.map((s) => s.state);
    assert.equal(recorder.tracks().length, 1);
    assert.ok(states.indexOf('paused') > states.indexOf('watching'), states.join(' '));
    assert.equal(states[states.length - 1], 'watching', states.join(' '));
    assert.equal(recorder.track(id)!.removedAt, undefined);
    recorder.dispose();
  });

  it('stays under its memory cap by shedding the oldest markers and spans, keeping the newest', async () => {
    const { recorder, m } = await started(['configmaps']);
    const id = m.entries()[0].id;
    const fixed = recorder.bytes;
    recorder.dispose();
    const { recorder: capped, m: m2, clock } = await started(['configmaps'], { maxBytes: fixed + 4000 });
    const id2 = m2.entries()[0].id;
    for (let i = 0; i < 40; i++) {
      clock.advance(1000);
      await m2.restart(id2, `restart requested by test number ${i}`);
      await until(() => watchingAll(m2), () => 'watching');
    }
    await until(() => watchingAll(m2), () => 'watching');
    const track = capped.track(id2)!;
    assert.ok(capped.bytes <= fixed + 4000, `${capped.bytes} bytes, cap ${fixed + 4000}`);
    assert.ok(track.markers.length > 0 && track.markers.length < 40, `${track.markers.length} markers kept`);
    const restarts = track.markers.filter((x) => x.kind === 'restart');
    assert.match(restarts[restarts.length - 1].line, /test number 39$/, 'the newest are kept');
    assert.equal(track.markers[track.markers.length - 1].kind, 'relist', 'each restart relists');
    assert.equal(track.spans[track.spans.length - 1].state, 'watching');
    assert.ok(track.spans[0].from > track.markers[0].at - 2000, 'spans and markers were shed oldest first, together');
    assert.ok(id);
    capped.dispose();
  });

  it('after dispose it holds no listener on the manager and records nothing more', async () => {
    const { server, recorder, m } = await started(['configmaps']);
    const id = m.entries()[0].id;
    recorder.dispose();
    assert.equal(recorder.subscriptionCount, 0);
    const before = recorder.track(id)!.version;
    server.create('configmaps', { metadata: { name: 'late', namespace: 'default' } });
    await until(() => m.entries()[0].stats.events >= 1, () => 'the add');
    assert.equal(recorder.track(id)!.version, before);
  });
});
