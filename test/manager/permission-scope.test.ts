import assert from 'node:assert/strict';
import type { WatchEntry, WatchManager } from '../../src/manager';
import type { PolicyRule } from '../support/apiserver/access-policy';
import { until } from '../support/until';
import { ManagerRig, describeEntries, serverLines } from './manager-rig';

/** RBAC of a user of a shared cluster: pods and configmaps in payments and shop, configmaps everywhere, namespaces listed. */
const NAMESPACE_USER: PolicyRule[] = [
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'events'], namespaces: ['payments', 'shop'], binding: 'team' },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], binding: 'configmap-reader' },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'], binding: 'namespace-lister' },
];

const pod = (namespace: string, name: string) => ({ metadata: { namespace, name }, spec: { containers: [{ name: 'main', image: 'nginx' }] }, status: { phase: 'Running' } });

/** Until every entry either watches, synced, or is not allowed. */
async function settled(m: WatchManager, count: number): Promise<WatchEntry[]> {
  await until(() => {
    const es = m.entries();
    return es.length === count && es.every((e) => (e.informer && e.state.phase === 'watching' && e.state.synced) || e.errorKind === 'not-allowed');
  }, describeEntries(m));
  return m.entries();
}

describe('watch manager: scope from permissions (issue 23, part 2)', function () {
  this.timeout(40_000);
  let rig: ManagerRig;

  beforeEach(async () => {
    rig = await ManagerRig.start();
    for (const ns of ['batch', 'default', 'payments', 'shop']) {
      rig.server.create('namespaces', { metadata: { name: ns } });
      rig.server.create('pods', pod(ns, `${ns}-pod`));
      rig.server.create('configmaps', { metadata: { namespace: ns, name: `${ns}-config` } });
    }
  });

  afterEach(() => rig.close());

  it('V18 a user who may list pods only in some namespaces gets a watch per namespace they may list, never a refused one; configmaps stay cluster wide', async () => {
    rig.server.access.setRules(NAMESPACE_USER);
    const { m, view } = rig.manager({ resources: ['pods', 'configmaps'] });
    await m.start();
    const entries = await settled(m, 3);
    const pods = entries.filter((e) => e.resource === 'pods');
    assert.deepEqual(pods.map((e) => e.namespace).sort(), ['payments', 'shop']);
    assert.ok(pods.every((e) => e.limitedByAccess === true && e.informer && !e.error));
    const configmaps = entries.find((e) => e.resource === 'configmaps');
    assert.equal(configmaps?.namespace, '');
    assert.equal(configmaps?.limitedByAccess, undefined);
    await until(() => view.lines().length === 2 + 4, () => view.lines().join('\n'));
    assert.deepEqual(
      view.lines().filter((l) => l.includes('-pod')),
      serverLines([...rig.server.list('pods', 'payments'), ...rig.server.list('pods', 'shop')]),
    );
    // Nothing was ever refused: no pod request outside what RBAC allows.
    const refused = rig.server.requests.filter((r) => r.status === 403);
    assert.deepEqual(refused.map((r) => `${r.method} ${r.path}`), []);
  });

  it('V19 a type forbidden everywhere is one quiet entry: no informer, nothing listed, the reason in words', async () => {
    rig.server.access.setRules(NAMESPACE_USER);
    const { m, lifecycle } = rig.manager({ resources: ['secrets', 'configmaps'] });
    await m.start();
    const entries = await settled(m, 2);
    const secrets = entries.find((e) => e.resource === 'secrets');
    assert.ok(secrets);
    assert.equal(secrets.errorKind, 'not-allowed');
    assert.equal(secrets.namespace, '');
    assert.equal(secrets.informer, undefined);
    assert.equal(secrets.state.phase, 'stopped');
    assert.match(secrets.error ?? '', /you may not list and watch secrets in any namespace/);
    assert.equal(rig.server.requests.filter((r) => r.resource === 'secrets').length, 0, 'no secrets request at all');
    assert.ok(lifecycle.some((l) => l.id === secrets.id && l.event.type === 'warning' && /not allowed for you/.test(l.event.message)));
  });

  it('without leave to list namespaces, the context namespace is the one asked about (as kubectl does)', async () => {
    rig.server.writeKubeconfig(rig.kubeconfig, { context: 'ctx-a', token: 'token-a', namespace: 'shop' });
    rig.server.access.setRules(NAMESPACE_USER.filter((r) => !r.resources.includes('namespaces')));
    const { m } = rig.manager({ resources: ['pods'] });
    await m.start();
    const entries = await settled(m, 1);
    assert.equal(entries[0].namespace, 'shop');
    assert.equal(entries[0].limitedByAccess, true);
  });

  it('configured namespaces the user may not watch are quiet entries beside the watched ones', async () => {
    rig.server.access.setRules(NAMESPACE_USER);
    const { m } = rig.manager({ resources: ['pods'], namespaces: ['batch', 'shop'] });
    await m.start();
    const entries = await settled(m, 2);
    const byNs = Object.fromEntries(entries.map((e) => [e.namespace, e]));
    assert.equal(byNs.batch.errorKind, 'not-allowed');
    assert.ok(byNs.shop.informer);
    assert.equal(byNs.shop.limitedByAccess, undefined);
  });

  it('Restart asks again: access granted cluster wide moves the watches to all namespaces; a refusal while watching shows as before', async () => {
    rig.server.access.setRules(NAMESPACE_USER);
    const { m, view } = rig.manager({ resources: ['pods'] });
    await m.start();
    await settled(m, 2);
    rig.server.access.allowAll();
    await m.restartAll('test: access granted');
    await until(() => m.entries().length === 1 && m.entries()[0].namespace === '' && m.entries()[0].state.phase === 'watching', describeEntries(m));
    await until(() => view.lines().filter((l) => l.includes('-pod')).length === 4, () => view.lines().join('\n'));

    // RBAC changes while watching: the watch is refused as it always was (forbidden), the scope stays.
    rig.server.access.setRules(NAMESPACE_USER);
    rig.server.dropWatches('end', 'pods');
    await until(() => m.entries()[0]?.state.phase === 'forbidden', describeEntries(m));
    assert.equal(m.entries().length, 1);
    assert.equal(m.entries()[0].namespace, '');
  });
});
