import assert from 'node:assert/strict';
import { CORE_EVENTS, EVENTS_V1, EventsFeeds } from '../../src/events';
import { EVENTS_V1 as SERVED_EVENTS_V1 } from '../support/apiserver';
import { acceleratedClock } from '../../src/base';
import { UiRig, until } from '../ui/lifecycle-rig';

function coreEvent(namespace: string, name: string, type = 'Warning') {
  const now = new Date().toISOString();
  return { metadata: { namespace, name }, involvedObject: { kind: 'Pod', namespace, name: 'web-1' }, reason: 'BackOff', message: 'Back-off restarting', type, count: 3, firstTimestamp: now, lastTimestamp: now, source: { component: 'kubelet' } };
}

/**
 * The feed through the real stack (WatchManager, ad-hoc informers, our transport) against the
 * local API server: events.k8s.io first, core Events where the group is not served; a deleted
 * Event stays; an outage of the server is a gap from its start to the watch's return.
 */
describe('events: the feed on the local API server', () => {
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  async function started(served: boolean, resources = ['configmaps'], before?: (server: Awaited<ReturnType<UiRig['server']>>) => void) {
    const server = await rig.server({ token: 't' });
    if (served) server.defineResource(SERVED_EVENTS_V1);
    before?.(server);
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 't' });
    const clock = acceleratedClock(50);
    const manager = rig.manager({ resources }, clock);
    await manager.start();
    await until(() => manager.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase])));
    const feeds = new EventsFeeds(manager, clock);
    const feed = feeds.feed('')!;
    await until(() => [...feed.status().phases.values()].includes('watching'), () => JSON.stringify({ ...feed.status(), phases: [...feed.status().phases] }));
    return { server, manager, feeds, feed };
  }

  it('reads the tree\'s own watch of core Events where it covers the scope: no second watch, and what it listed before comes in', async () => {
    const { server, manager, feeds, feed } = await started(true, ['configmaps', 'events'], (s) => s.create('events', coreEvent('shop', 'listed-before')));
    try {
      assert.equal(manager.adHocWatchCount, 0, 'no watch of its own');
      assert.deepEqual(feed.status().scope?.type, CORE_EVENTS);
      await until(() => feed.store.get(feed.store.records()[0]?.uid ?? '')?.name === 'listed-before', () => JSON.stringify(feed.store.records()));
      server.create('events', coreEvent('shop', 'after'));
      await until(() => feed.store.size === 2, () => JSON.stringify(feed.store.records()));
    } finally {
      feeds.dispose();
    }
  });

  it('falls back to core Events where events.k8s.io is not served, and keeps a deleted Event', async () => {
    const { server, feeds, feed } = await started(false);
    try {
      assert.deepEqual(feed.status().scope?.type, CORE_EVENTS);
      server.create('events', coreEvent('shop', 'web-1.a'));
      await until(() => feed.store.size === 1, () => JSON.stringify(feed.store.records()));
      assert.equal(feed.store.records()[0].count, 3);
      server.delete('events', 'shop', 'web-1.a');
      await until(() => feed.store.records()[0]?.deleted === true, () => JSON.stringify(feed.store.records()));
    } finally {
      feeds.dispose();
    }
  });

  it('watches events.k8s.io where it is served', async () => {
    const { feeds, feed } = await started(true);
    try {
      assert.deepEqual(feed.status().scope?.type, EVENTS_V1);
    } finally {
      feeds.dispose();
    }
  });

  it('an outage of the server is a gap, open while it is down and closed once the watch is back', async () => {
    const { server, feeds, feed } = await started(false);
    try {
      assert.deepEqual(feed.gaps(), []);
      await server.goDown();
      await until(() => feed.gaps().some((g) => g.kind === 'down' && g.end === undefined), () => JSON.stringify(feed.gaps()));
      await server.comeUp();
      await until(() => [...feed.status().phases.values()].includes('watching') && feed.gaps().every((g) => g.end !== undefined), () => JSON.stringify(feed.gaps()));
      const [gap] = feed.gaps();
      assert.equal(gap.kind, 'down');
      assert.ok(gap.end! >= gap.start);
    } finally {
      feeds.dispose();
    }
  });
});
