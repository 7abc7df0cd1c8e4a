import assert from 'node:assert/strict';
import * as https from 'node:https';
import { ApiStatusError, AdminClient, isStatus, useControlPlane, type ControlPlane } from './support';

/** What the other files rely on: the harness's users, credentials, CRDs, etcd, restarts and relays do what they say. */
describe('[real] the harness (watch cache off, audit log)', function () {
  this.timeout(120_000);
  const plane = useControlPlane({ watchCache: false, audit: true, limitedNamespaces: ['harness-limited'] });

  async function refusal(p: Promise<unknown>): Promise<ApiStatusError> {
    try {
      await p;
    } catch (err) {
      if (err instanceof ApiStatusError) return err;
      throw err;
    }
    assert.fail('the request was not refused');
  }

  it('users: admin may do anything, reader only reads, limited reads only in its namespaces; a refusal names the user', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    await p.setup.configMaps(ns).create('a');
    const reader = p.admin.as(p.users.reader.token);
    const limited = p.admin.as(p.users.limited.token);
    try {
      assert.equal((await reader.list(`/api/v1/namespaces/${ns}/configmaps`)).items.length, 1);
      const denied = await refusal(reader.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'b' } }));
      assert.equal(denied.code, 403);
      assert.match(denied.status?.message ?? '', /User "reader" cannot create resource "configmaps"/);
      await limited.list('/api/v1/namespaces/harness-limited/configmaps');
      const elsewhere = await refusal(limited.list(`/api/v1/namespaces/${ns}/configmaps`));
      assert.equal(elsewhere.code, 403);
      assert.match(elsewhere.status?.message ?? '', new RegExp(`User "limited" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`));
      const stranger = await refusal(p.admin.as('not-a-token').list('/api/v1/namespaces'));
      assert.equal(stranger.code, 401);
    } finally {
      reader.dispose();
      limited.dispose();
    }
  });

  // Revocation by deleting the account (401 once the apiserver's 10 s token cache lets go) is F26's, in refusals.real.ts.
  it('ServiceAccount tokens: minted tokens authenticate as the account, with its RoleBinding\'s rights', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    await p.setup.serviceAccount(ns, 'bot');
    await p.setup.grant({ serviceAccount: { namespace: ns, name: 'bot' } }, { namespace: ns });
    const token = await p.setup.serviceAccountToken(ns, 'bot', 600);
    const bot = p.admin.as(token);
    try {
      await bot.list(`/api/v1/namespaces/${ns}/configmaps`);
      const elsewhere = await refusal(bot.list('/api/v1/namespaces/default/configmaps'));
      assert.match(elsewhere.status?.message ?? '', new RegExp(`User "system:serviceaccount:${ns}:bot" cannot list`));
    } finally {
      bot.dispose();
    }
  });

  it('CRDs: served once established; a version move keeps the objects and stops serving the old version (404); a removed CRD answers 404', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    await p.setup.crd({ group: 'harness.example.com', plural: 'gadgets', kind: 'Gadget', versions: [{ name: 'v1beta1', served: true, storage: true }] });
    await p.admin.post(`/apis/harness.example.com/v1beta1/namespaces/${ns}/gadgets`, { apiVersion: 'harness.example.com/v1beta1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { size: 1 } });
    // The type moves to v1; v1beta1 is no longer served; the object reads the same under v1.
    await p.setup.crdVersions('gadgets.harness.example.com', [
      { name: 'v1beta1', served: false, storage: false },
      { name: 'v1', served: true, storage: true },
    ]);
    assert.deepEqual((await p.admin.list(`/apis/harness.example.com/v1/namespaces/${ns}/gadgets`)).items.map((o) => o.metadata.name), ['g1']);
    await waitUntilRefused(() => p.admin.list(`/apis/harness.example.com/v1beta1/namespaces/${ns}/gadgets`), 404);
    await p.setup.deleteCrd('gadgets.harness.example.com');
    await waitUntilRefused(() => p.admin.list(`/apis/harness.example.com/v1/namespaces/${ns}/gadgets`), 404);
  });

  it('etcd: compaction makes older resourceVersions answer 410 (watch cache off); the audit log holds the requests', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    const cms = p.setup.configMaps(ns);
    const first = await cms.create('a');
    await cms.update('a', 'changed');
    const rev = await p.compact();
    assert.ok(rev > Number(first.metadata.resourceVersion));
    const expired = await refusal(p.admin.list(`/api/v1/namespaces/${ns}/configmaps?resourceVersion=${first.metadata.resourceVersion}&resourceVersionMatch=Exact`));
    assert.equal(expired.code, 410);
    const lists = p.requests((e) => e.verb === 'list' && e.objectRef?.namespace === ns && e.user.username === 'admin');
    assert.ok(lists.some((e) => e.responseStatus?.code === 410), 'the refused LIST is in the audit log');
  });

  it('kube-apiserver stops and starts again on the same port (etcd keeps the objects); a relay cuts and restores', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    await p.setup.configMaps(ns).create('kept');
    await p.stopApiServer({ abrupt: true });
    assert.equal(await refusedCode(p), 'ECONNREFUSED');
    await p.startApiServer();
    assert.deepEqual((await p.setup.configMaps(ns).list()).items.map((o) => o.metadata.name), ['kept']);
    const relay = await p.relay();
    const via = new AdminClient(`https://127.0.0.1:${relay.port}`, p.caPem, p.users.admin.token);
    try {
      await via.get('/version');
      relay.cut();
      await assert.rejects(via.get('/version'));
      relay.restore();
      await via.get('/version');
    } finally {
      via.dispose();
      await p.closeRelay(relay);
    }
  });
});

/** Retries `f` until the server refuses it with `code` (a CRD's removal takes a moment to reach every handler). */
async function waitUntilRefused(f: () => Promise<unknown>, code: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await f();
    } catch (err) {
      if (isStatus(err, code)) return;
      throw err;
    }
    if (Date.now() > deadline) assert.fail(`never refused with ${code}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The error code a fresh connection to the stopped apiserver gets. */
function refusedCode(p: ControlPlane): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = https.get(`${p.url}/version`, { ca: p.caPem, agent: false }, () => resolve(undefined));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}
