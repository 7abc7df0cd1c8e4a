import assert from 'node:assert/strict';
import { Emitter, type Disposable } from '../../src/base';
import { resourceTypeName, type InformerState, type KubeObject, type ResourceType } from '../../src/informer';
import type { ManifestCluster, ObjectWatch, TypeWatch } from '../../src/manifests/manifest-cluster';
import { SharedWatches } from '../../src/manifests/shared-watches';

const deployments: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const synced: InformerState = { phase: 'watching', since: 0, synced: true };
const connecting: InformerState = { phase: 'connecting', since: 0, synced: false };
const obj = (ns: string, name: string, rv = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'X', metadata: { namespace: ns, name, resourceVersion: rv } });

/** A cluster whose watches the test drives: what is open, by the same names `describe()` uses. */
function fakeCluster() {
  const open = new Map<string, { state: InformerState; objects: Map<string, KubeObject>; changes: Emitter<string | undefined> }>();
  const log: string[] = [];
  const make = (key: string) => {
    const w = { state: connecting, objects: new Map<string, KubeObject>(), changes: new Emitter<string | undefined>() };
    open.set(key, w);
    log.push(`open ${key}`);
    return w;
  };
  const close = (key: string) => {
    open.delete(key);
    log.push(`close ${key}`);
  };
  const cluster = {
    watch(_spec: string, type: ResourceType, ns: string | undefined, name: string): ObjectWatch {
      const key = `${resourceTypeName(type)}/${ns ?? ''}/${name}`;
      const w = make(key);
      return { state: () => w.state, object: () => w.objects.get(name), onDidChange: (l: () => void): Disposable => w.changes.on(() => l()), dispose: () => close(key) };
    },
    watchAll(_spec: string, type: ResourceType, ns: string | undefined): TypeWatch {
      const key = `${resourceTypeName(type)}/${ns ?? ''}`;
      const w = make(key);
      return { state: () => w.state, get: (name) => w.objects.get(name), onDidChange: (l) => w.changes.on(l), dispose: () => close(key) };
    },
  } as Partial<ManifestCluster> as ManifestCluster;
  /** The server side: an object changed (or the state, with no name). */
  const set = (key: string, state: InformerState, objects: KubeObject[] = [], changed?: string) => {
    const w = open.get(key)!;
    w.state = state;
    for (const o of objects) w.objects.set(o.metadata.name ?? '', o);
    w.changes.fire(changed);
  };
  return { cluster, open, log, set };
}

/** The watches open a microtask after the names acquired in the same turn. */
const turn = () => new Promise<void>((r) => queueMicrotask(r));

