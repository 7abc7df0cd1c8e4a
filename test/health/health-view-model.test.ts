import assert from 'node:assert/strict';
import { HealthRecorder } from '../../src/health';
import { HealthFeed, HealthViewModel, bandSummary, connectionText, healthMarkdown, type HealthSnapshot } from '../../src/ui/health';
import { formatLifecycleEvent } from '../../src/ui/log';
import { ManualClock, UiRig, realSleep, until } from '../ui/lifecycle-rig';

/** The panel's view model and its throttled feed, on a real manager and a manual clock. */
describe('health panel view model', () => {
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  async function started(resources: string[]) {
    const clock = new ManualClock();
    const server = await rig.server({ token: 'token-a' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
    const m = rig.manager({ resources, namespaces: ['default'] }, clock);
    const recorder = new HealthRecorder(m, { clock, lineOf: (label, event) => formatLifecycleEvent(label, event).message });
    const model = new HealthViewModel(recorder, () => m.entries());
    await m.start();
    await until(() => m.entries().length === resources.length && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
    return { clock, server, m, recorder, model };
  }

  it('a snapshot has a band per watch, named as the tree names the states, the rate per second, the resourceVersion and the connection', async () => {
    const { clock, server, m, recorder, model } = await started(['configmaps', 'pods']);
    for (let i = 0; i < 3; i++) server.create('configmaps', { metadata: { name: `cm${i}`, namespace: 'default' } });
    await until(() => m.entries().find((e) => e.resource === 'configmaps')!.stats.events >= 3, () => 'the adds');
    clock.advance(5000);
    const snap = model.snapshot(clock.now());
    const snapNow = snap.now;
    assert.equal(snap.watches.length, 2);
    assert.equal(snap.now, clock.now());
    assert.equal(snap.windowMs, 60 * 60_000);
    assert.equal(snap.from, clock.now() - 60_000, 'a young recording: the axis starts a minute back, not an hour');
    clock.advance(20 * 60_000);
    const later = model.snapshot(clock.now());
    assert.equal(later.from, Math.min(...later.watches.map((w) => w.spans[0].from)), 'then at the start of the recording');
    clock.advance(60 * 60_000);
    assert.equal(model.snapshot(clock.now()).from, clock.now() - 60 * 60_000, 'never more than the window');
    const cms = snap.watches.find((w) => w.label.includes('configmaps'))!;
    assert.equal(cms.state, 'watching');
    assert.match(cms.stateText, /^watching · rv \d+$/);
    assert.deepEqual(cms.spans.map((s) => s.state).slice(-1), ['watching']);
    const last = cms.spans[cms.spans.length - 1];
    assert.equal(last.open, true);
    assert.equal(last.to, snapNow, 'the open span reaches now');
    assert.equal(cms.totals.adds, 3);
    assert.equal(cms.rate.t.length, cms.rate.adds.length);
    assert.equal(cms.rate.adds.reduce((a, b) => a + b, 0), 3, 'per-second values of 1 s buckets add up to the count');
    assert.match(cms.resourceVersion!.text, /^\d+ from a watch event, 5s ago$/);
    assert.equal(cms.connection, 'HTTP/1.1');
    assert.deepEqual(snap.states.map((s) => s.label), ['watching', 'catching up', 'connecting', 'listing', 'reconnecting', 'backing off', 'unreachable', 'unauthorized', 'credentials failed', 'forbidden', 'not found', 'process suspended', 'paused', 'stopped']);
    assert.ok(snap.states.every((s) => s.color.startsWith('var(--vscode-')), 'theme colours only');
    // V29 what a screen reader says of the band and the chart.
    assert.match(cms.summary, /^ctx\/configmaps in default: watching · rv \d+; over the last \w+: watching \w+.*; (no markers|\d+ markers?: )/);
    assert.match(cms.rateSummary, /^events over the last \w+: 3 adds, 0 updates, 0 deletes; at most 3\/s$/);
    assert.deepEqual(snap.timeFormat, { locale: 'en-US', timeZone: 'UTC', hourCycle: 'h23' }, 'the one time format, for the webview');
    recorder.dispose();
  });

  it('X01 two snapshots in the same second: the second one\'s open spans reach its own now, not the first one\'s', async () => {
    const { clock, recorder, model } = await started(['configmaps']);
    clock.advance(5000 - (clock.now() % 1000));
    const first = model.snapshot(clock.now());
    clock.advance(400);
    const second = model.snapshot(clock.now());
    assert.equal(Math.floor(first.now / 1000), Math.floor(second.now / 1000), 'the same second');
    assert.equal(first.watches[0].spans.at(-1)!.to, first.now);
    assert.equal(second.watches[0].spans.at(-1)!.to, second.now, 'the band ends at the panel\'s clock');
    assert.equal(second.watches[0].spans.at(-1)!.open, true);
    recorder.dispose();
  });

  it('the connection says HTTP/2 and the PING round trip when the stats carry them', () => {
    const stats = { lists: 0, relists: 0, watches: 0, expiries: 0, errors: 0, events: 0, objects: 0 };
    assert.equal(connectionText(stats), 'HTTP/1.1');
    assert.equal(connectionText({ ...stats, connection: { protocol: 'HTTP/2', pingRttMs: 2.6 } } as typeof stats), 'HTTP/2, PING 3 ms');
  });

  it('Copy as Markdown: a table of every watch, the outage and the markers with their log lines', async () => {
    const { clock, server, m, recorder, model } = await started(['configmaps']);
    await server.goDown();
    await until(() => m.entries()[0].state.phase !== 'watching', () => 'a failure');
    await server.comeUp();
    for (let i = 0; i < 90 && m.entries()[0].state.phase !== 'watching'; i++) {
      clock.advance(1000);
      await realSleep(20);
    }
    await m.restart(m.entries()[0].id, 'restart requested by a test');
    const md = healthMarkdown(model.snapshot(clock.now()));
    assert.match(md, /^# Kube Watch: watch health\n/);
    assert.match(md, /\| ctx\/configmaps in default \| (watching · rv \d+|listing|relisting) \| \d+ from a list/);
    assert.match(md, /(backing off|unreachable)[^\n]* for \d+s/);
    assert.match(md, /\[ctx\/configmaps in default\] restart requested by a test/);
    assert.doesNotMatch(md, /token-a/);
    recorder.dispose();
  });

  it('the feed sends at most one snapshot per 500 ms under a stream of changes, one a second while quiet, nothing once stopped', async () => {
    const { clock, server, m, recorder, model } = await started(['configmaps']);
    const sent: HealthSnapshot[] = [];
    const feed = new HealthFeed(recorder, (now) => model.snapshot(now), (s) => sent.push(s), clock);
    feed.start();
    assert.equal(sent.length, 1, 'one at once');
    assert.equal(feed.openTimers, 1);
    assert.equal(feed.openSubscriptions, 1);
    // 200 changes within 100 ms of the clock.
    for (let i = 0; i < 200; i++) server.create('configmaps', { metadata: { name: `burst${i}`, namespace: 'default' } });
    await until(() => m.entries()[0].stats.events >= 200, () => `${m.entries()[0].stats.events} events`);
    clock.advance(100);
    assert.equal(sent.length, 1, 'nothing before 500 ms');
    clock.advance(400);
    assert.equal(sent.length, 2, 'the changes at 500 ms');
    assert.equal(sent[1].watches[0].totals.adds, 0, 'the running second is not drawn yet');
    clock.advance(1000);
    assert.equal(sent.length, 3, 'the heartbeat a second later');
    assert.equal(sent[2].watches[0].totals.adds, 200);
    const times = sent.map((s) => s.now);
    for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= 500, times.join(' '));
    feed.stop();
    assert.equal(feed.openTimers, 0);
    assert.equal(feed.openSubscriptions, 0);
    server.create('configmaps', { metadata: { name: 'after', namespace: 'default' } });
    await until(() => m.entries()[0].stats.events >= 201, () => 'the add');
    clock.advance(5000);
    assert.equal(sent.length, 3, 'no snapshot after stop');
    assert.deepEqual(sent.map((s) => s.serial), [1, 2, 3]);
    recorder.dispose();
  });
});

describe('health panel in words (V29) and the suspended span', () => {
  it('V29 a band summary names the state now, the time in each state (the suspended minute too) and the markers by kind', () => {
    const spans = [
      { state: 'watching', from: 0, to: 60_000, open: false, title: 'watching' },
      { state: 'suspended', from: 60_000, to: 119_000, open: false, title: 'process suspended 59 s' },
      { state: 'unreachable', from: 119_000, to: 125_000, open: false, title: 'unreachable: connect ECONNREFUSED' },
      { state: 'watching', from: 125_000, to: 180_000, open: true, title: 'watching' },
    ];
    const text = bandSummary('pods', 'watching · rv 12', spans, [{ kind: 'expired' }, { kind: 'relist' }, { kind: 'relist' }], 180_000);
    assert.equal(text, 'pods: watching · rv 12; over the last 3m: watching 115s, process suspended 59s, unreachable 6s; 3 markers: 1 expiry, 2 relists');
  });
});
