import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { EVENTS_V1, EventsFeeds, type EventsFeed } from '../../src/events';
import { WatchManager } from '../../src/manager';
import { PROTOCOLS, REAL_BOUND_MS, REAL_INFORMER_DEFAULTS, uniqueName, until, useControlPlane, type ControlPlane, type Protocol } from './support';

/** A MicroTime as the server writes it: six fraction digits. */
function micro(at: number): string {
  return new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * The remembering events feed (issue 33 item 2) on a real kube-apiserver 1.34 with RBAC: an
 * events.k8s.io/v1 Event with a series and a core v1 Event with a count read into the same
 * record (the feed watches events.k8s.io, so the core one arrives converted: deprecatedCount,
 * deprecatedLastTimestamp, deprecatedSource); a deleted Event stays; a user who may read events
 * in one namespace only is watched there, never asked cluster wide, never refused.
 */
describe('[real] events feed (kube-apiserver 1.34, RBAC)', function () {
  this.timeout(120_000);
  const LIMITED = 'ev-limited';
  const plane = useControlPlane({ audit: true, limitedNamespaces: [LIMITED] });
  const cleanups: (() => Promise<void> | void)[] = [];

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function feedAs(p: ControlPlane, protocol: Protocol, user: 'admin' | 'limited', contextNamespace?: string): Promise<EventsFeed> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-events-'));
    const kubeconfig = path.join(dir, 'config');
    fs.writeFileSync(kubeconfig, p.kubeconfig(user, contextNamespace ? { namespace: contextNamespace } : {}));
    const registry = new ClusterRegistry(false);
    const manager = new WatchManager(
      { contexts: [], resources: ['configmaps'], namespaces: contextNamespace ? [contextNamespace] : [], kubeconfigPath: kubeconfig },
      { clock: systemClock, clusterRegistry: registry, transportFactory: kubeConfigTransportFactoryWith(registry, { http2: protocol === 'h2' }), informerOptions: { backoff: REAL_INFORMER_DEFAULTS.backoff } },
    );
    const feeds = new EventsFeeds(manager, systemClock);
    cleanups.push(async () => {
      feeds.dispose();
      await manager.stop();
      registry.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    await manager.start();
    const feed = feeds.feed('');
    assert.ok(feed);
    await until(() => [...feed.status().phases.values()].some((phase) => phase === 'watching'), () => JSON.stringify({ ...feed.status(), phases: [...feed.status().phases] }), REAL_BOUND_MS);
    return feed;
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`[real] ${label}: an events.k8s.io/v1 Event with a series and a core v1 Event with a count read the same way; a deleted one stays`, async () => {
      const p = plane();
      const ns = await p.setup.namespace(uniqueName('ev'));
      const feed = await feedAs(p, protocol, 'admin');
      assert.deepEqual(feed.status().scope, { type: EVENTS_V1, namespaces: [''], limited: false }, 'the admin watches cluster wide, events.k8s.io first');
      const now = Date.now() - 5_000;
      await p.admin.post(`/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'web-1.series', namespace: ns },
        eventTime: micro(now - 60_000),
        series: { count: 5, lastObservedTime: micro(now) },
        reportingController: 'kube-watch.test/prober',
        reportingInstance: 'prober-1',
        action: 'Probing',
        reason: 'BackOff',
        note: 'Back-off restarting failed container',
        type: 'Warning',
        regarding: { kind: 'Pod', namespace: ns, name: 'web-1', apiVersion: 'v1' },
      });
      await p.admin.post(`/api/v1/namespaces/${ns}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'db-0.count', namespace: ns },
        involvedObject: { kind: 'Pod', namespace: ns, name: 'db-0', apiVersion: 'v1' },
        reason: 'Unhealthy',
        message: 'Readiness probe failed',
        type: 'Warning',
        count: 7,
        firstTimestamp: new Date(now - 120_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        lastTimestamp: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        source: { component: 'kubelet', host: 'node-a' },
      });
      const mine = () => feed.store.records().filter((r) => r.namespace === ns);
      await until(() => mine().length === 2, () => JSON.stringify(mine()), REAL_BOUND_MS);
      const series = mine().find((r) => r.name === 'web-1.series')!;
      const counted = mine().find((r) => r.name === 'db-0.count')!;
      assert.deepEqual(
        { count: series.count, lastSeen: series.lastSeen, firstSeen: series.firstSeen, reporter: series.reporter, subject: [series.subject.kind, series.subject.name], message: series.message, type: series.type },
        { count: 5, lastSeen: Date.parse(micro(now)), firstSeen: Date.parse(micro(now - 60_000)), reporter: 'kube-watch.test/prober, prober-1', subject: ['Pod', 'web-1'], message: 'Back-off restarting failed container', type: 'Warning' },
      );
      assert.deepEqual(
        { count: counted.count, lastSeen: counted.lastSeen, reporter: counted.reporter, subject: [counted.subject.kind, counted.subject.name], message: counted.message, type: counted.type },
        { count: 7, lastSeen: Math.floor(now / 1000) * 1000, reporter: 'kubelet, node-a', subject: ['Pod', 'db-0'], message: 'Readiness probe failed', type: 'Warning' },
      );
      // The server's TTL ends an Event with a delete: the feed keeps it.
      await p.admin.delete(`/api/v1/namespaces/${ns}/events/db-0.count`);
      await until(() => mine().find((r) => r.name === 'db-0.count')?.deleted === true, () => JSON.stringify(mine()), REAL_BOUND_MS);
      assert.equal(mine().length, 2);
    });

    it(`[real] ${label}: a user who may read events in one namespace only gets a watch there, never a cluster-wide request or a 403`, async () => {
      const p = plane();
      const startedAt = new Date().toISOString();
      const feed = await feedAs(p, protocol, 'limited', LIMITED);
      assert.deepEqual(feed.status().scope, { type: EVENTS_V1, namespaces: [LIMITED], limited: true });
      const name = uniqueName('probe');
      await p.admin.post(`/api/v1/namespaces/${LIMITED}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: LIMITED },
        involvedObject: { kind: 'ConfigMap', namespace: LIMITED, name: 'settings' },
        reason: 'Checked',
        message: 'seen by the limited user',
        type: 'Normal',
      });
      await until(() => feed.store.records().some((r) => r.name === name), () => JSON.stringify(feed.store.records().map((r) => r.name)), REAL_BOUND_MS);
      const limited = p.requests((e) => e.user.username === 'limited' && e.requestReceivedTimestamp >= startedAt);
      const events = limited.filter((e) => e.objectRef?.resource === 'events');
      assert.ok(events.length > 0, 'the limited user watched events');
      assert.deepEqual(events.filter((e) => !e.objectRef?.namespace).map((e) => e.requestURI), [], 'never cluster wide');
      assert.deepEqual(limited.filter((e) => e.responseStatus?.code === 403).map((e) => e.requestURI), [], 'never refused');
      assert.ok(events.every((e) => e.objectRef?.apiGroup === 'events.k8s.io'), 'on events.k8s.io');
    });
  }
});