describe('manifests: one watch per (context, type, namespace) however many documents', () => {
  it('a name alone in its type and namespace has its own watch; names sharing one get one watch of the type there', async () => {
    const f = fakeCluster();
    const w = new SharedWatches(f.cluster);
    const a = w.acquire('', deployments, 'shop', 'web');
    const b = w.acquire('', deployments, 'shop', 'api');
    const c = w.acquire('', deployments, 'shop', 'db');
    const d = w.acquire('', configmaps, 'shop', 'settings');
    const e = w.acquire('', deployments, 'prod', 'web');
    const again = w.acquire('', deployments, 'shop', 'web'); // a second document naming the same object
    assert.deepEqual(f.log, [], 'nothing opens before the names of this turn are known');
    assert.equal(a.state().phase, 'connecting');
    await turn();
    assert.deepEqual(f.log, ['open deployments.apps/shop', 'open configmaps/shop/settings', 'open deployments.apps/prod/web']);
    assert.equal(b.state().synced, false);
    f.set('deployments.apps/shop', synced, [obj('shop', 'web', '2'), obj('shop', 'api'), obj('shop', 'db')]);
    assert.deepEqual(w.describe(), ['configmaps/shop/settings', 'deployments.apps/prod/web', 'deployments.apps/shop']);
    assert.equal(a.object()?.metadata.resourceVersion, '2');
    assert.equal(again.object()?.metadata.resourceVersion, '2');
    assert.equal(c.object()?.metadata.name, 'db');
    for (const h of [a, b, c, d, e, again]) h.dispose();
    assert.deepEqual(w.describe(), []);
    assert.equal(f.open.size, 0, 'no watch left when the last document goes');
    w.dispose();
  });

  it('an object change reaches only the documents naming it; a state change reaches all', async () => {
    const f = fakeCluster();
    const w = new SharedWatches(f.cluster);
    const a = w.acquire('', deployments, 'shop', 'web');
    const b = w.acquire('', deployments, 'shop', 'api');
    await turn();
    f.set('deployments.apps/shop', synced, []);
    const told: string[] = [];
    a.onDidChange(() => told.push('web'));
    b.onDidChange(() => told.push('api'));
    f.set('deployments.apps/shop', synced, [obj('shop', 'api', '3')], 'api');
    assert.deepEqual(told, ['api']);
    f.set('deployments.apps/shop', { phase: 'backing-off', since: 1, synced: true }, [], undefined);
    assert.deepEqual(told, ['api', 'web', 'api']);
    w.dispose();
    assert.equal(f.open.size, 0);
  });

  it('a document added later joins the group watch; removed ones leave it; the last one closes it', async () => {
    const f = fakeCluster();
    const w = new SharedWatches(f.cluster);
    const a = w.acquire('', deployments, 'shop', 'web');
    await turn();
    f.set('deployments.apps/shop/web', synced, [obj('shop', 'web')]);
    assert.deepEqual(w.describe(), ['deployments.apps/shop/web']);
    const b = w.acquire('', deployments, 'shop', 'api'); // joins: the group goes wide
    // Until the group's watch has synced, web keeps its own watch and answers from it.
    assert.deepEqual(w.describe(), ['deployments.apps/shop', 'deployments.apps/shop/web']);
    assert.equal(a.state().synced, true);
    assert.equal(a.object()?.metadata.name, 'web');
    assert.equal(b.state().synced, false);
    f.set('deployments.apps/shop', synced, [obj('shop', 'web'), obj('shop', 'api')]);
    assert.deepEqual(w.describe(), ['deployments.apps/shop'], "web's own watch closed once the group's synced");
    const c = w.acquire('', deployments, 'shop', 'db'); // joins the open group watch, nothing new opened
    assert.deepEqual(w.describe(), ['deployments.apps/shop']);
    assert.equal(c.state().synced, true);
    assert.equal(c.object(), undefined);
    a.dispose();
    b.dispose();
    assert.deepEqual(w.describe(), ['deployments.apps/shop']);
    c.dispose();
    assert.deepEqual(w.describe(), []);
    assert.deepEqual(f.log, ['open deployments.apps/shop/web', 'open deployments.apps/shop', 'close deployments.apps/shop/web', 'close deployments.apps/shop']);
    // A new document after that starts afresh, alone in its group.
    const d = w.acquire('', deployments, 'shop', 'web');
    await turn();
    assert.deepEqual(w.describe(), ['deployments.apps/shop/web']);
    d.dispose();
    d.dispose();
    assert.equal(f.open.size, 0);
    w.dispose();
  });

  it('when listing the type there is forbidden, each name gets a watch of its own (RBAC by resourceNames)', async () => {
    const f = fakeCluster();
    const w = new SharedWatches(f.cluster);
    const a = w.acquire('', deployments, 'shop', 'web');
    const b = w.acquire('', deployments, 'shop', 'api');
    await turn();
    f.set('deployments.apps/shop', { phase: 'forbidden', since: 0, synced: false });
    assert.deepEqual(w.describe(), ['deployments.apps/shop/api', 'deployments.apps/shop/web']);
    f.set('deployments.apps/shop/web', synced, [obj('shop', 'web')]);
    assert.equal(a.object()?.metadata.name, 'web');
    const c = w.acquire('', deployments, 'shop', 'db');
    assert.deepEqual(w.describe(), ['deployments.apps/shop/api', 'deployments.apps/shop/db', 'deployments.apps/shop/web']);
    for (const h of [a, b, c]) h.dispose();
    assert.equal(f.open.size, 0);
    w.dispose();
  });

  it('documents gone before their watch opened open nothing', async () => {
    const f = fakeCluster();
    const w = new SharedWatches(f.cluster);
    w.acquire('', deployments, 'shop', 'web').dispose();
    w.acquire('', configmaps, 'shop', 'a');
    w.dispose();
    await turn();
    assert.deepEqual(f.log, []);
  });
});
