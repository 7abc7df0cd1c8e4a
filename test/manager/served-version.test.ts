import assert from 'node:assert/strict';
import type { TimedLifecycleEvent } from '../../src/informer';
import type { WatchManager } from '../../src/manager';
import type { ResourceDefinition } from '../support/apiserver';
import { until } from '../support/until';
import { allSynced, describeEntries, ManagerRig, serverLines } from './manager-rig';

/**
 * F39, F40 and F30 through the manager, the real transport and the local API server: a 404
 * never empties the cache by itself; discovery decides whether the type moved to another
 * version (the watch follows, with no net deletions), is served still (the cache stays, drawn
 * stale), or is gone in every version (only then are its objects removed).
 */

const WIDGETS_V1BETA1: ResourceDefinition = { group: 'example.com', version: 'v1beta1', resource: 'widgets', kind: 'Widget', namespaced: true };
const CRD_TYPE: ResourceDefinition = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false };
const NOT_FOUND_STATUS = { type: 'status', code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' } as const;
/** A fixed watch timeout of an hour (72 s real): no watch ends by itself during a test. */
const LONG_WATCHES = { timeoutSeconds: 3600 };

function widgetCrd(versions: { name: string; served: boolean; storage: boolean }[]) {
  return { metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', names: { plural: 'widgets', kind: 'Widget' }, scope: 'Namespaced', versions } };
}

type Lifecycle = { id: string; event: TimedLifecycleEvent }[];

function restartReasons(lifecycle: Lifecycle): string[] {
  return lifecycle.flatMap((l) => (l.event.type === 'restart' ? [l.event.reason] : []));
}

function warnings(lifecycle: Lifecycle): string[] {
  return lifecycle.flatMap((l) => (l.event.type === 'warning' ? [l.event.message] : []));
}

/** Waits until the only entry watches `version`, synced, and the view equals the server's widgets. */
async function movedTo(m: WatchManager, rig: ManagerRig, view: { lines(id?: string): string[] }, version: string): Promise<void> {
  await until(() => {
    const [e] = m.entries();
    return e?.type?.version === version && e.informer?.state.phase === 'watching' && e.state.synced;
  }, describeEntries(m));
  await until(
    () => view.lines().join() === serverLines(rig.server.list('widgets.example.com', 'default')).join(),
    () => `the view ${view.lines().join(', ')} to equal the server`,
  );
}

describe('watch manager: types whose served version moves (F39, F40, F30)', function () {
  this.timeout(40_000);
  let rig: ManagerRig;

  beforeEach(async () => {
    rig = await ManagerRig.start();
  });

  afterEach(async () => {
    await rig.close();
  });

  /** Widgets served as v1beta1, two of them, watched in "default" by a new manager. */
  async function watchingWidgets(config = {}) {
    rig.server.defineResource(WIDGETS_V1BETA1);
    rig.server.create('widgets.example.com', { metadata: { name: 'w-1', namespace: 'default' }, spec: { size: 1 } });
    rig.server.create('widgets.example.com', { metadata: { name: 'w-2', namespace: 'default' }, spec: { size: 2 } });
    const watched = rig.manager({ resources: ['widgets.example.com'], namespaces: ['default'], ...config });
    await watched.m.start();
    const [entry] = await allSynced(watched.m, 1);
    assert.equal(entry.type?.version, 'v1beta1');
    assert.deepEqual(watched.view.lines(), serverLines(rig.server.list('widgets.example.com', 'default')));
    return { ...watched, entry };
  }

  /** The objects the view holds, each with its apiVersion. */
  function apiVersions(view: { objects: Map<string, Map<string, { apiVersion?: string; metadata: { name?: string } }>> }): string[] {
    return [...view.objects.values()].flatMap((m) => [...m.values()].map((o) => `${o.metadata.name} ${o.apiVersion}`)).sort();
  }

  it('F39 v1beta1 stops being served while v1 is (404 on the watch): discovery runs again and the watch moves to v1 with no deletions', async () => {
    const { m, view, deletes, lifecycle } = await watchingWidgets();
    // The CRD now serves v1 only; the objects stay in storage. A change lands meanwhile.
    rig.server.stopServing('widgets.example.com');
    rig.server.defineResource({ ...WIDGETS_V1BETA1, version: 'v1' });
    rig.server.resumeServing('widgets.example.com');
    rig.server.update('widgets.example.com', { metadata: { name: 'w-1', namespace: 'default' }, spec: { size: 10 } });
    rig.server.create('widgets.example.com', { metadata: { name: 'w-3', namespace: 'default' }, spec: { size: 3 } });
    await movedTo(m, rig, view, 'v1');

    assert.deepEqual(deletes, [], 'no handler saw a delete');
    assert.deepEqual(view.removals, [], 'no objects were reported removed');
    assert.deepEqual(apiVersions(view), ['w-1 example.com/v1', 'w-2 example.com/v1', 'w-3 example.com/v1'], 'every object as v1 shows it');
    assert.ok(
      restartReasons(lifecycle).some((r) => r === 'widgets.example.com moved from v1beta1 to v1 (after a 404)'),
      `a restart line says why: ${restartReasons(lifecycle).join(' | ')}`,
    );
    assert.ok(rig.server.requests.some((r) => r.verb === 'watch' && r.path === '/apis/example.com/v1/namespaces/default/widgets'), 'watching v1');
    assert.ok(rig.server.requests.some((r) => r.path === '/apis' && r.status === 200), 'discovery ran again');
  });

  it('F39 the CRD watch sees the served versions change: the watch moves before any 404', async () => {
    rig.server.defineResource(CRD_TYPE);
    rig.server.create('customresourcedefinitions.apiextensions.k8s.io', widgetCrd([{ name: 'v1beta1', served: true, storage: true }]));
    const { m, view, deletes, lifecycle, entry } = await watchingWidgets(LONG_WATCHES);
    await until(() => m.customResourceDefinition(entry.id), 'the CRD to be listed');
    // v1 added and preferred, v1beta1 no longer served; the open v1beta1 watch is left open.
    rig.server.defineResource({ ...WIDGETS_V1BETA1, version: 'v1' });
    const crd = rig.server.get('customresourcedefinitions.apiextensions.k8s.io', undefined, 'widgets.example.com')!;
    rig.server.update('customresourcedefinitions.apiextensions.k8s.io', {
      ...crd,
      ...widgetCrd([
        { name: 'v1beta1', served: false, storage: false },
        { name: 'v1', served: true, storage: true },
      ]),
    });
    await movedTo(m, rig, view, 'v1');
    assert.deepEqual(restartReasons(lifecycle), ['widgets.example.com moved from v1beta1 to v1 (its CustomResourceDefinition changed)']);
    assert.ok(!rig.server.requests.some((r) => r.resource === 'widgets.example.com' && r.status === 404), 'no 404 was needed');
    assert.deepEqual(deletes, []);
    assert.deepEqual(view.removals, []);
  });

  it('F39 Restart re-resolves the type: a version that moved under an open watch is followed', async () => {
    const { m, view, deletes, lifecycle, entry } = await watchingWidgets(LONG_WATCHES);
    rig.server.defineResource({ ...WIDGETS_V1BETA1, version: 'v1' });
    assert.equal(m.entries()[0].type?.version, 'v1beta1', 'nothing has told the manager yet');
    await m.restart(entry.id, 'restart requested');
    await movedTo(m, rig, view, 'v1');
    assert.ok(restartReasons(lifecycle).includes('widgets.example.com moved from v1beta1 to v1 (found on restart)'), restartReasons(lifecycle).join(' | '));
    assert.deepEqual(deletes, []);
    assert.deepEqual(view.removals, []);
  });

  it('F40 a transient 404 while discovery still serves the type: the cache is kept and the entry says not-found, then it resumes', async () => {
    for (let i = 0; i < 3; i++) rig.server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' } });
    const { m, view, deletes, lifecycle } = rig.manager({ resources: ['configmaps'], namespaces: ['default'] });
    await m.start();
    await allSynced(m, 1);
    const before = view.lines();
    rig.server.injectFault(NOT_FOUND_STATUS, { verb: 'watch', resource: 'configmaps', times: 1 });
    rig.server.injectFault(NOT_FOUND_STATUS, { verb: 'list', resource: 'configmaps', times: 3 });
    rig.server.dropWatches('end', 'configmaps');
    await until(() => m.entries()[0]?.state.phase === 'not-found', describeEntries(m));
    await until(() => warnings(lifecycle).some((w) => w.startsWith('discovery still serves configmaps as v1')), () => warnings(lifecycle).join(' | '));
    assert.deepEqual(view.lines(), before, 'the objects stay');
    assert.ok(m.entries()[0].state.synced, 'drawn stale, not emptied');
    rig.server.create('configmaps', { metadata: { name: 'after', namespace: 'default' } });
    await allSynced(m, 1);
    await until(() => view.lines().join() === serverLines(rig.server.list('configmaps', 'default')).join(), () => view.lines().join(', '));
    assert.deepEqual(deletes, []);
    assert.deepEqual(view.removals, []);
  });

  it('F40 discovery that leaves the type out once (a lagging replica) is asked again before anything is removed', async () => {
    for (let i = 0; i < 3; i++) rig.server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' } });
    const { m, view, deletes, lifecycle } = rig.manager({ resources: ['configmaps'], namespaces: ['default'] }, { confirmGoneMs: 60_000 });
    // The replica catches up as soon as the manager has seen discovery without the type once.
    m.onLifecycle((_id, event) => {
      if (event.type === 'warning' && event.message.startsWith('discovery lists configmaps in no version')) rig.server.resumeServing('configmaps');
    });
    await m.start();
    await allSynced(m, 1);
    const before = view.lines();
    rig.server.stopServing('configmaps');
    await until(() => warnings(lifecycle).some((w) => w.startsWith('discovery still serves configmaps')), () => warnings(lifecycle).join(' | '));
    assert.ok(
      warnings(lifecycle).some((w) => w === 'discovery lists configmaps in no version: asking again in 60 s before removing its objects'),
      warnings(lifecycle).join(' | '),
    );
    assert.deepEqual(view.lines(), before);
    await allSynced(m, 1);
    assert.deepEqual(deletes, []);
    assert.deepEqual(view.removals, []);
  });

  it('F30 the watched version stops being served and discovery confirms the type is gone in every version: objects removed, state not-found, picked up again once served', async () => {
    for (let i = 0; i < 3; i++) rig.server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' } });
    const { m, view, lifecycle } = rig.manager({ resources: ['configmaps'], namespaces: ['default'] });
    await m.start();
    const [entry] = await allSynced(m, 1);
    const cached = view.lines();
    rig.server.stopServing('configmaps');
    await until(() => view.removals.length > 0, describeEntries(m));
    assert.deepEqual(view.removals.map((r) => [r.entryId, r.reason]), [[entry.id, 'the server no longer serves configmaps in any version']]);
    assert.deepEqual(serverLines(view.removals[0].objects).sort(), cached, 'every cached object removed');
    assert.deepEqual(view.lines(), []);
    const gone = warnings(lifecycle).indexOf('discovery lists configmaps in no version: asking again in 10 s before removing its objects');
    assert.ok(gone >= 0, 'asked twice: the first answer only warned');
    await until(() => m.entries()[0]?.state.phase === 'not-found' && m.entries()[0].errorKind === 'unknown-resource', describeEntries(m));
    assert.equal(m.entries()[0].error, 'the server has no resource type "configmaps"');
    assert.equal(m.entries()[0].informer, undefined);
    // Served again, with a change made meanwhile: picked up by the slow retry.
    rig.server.create('configmaps', { metadata: { name: 'while-gone', namespace: 'default' } });
    rig.server.resumeServing('configmaps');
    await allSynced(m, 1);
    await until(() => view.lines().join() === serverLines(rig.server.list('configmaps', 'default')).join(), () => view.lines().join(', '));
  });
});
