import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/informer/resource-type';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { execPluginUser, PROTOCOLS, RealRig, REAL_BOUND_MS, uniqueName, until, useControlPlane, type RigWatch } from './support';

/**
 * Refusals a real 1.34 server makes with RBAC on: a user without a RoleBinding (403), a token
 * it does not know (401), a type it does not serve (404, a CRD not installed yet), and an exec
 * plugin's ServiceAccount token revoked by deleting the account.
 */
describe('[real] refusals (kube-apiserver 1.34, RBAC)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  let rig: RealRig | undefined;
  let plugin: ExecPluginFixture | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
    plugin?.dispose();
    plugin = undefined;
  });

  /** Phases the watch went through (from its state events). */
  const phasesOf = (w: RigWatch) => w.lifecycle.flatMap((e) => (e.type === 'state' ? [e.state.phase] : []));

  /** Every lifecycle event of the rig as text: what a log line could show. */
  const allText = (r: RealRig) => JSON.stringify(r.watches.map((w) => w.lifecycle));

  for (const { protocol, label } of PROTOCOLS) {
    it(`F14 [real] ${label}: a user without a RoleBinding is refused (403): state forbidden with the server's words, slow retry, recovers once a RoleBinding appears`, async () => {
      const ns = await plane().setup.namespace();
      await plane().setup.configMaps(ns).createMany(2);
      rig = await RealRig.start({ plane: plane(), protocol, user: 'limited', namespaces: [ns] });
      const r = rig;
      await r.phase('forbidden');
      const words = `configmaps is forbidden: User "limited" cannot watch resource "configmaps" in API group "" in the namespace "${ns}"`;
      assert.equal(r.informer.state.reason, words, 'the server\'s message, as the state shows it');
      await until(() => r.events('backoff').length >= 2, 'two slow retries', REAL_BOUND_MS);
      const retries = r.events('backoff');
      // A slow retry waits at the backoff cap (2 s here, jittered down to half): never a hot loop.
      assert.ok(retries.every((b) => b.delayMs >= 1000 && b.cause === words), `slow retries: ${retries.map((b) => `${b.delayMs} ms (${b.cause})`).join('; ')}`);
      await plane().setup.grant({ user: 'limited' }, { namespace: ns });
      await r.synced();
      assert.equal(r.informer.state.reason, undefined, 'a healthy watch carries no refusal');
      await r.objects.create('after-grant');
      await r.converged();
    });

    it(`F14 [real] ${label}: a token the server does not know is refused (401): state unauthorized, slow retry, the token never in a lifecycle event`, async () => {
      const ns = await plane().setup.namespace();
      const token = `unknown-${uniqueName('token')}`;
      rig = await RealRig.start({ plane: plane(), protocol, user: { token }, namespaces: [ns] });
      const r = rig;
      await r.phase('unauthorized');
      assert.equal(r.informer.state.reason, 'Unauthorized');
      await until(() => r.events('backoff').length >= 2, 'two slow retries', REAL_BOUND_MS);
      assert.ok(r.events('backoff').every((b) => b.delayMs >= 1000), 'slow retries');
      assert.ok(!allText(r).includes(token), 'the token appears in no lifecycle event');
      await r.converged(); // nothing cached, nothing there
    });

    it(`F22 [real] ${label}: a custom resource type not installed yet: state not-found, slow retry, synced once its CRD is established`, async () => {
      const group = `${uniqueName('f22')}.example.com`;
      const widgets: ResourceType = { group, version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };
      const ns = await plane().setup.namespace();
      rig = await RealRig.start({ plane: plane(), protocol, type: widgets, namespaces: [ns] });
      const r = rig;
      await r.phase('not-found');
      await until(() => r.events('backoff').length >= 2, 'two slow retries', REAL_BOUND_MS);
      assert.ok(r.events('backoff').every((b) => b.delayMs >= 1000), 'slow retries');
      assert.equal(r.informer.state.synced, false, 'nothing synced');
      await plane().setup.crd({ group, plural: 'widgets', kind: 'Widget' });
      await plane().admin.post(`/apis/${group}/v1/namespaces/${ns}/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w-1' }, spec: { size: 1 } });
      await r.synced();
      await plane().admin.post(`/apis/${group}/v1/namespaces/${ns}/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w-2' }, spec: { size: 2 } });
      await r.converged();
      assert.deepEqual([...r.informer.store.values()].map((o) => o.metadata.name).sort(), ['w-1', 'w-2']);
    });

    it(`F26 [real] ${label}: an exec plugin's ServiceAccount token is revoked (the account deleted and re-created): the plugin runs again once for the cluster, and every watch recovers without a restart`, async function () {
      this.timeout(180_000);
      const p = plane();
      const home = await p.setup.namespace();
      await p.setup.serviceAccount(home, 'watcher');
      await p.setup.grant({ serviceAccount: { namespace: home, name: 'watcher' } });
      plugin = new ExecPluginFixture(await p.setup.serviceAccountToken(home, 'watcher', 3600));
      // Short watches, so that requests go out again soon after the revocation.
      rig = await RealRig.start({ plane: p, protocol, user: execPluginUser(plugin), watches: 2, initialObjects: 1, informer: { timeoutSeconds: 2 } });
      const r = rig;
      const fixture = plugin;
      await r.synced();
      assert.equal(fixture.runs(), 1, 'one plugin run for both informers');
      const revokedAt = Date.now();
      await p.setup.deleteServiceAccount(home, 'watcher');
      await p.setup.serviceAccount(home, 'watcher');
      fixture.setToken(await p.setup.serviceAccountToken(home, 'watcher', 3600));
      // The server refuses the old token once its 10 s cache of successful authentications lets it go.
      await until(() => fixture.runs() >= 2, 'the plugin to run again after a 401', 60_000);
      for (const w of r.watches) await w.objects.update('cm-0', 'after-revocation');
      await until(
        () => r.watches.every((w) => (w.informer.get(w.namespace, 'cm-0') as { data?: { v?: string } } | undefined)?.data?.v === 'after-revocation'),
        () => `every informer caught up (${r.phases()})`,
        REAL_BOUND_MS,
      );
      assert.equal(fixture.runs(), 2, 'one more plugin run for the whole cluster');
      for (const w of r.watches) {
        assert.ok(!phasesOf(w).includes('unauthorized'), `${w.namespace}: never unauthorized (the fresh credentials worked): ${phasesOf(w).join(', ')}`);
        assert.ok(!w.lifecycle.some((e) => e.type === 'list-started' && e.at >= revokedAt && !e.relist), `${w.namespace}: no restart`);
      }
      await r.converged();
    });
  }
});
