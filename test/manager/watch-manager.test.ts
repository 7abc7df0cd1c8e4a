import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base';
import { type Informer, type TimedLifecycleEvent } from '../../src/informer';
import { WatchManager, type WatchConfig, type WatchEntry } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { ManagerView, identityLine } from './manager-view';
import { until } from '../support/until';

/** Timers run this much faster than asked; the server's seconds are scaled alike. */
const SCALE = 50;
const SERVER_MS_PER_SECOND = 1000 / SCALE;

type Stored = { metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string } };

function serverLines(objs: Stored[]): string[] {
  return objs.map((o) => identityLine(o)).sort();
}

describe('watch manager', function () {
  this.timeout(40_000);
  let dir: string;
  let kubeconfig: string;
  const servers: FakeApiServer[] = [];
  const managers: WatchManager[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-manager-'));
    kubeconfig = path.join(dir, 'config');
  });

  afterEach(async () => {
    for (const m of managers.splice(0)) await m.stop();
    for (const s of servers.splice(0)) await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function server(token: string): Promise<FakeApiServer> {
    const s = await FakeApiServer.start({ timeScale: SERVER_MS_PER_SECOND, token });
    servers.push(s);
    return s;
  }

  /** A manager with a view fed only by its events, and every lifecycle event recorded. */
  function manager(config: Partial<WatchConfig>, clusterRegistry?: ClusterRegistry) {
    const m = new WatchManager(
      { contexts: [], resources: [], namespaces: [], kubeconfigPath: kubeconfig, ...config },
      { clock: acceleratedClock(SCALE, seededRandom(7)), informerOptions: { requestTimeoutMs: 600_000 }, kubeconfigDebounceMs: 20, clusterRegistry },
    );
    managers.push(m);
    const view = new ManagerView();
    m.addHandler(view);
    m.onObjectsRemoved((e) => view.removed(e));
    const lifecycle: { id: string; event: TimedLifecycleEvent }[] = [];
    m.onLifecycle((id, event) => lifecycle.push({ id, event }));
    return { m, view, lifecycle };
  }

  const describeEntries = (m: WatchManager) => () =>
    JSON.stringify(m.entries().map((e) => ({ label: e.label, phase: e.state.phase, synced: e.state.synced, error: e.error })));

  async function allSynced(m: WatchManager, count: number): Promise<WatchEntry[]> {
    await until(() => {
      const es = m.entries();
      return es.length === count && es.every((e) => e.informer && e.state.phase === 'watching' && e.state.synced);
    }, describeEntries(m));
    return m.entries();
  }

  function byResource(m: WatchManager, resource: string, namespace = 'default'): WatchEntry {
    const e = m.entries().find((x) => x.resource === resource && x.namespace === namespace);
    assert.ok(e, `an entry for ${resource} in ${namespace || '(all)'}`);
    return e;
  }

  it('watches two resources of one context, one informer each, on one shared transport', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
    a.create('pods', { metadata: { name: 'p1', namespace: 'default' }, spec: {} });
    const { m, view } = manager({ resources: ['configmaps', 'po'], namespaces: ['default'] });
    await m.start();
    const entries = await allSynced(m, 2);
    assert.deepEqual(entries.map((e) => `${e.context} ${e.type?.resource} ${e.namespace}`).sort(), ['ctx-a configmaps default', 'ctx-a pods default']);
    assert.equal(entries[0].informer?.options.transport, entries[1].informer?.options.transport, 'one transport per context');

    a.create('pods', { metadata: { name: 'p2', namespace: 'default' }, spec: {} });
    a.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
    const cm = byResource(m, 'configmaps').id;
    const po = byResource(m, 'po').id;
    await until(() => view.lines(po).length === 2, () => view.lines(po).join(', '));
    assert.deepEqual(view.lines(cm), serverLines(a.list('configmaps', 'default')));
    assert.deepEqual(view.lines(po), serverLines(a.list('pods', 'default')));
    await until(() => a.openWatches() === 2, () => `open watches ${a.openWatches()}`);
  });

  it('after a wake every watch logs "resumed", its connection is replaced, and it catches up from its resourceVersion', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
    const registry = new ClusterRegistry(false);
    const { m, view, lifecycle } = manager({ resources: ['configmaps', 'po'], namespaces: ['default'] }, registry);
    await m.start();
    const entries = await allSynced(m, 2);
    assert.ok(entries.every((e) => e.protocol === (process.env.FAKE_APISERVER_HTTP2 === '1' ? 'h2' : 'http/1.1')), 'the protocol is known once connected');
    const sockets = a.openSockets();
    registry.wake(95_000);
    const resumed = lifecycle.filter((l) => l.event.type === 'resumed');
    assert.deepEqual(resumed.map((l) => l.id).sort(), entries.map((e) => e.id).sort(), 'one "resumed" per watch');
    a.create('configmaps', { metadata: { name: 'cm2', namespace: 'default' } });
    const cm = byResource(m, 'configmaps').id;
    await until(() => view.lines(cm).length === 2, () => view.lines(cm).join(', '));
    await allSynced(m, 2);
    assert.ok(sockets > 0);
    assert.ok(!lifecycle.some((l) => l.event.type === 'list-started' && l.event.relist), 'no relist: re-watched from the resourceVersion');
    registry.dispose();
  });

  it('update() restarts only the informers whose key changed, and removes the objects of dropped ones', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } } });
    a.create('configmaps', { metadata: { name: 'db', namespace: 'default', labels: { app: 'db' } } });
    a.create('pods', { metadata: { name: 'p1', namespace: 'default' }, spec: {} });
    const config: WatchConfig = { contexts: [], resources: ['configmaps', 'pods'], namespaces: ['default'], kubeconfigPath: kubeconfig };
    const { m, view, lifecycle } = manager(config);
    await m.start();
    await allSynced(m, 2);
    const cmInformer: Informer | undefined = byResource(m, 'configmaps').informer;
    const podInformer: Informer | undefined = byResource(m, 'pods').informer;
    const quiet = (id: string) => !lifecycle.some((l) => l.id === id && (l.event.type === 'stopped' || l.event.type === 'restart'));

    // A namespace more: two new informers, the two old ones untouched.
    await m.update({ ...config, namespaces: ['default', 'other'] });
    await allSynced(m, 4);
    assert.equal(byResource(m, 'configmaps').informer, cmInformer);
    assert.equal(byResource(m, 'pods').informer, podInformer);
    assert.ok(quiet(byResource(m, 'configmaps').id) && quiet(byResource(m, 'pods').id), 'unchanged informers were neither stopped nor restarted');

    // A resource less: its informers stop and their objects are removed from the view.
    const podsId = byResource(m, 'pods').id;
    await m.update({ ...config, resources: ['configmaps'], namespaces: ['default', 'other'] });
    assert.deepEqual(m.entries().map((e) => e.resource), ['configmaps', 'configmaps']);
    assert.equal(byResource(m, 'configmaps').informer, cmInformer);
    assert.deepEqual(view.lines(podsId), []);
    assert.deepEqual(view.removals.find((r) => r.entryId === podsId)?.objects.map((o) => o.metadata.name), ['p1']);
    await until(() => a.openWatches() === 2, () => `open watches ${a.openWatches()}`);

    // Another selector: every informer is rebuilt, and the view follows the new selection.
    await m.update({ ...config, resources: ['configmaps'], namespaces: ['default'], labelSelector: 'app=web' });
    await allSynced(m, 1);
    const cm = byResource(m, 'configmaps');
    assert.notEqual(cm.informer, cmInformer);
    assert.equal(cmInformer?.isRunning, false);
    await until(() => view.lines(cm.id).length === 1, () => view.lines(cm.id).join(', '));
    assert.deepEqual(view.lines(cm.id), serverLines(a.list('configmaps', 'default').filter((o) => o.metadata.labels?.app === 'web')));
    await until(() => a.openWatches() === 1, () => `open watches ${a.openWatches()}`);
  });

  it('F21 kubeconfig change on disk restarts informers against the new configuration', async () => {
    const a = await server('token-a');
    const b = await server('token-b');
    a.writeKubeconfig(kubeconfig, { context: 'ctx-a', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'only-on-a', namespace: 'default' } });
    a.create('configmaps', { metadata: { name: 'shared-name', namespace: 'default' } });
    b.create('configmaps', { metadata: { name: 'shared-name', namespace: 'default' } });
    b.create('configmaps', { metadata: { name: 'only-on-b', namespace: 'default' } });
    const { m, view } = manager({ resources: ['configmaps'], namespaces: ['default'] });
    m.watchKubeconfigFiles();
    await m.start();
    const [before] = await allSynced(m, 1);
    assert.deepEqual(view.lines(before.id), serverLines(a.list('configmaps', 'default')));

    assert.equal(before.context, 'ctx-a');
    // Another current-context, on another server with another token, written over the same file.
    b.writeKubeconfig(kubeconfig, { context: 'ctx-b', token: 'token-b' });
    await until(
      () => view.lines(before.id).join('\n') === serverLines(b.list('configmaps', 'default')).join('\n'),
      () => `the view to hold B's objects; it holds ${view.lines(before.id).join(', ')}; ${describeEntries(m)()}`,
    );
    const after = byResource(m, 'configmaps');
    assert.equal(after.id, before.id, 'the entry follows the current-context; its informer is new');
    assert.equal(after.context, 'ctx-b');
    assert.notEqual(after.informer, before.informer);
    assert.equal(before.informer?.isRunning, false);
    // Every object of A was reported removed, none of B's.
    const removed = view.removals.flatMap((r) => r.objects.map(identityLine)).sort();
    assert.deepEqual(removed, serverLines(a.list('configmaps', 'default')));
    await until(() => a.openWatches() === 0, () => `A still has ${a.openWatches()} open watches`);
    await until(() => b.openWatches() === 1, () => `B has ${b.openWatches()} open watches`);
  });

  it('F21 rotated credentials restart the informers on a new transport and keep their cache', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
    const { m, view, lifecycle } = manager({ resources: ['configmaps'], namespaces: ['default'] });
    await m.start();
    const [entry] = await allSynced(m, 1);

    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'a-token-the-server-refuses' });
    await m.reloadKubeconfig('test');
    await until(() => byResource(m, 'configmaps').state.phase === 'unauthorized', describeEntries(m));
    assert.ok(lifecycle.some((l) => l.id === entry.id && l.event.type === 'restart' && /credentials changed/.test(l.event.reason)));
    assert.doesNotMatch(JSON.stringify(lifecycle), /a-token-the-server-refuses/, 'no credential in any lifecycle event');

    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    await m.reloadKubeconfig('test');
    await allSynced(m, 1);
    assert.equal(byResource(m, 'configmaps').informer, entry.informer, 'same informer, same cache');
    assert.deepEqual(view.removals, []);
    assert.deepEqual(view.lines(entry.id), serverLines(a.list('configmaps', 'default')));
  });

  it('F21 a context that disappears from the kubeconfig is stopped, its objects removed, and it comes back with the context', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
    const { m, view } = manager({ contexts: ['ctx'], resources: ['configmaps'], namespaces: ['default'] });
    await m.start();
    const [entry] = await allSynced(m, 1);

    a.writeKubeconfig(kubeconfig, { context: 'renamed', token: 'token-a' });
    await m.reloadKubeconfig('test');
    const gone = byResource(m, 'configmaps');
    assert.equal(gone.informer, undefined);
    assert.equal(gone.errorKind, 'context');
    assert.match(gone.error ?? '', /context "ctx" does not exist .*available contexts: renamed/);
    assert.deepEqual(view.lines(entry.id), []);
    await until(() => a.openWatches() === 0, () => `open watches ${a.openWatches()}`);

    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    await m.reloadKubeconfig('test');
    await allSynced(m, 1);
    assert.deepEqual(view.lines(entry.id), serverLines(a.list('configmaps', 'default')));
  });

  it('keeps resolution failures as entries: unknown resource, unknown context, unreadable kubeconfig', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    const { m } = manager({ contexts: ['ctx', 'nope'], resources: ['configmaps', 'foo'], namespaces: [] });
    await m.start();
    await until(() => m.entries().filter((e) => e.error).length === 3, describeEntries(m));
    const foo = m.entries().find((e) => e.context === 'ctx' && e.resource === 'foo');
    assert.equal(foo?.errorKind, 'unknown-resource');
    assert.equal(foo?.state.phase, 'not-found');
    assert.equal(foo?.error, 'the server has no resource type "foo"');
    const nope = m.entries().filter((e) => e.context === 'nope');
    assert.deepEqual(nope.map((e) => e.errorKind), ['context', 'context']);
    await until(() => byResource(m, 'configmaps', '').state.phase === 'watching', describeEntries(m));
    await m.stop();

    const { m: broken } = manager({ resources: ['configmaps'], namespaces: [], kubeconfigPath: path.join(dir, 'missing') });
    await broken.start();
    const [entry] = broken.entries();
    assert.equal(entry.errorKind, 'kubeconfig');
    assert.match(entry.error ?? '', /no such file/);
  });

  it('F22 a resource type installed after start is picked up by the manager', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    const { m, view } = manager({ resources: ['widgets.example.com'], namespaces: ['default'], maxBackoffMs: 2_000 });
    await m.start();
    await until(() => m.entries()[0]?.state.phase === 'not-found', describeEntries(m));
    a.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true });
    a.create('widgets.example.com', { metadata: { name: 'w1', namespace: 'default' }, spec: {} });
    const [entry] = await allSynced(m, 1);
    assert.equal(entry.type?.kind, 'Widget');
    assert.deepEqual(view.lines(entry.id), serverLines(a.list('widgets.example.com', 'default')));
  });

  it('stop() stops every informer and leaves no socket open', async () => {
    const a = await server('token-a');
    a.writeKubeconfig(kubeconfig, { context: 'ctx', token: 'token-a' });
    a.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
    const { m, view } = manager({ resources: ['configmaps', 'pods', 'deployments.apps'], namespaces: ['default', 'other'] });
    m.watchKubeconfigFiles();
    await m.start();
    const entries = await allSynced(m, 6);
    await m.stop();
    assert.deepEqual(m.entries(), []);
    assert.ok(entries.every((e) => e.informer && !e.informer.isRunning));
    assert.deepEqual(view.lines(), [], 'every object was reported removed');
    await until(() => a.openSockets() === 0, () => `${a.openSockets()} sockets still open`, 5_000);
    assert.equal(a.openWatches(), 0);
  });
});
