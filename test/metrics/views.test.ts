import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import type { WatchEntry } from '../../src/manager';
import { sparkline } from '../../src/metrics';
import { DescribeUsage, RowUsageDecorator } from '../../src/ui/metrics';
import { overviewSnapshot } from '../../src/ui/overview';
import type { NodePresentation } from '../../src/ui/tree/node-presentation';
import type { RowDecorationChange } from '../../src/ui/tree/row-decorator';
import { MetricsRig } from './metrics-rig';
import { until } from '../support/until';

const ROW: NodePresentation = { label: 'web-1', description: 'Running · 1/1', collapsible: 'none', contextValue: 'object' };

describe('metrics: the tree rows, Describe and the overview', function () {
  this.timeout(60_000);
  let rig: MetricsRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('HTTP/2: a drawn pod row fetches its namespace only, shows CPU and memory once sampled, and is let go when no longer drawn', async () => {
    rig = await MetricsRig.start(true);
    const hub = rig.hub();
    const rows = new RowUsageDecorator({ hub, clock: rig.clock, entryOf: (id) => ({ context: '', kind: id === 'pods' ? 'Pod' : 'Node' }) });
    const changes: RowDecorationChange[] = [];
    rows.onDidChange((c) => changes.push(c));
    const pod = rig.pod('shop', 'web-1');
    rig.pod('hidden', 'other');
    const row = { entryId: 'pods', namespace: 'shop', name: 'web-1', object: pod };
    assert.deepEqual(rows.decorate(row, ROW), ROW, 'nothing added before a sample');
    assert.equal(rows.tooltip(row), 'Usage: waiting for the first sample');
    await rig.advanceAndSettle(0);
    assert.deepEqual(rig.metricsRequests().map((r) => r.path), ['/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods']);
    assert.deepEqual(changes, [{ rows: [{ entryId: 'pods', namespace: 'shop', name: 'web-1' }] }], 'the drawn row is drawn again');
    const drawn = rows.decorate(row, ROW);
    assert.match(drawn.description!, /^Running · 1\/1 · \d+m \d+Mi$/);
    assert.match(rows.tooltip(row)!, /^Usage: CPU \d+m \(no request set\), memory \d+Mi \(no limit set\); sampled \d+s ago over 15s/);
    // Not drawn again (collapsed): let go within two sweeps of three intervals, and nothing more is asked.
    for (let i = 0; i < 7; i++) {
      rig.clock.advance(15_000);
      await until(() => !hub.cluster('').busy, 'the round to end');
    }
    const asked = rig.metricsRequests().length;
    assert.equal(rows.heldShowings, 0);
    assert.equal(hub.cluster('').scheduled, false, 'no timer left');
    rig.clock.advance(120_000);
    assert.equal(rig.metricsRequests().length, asked);
    rows.dispose();
  });

  it('HTTP/1.1: a pod description gets a Usage section with its sample and, after several samples, a sparkline of the session', async () => {
    rig = await MetricsRig.start(false);
    const hub = rig.hub();
    const usage = new DescribeUsage(hub, rig.clock);
    const pod = rig.pod('shop', 'web-1', { resources: { requests: { cpu: '10m' }, limits: { memory: '1Gi' } } });
    const target = { spec: '', kind: 'Pod', namespace: 'shop' };
    assert.deepEqual(usage.lines(target, pod, rig.clock.now()), ['Usage (metrics.k8s.io):', '  waiting for the first sample']);
    await rig.advanceAndSettle(0);
    for (let i = 0; i < 3; i++) {
      usage.lines(target, pod, rig.clock.now());
      await rig.advanceAndSettle(15_000);
    }
    const lines = usage.lines(target, pod, rig.clock.now())!;
    assert.match(lines[1], /^ {2}CPU: {5}\d+m \(\d+% of request\)$/);
    assert.match(lines[2], /^ {2}Memory: {2}\d+Mi \(\d+% of limit\)$/);
    assert.match(lines[3], /^ {2}main: \d+m, \d+Mi$/);
    assert.match(lines[4], /^ {2}Sample: {2}sampled \d+s ago over 15s \(/);
    assert.match(lines[5], /^ {2}CPU over the session: {4}[▁▂▃▄▅▆▇█]{4} \(4 samples\)$/);
    assert.equal(usage.lines({ ...target, kind: 'ConfigMap' }, pod, rig.clock.now()), undefined);
    usage.dispose();
  });

  it('sparkline: scaled to its own maximum', () => {
    assert.equal(sparkline([0, 50, 100]), '▁▄█');
    assert.equal(sparkline([0, 0]), '▁▁');
    assert.equal(sparkline([]), '');
  });

  it('overview: counts per kind from the watches, warnings of the last hour only, and says when Events or Nodes are not watched', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    const obj = (kind: string, name: string, extra: object = {}) => ({ apiVersion: 'v1', kind, metadata: { name, namespace: 'shop' }, ...extra }) as KubeObject;
    const entry = (id: string, kind: string, group: string, resource: string, objects: KubeObject[], synced = true) =>
      ({
        id,
        context: 'kind-dev',
        resource,
        namespace: '',
        label: resource,
        type: { group, version: 'v1', resource, kind, namespaced: true },
        informer: { list: () => objects, resourceVersion: '1' },
        state: { phase: synced ? 'watching' : 'listing', since: now - 1000, synced },
        stats: { lists: 1, relists: 0, watches: 1, expiries: 0, errors: 0 },
      }) as unknown as WatchEntry;
    const ago = (ms: number) => new Date(now - ms).toISOString();
    const events = [
      obj('Event', 'e1', { type: 'Warning', reason: 'BackOff', message: 'Back-off restarting', count: 6, lastTimestamp: ago(60_000), involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'shop' } }),
      obj('Event', 'e2', { type: 'Warning', reason: 'Old', message: 'long ago', lastTimestamp: ago(2 * 3600_000), involvedObject: { kind: 'Pod', name: 'x' } }),
      obj('Event', 'e3', { type: 'Normal', reason: 'Pulled', lastTimestamp: ago(1000), involvedObject: { kind: 'Pod', name: 'x' } }),
    ];
    const s = overviewSnapshot({
      context: '',
      title: 'kind-dev',
      now,
      entries: [entry('p', 'Pod', '', 'pods', [obj('Pod', 'a'), obj('Pod', 'b')]), entry('d', 'Deployment', 'apps', 'deployments', [obj('Deployment', 'web')]), entry('e', 'Event', '', 'events', events)],
    });
    assert.deepEqual(s.counts.map((c) => [c.kind, c.count, c.resource]), [['Deployment', 1, 'deployments.apps'], ['Event', 3, 'events'], ['Pod', 2, 'pods']]);
    assert.equal(s.warningCount, 1);
    assert.deepEqual(s.warnings?.map((w) => [w.reason, w.object, w.count]), [['BackOff', 'Pod shop/web-1', 6]]);
    assert.equal(s.eventsNote, undefined);
    assert.match(s.nodesNote!, /^Nodes are not watched/);
    assert.equal(s.health, '3/3 watching');
    const unwatched = overviewSnapshot({ context: '', title: 'kind-dev', now, entries: [entry('p', 'Pod', '', 'pods', [], false)] });
    assert.equal(unwatched.warnings, undefined);
    assert.match(unwatched.eventsNote!, /^Events are not watched/);
    assert.deepEqual(unwatched.counts.map((c) => [c.kind, c.count, c.note]), [['Pod', undefined, 'listing…']]);
  });
});

describe('overview: a count names its kind as a table does', () => {
  it('deployments.apps opens deployments of apps; pods stays pods', async () => {
    const { pluralOf } = await import('../../src/ui/overview');
    assert.equal(pluralOf({ group: 'apps', resource: 'deployments.apps' }), 'deployments');
    assert.equal(pluralOf({ group: '', resource: 'pods' }), 'pods');
    assert.equal(pluralOf({ group: 'example.com', resource: 'widgets.example.com' }), 'widgets');
  });
});
