import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, ApiError, type Clock } from '../../src/base';
import { AccessReviewCache, accessQueryText, rulesAllow, type AccessQuery } from '../../src/cluster';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { WatchManager } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

const DELETE_POD: AccessQuery = { verb: 'delete', group: '', resource: 'pods', namespace: 'shop', name: 'web-1' };
const LIST_PODS: AccessQuery = { verb: 'list', group: '', resource: 'pods' };
const SCALE_WEB: AccessQuery = { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'shop' };

function transportFor(server: FakeApiServer): KubeConfigTransport {
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig());
  return new KubeConfigTransport(kc);
}

/** A clock whose time moves only when the test says so. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_000_000;
  return { now: () => now, setTimer: (fn, ms) => { const t = setTimeout(fn, ms); return { cancel: () => clearTimeout(t) }; }, random: Math.random, advance: (ms) => (now += ms) };
}

const reviews = (server: FakeApiServer) => server.requests.filter((r) => r.path.endsWith('/selfsubjectaccessreviews'));

describe('Access review: what the user may do, asked of the server and cached per context', () => {
  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    describe(`over ${label}`, () => {
      let server: FakeApiServer;
      let transport: KubeConfigTransport;
      let cache: AccessReviewCache | undefined;
      beforeEach(async () => {
        server = await FakeApiServer.start({ http2 });
        transport = transportFor(server);
      });
      afterEach(async () => {
        cache?.dispose();
        cache = undefined;
        transport.dispose();
        await server.close();
      });

      it(`(${label}) a read-only user may list but not delete; the server's reason comes along; an answer is asked once`, async () => {
        server.access.user = 'reader';
        server.access.readOnly();
        cache = new AccessReviewCache(transport);
        const [denied, again, allowed] = await Promise.all([cache.can(DELETE_POD), cache.can(DELETE_POD), cache.can(LIST_PODS)]);
        assert.deepEqual(denied, { allowed: false });
        assert.deepEqual(again, denied);
        assert.equal(allowed.allowed, true);
        assert.equal(allowed.reason, 'RBAC: allowed by ClusterRoleBinding "read-only" of ClusterRole "read-only" to User "reader"');
        assert.equal(reviews(server).length, 2, 'two questions, two reviews: concurrent callers share one');
        assert.deepEqual(await cache.can(DELETE_POD), { allowed: false });
        assert.equal(reviews(server).length, 2, 'a cached answer sends nothing');
        assert.deepEqual(cache.peek(DELETE_POD), { allowed: false });
        assert.equal(cache.peek(SCALE_WEB), undefined);
        assert.deepEqual(reviews(server).map((r) => `${r.method} ${r.status}`), ['POST 201', 'POST 201']);
      });

      it(`(${label}) the review names the subresource and namespace; the answer follows the policy's namespaces`, async () => {
        server.access.setRules([{ verbs: ['patch'], apiGroups: ['apps'], resources: ['deployments/scale'], namespaces: ['shop'], binding: 'deployer' }]);
        cache = new AccessReviewCache(transport);
        const inShop = await cache.can(SCALE_WEB);
        assert.equal(inShop.allowed, true);
        assert.match(inShop.reason ?? '', /RoleBinding "deployer\/shop" of Role "deployer"/);
        assert.equal((await cache.can({ ...SCALE_WEB, namespace: 'payments' })).allowed, false);
        assert.equal((await cache.can({ ...SCALE_WEB, subresource: undefined })).allowed, false, 'patching the Deployment itself is another question');
      });

      it(`(${label}) the policy refuses the write itself with RBAC's words, and invalidate after the 403 asks again`, async () => {
        cache = new AccessReviewCache(transport);
        assert.equal((await cache.can(DELETE_POD)).allowed, true, 'everything is allowed before a policy is set');
        server.access.user = 'reader';
        server.access.readOnly();
        const refused = await transport.write({ method: 'DELETE', path: '/api/v1/namespaces/shop/pods/web-1' }, new AbortController().signal).catch((e: unknown) => e);
        assert.ok(refused instanceof ApiError);
        assert.equal(refused.code, 403);
        assert.equal(refused.message, 'pods "web-1" is forbidden: User "reader" cannot delete resource "pods" in API group "" in the namespace "shop"');
        assert.equal((await cache.can(DELETE_POD)).allowed, true, 'the stale answer stands until something contradicts it');
        const changes: (AccessQuery | undefined)[] = [];
        cache.onDidChange((q) => changes.push(q));
        cache.invalidate(DELETE_POD);
        assert.equal(cache.peek(DELETE_POD), undefined);
        assert.deepEqual(await cache.can(DELETE_POD), { allowed: false });
        assert.deepEqual(changes, [DELETE_POD, DELETE_POD], 'forgotten, then learned again');
      });

      it(`(${label}) a 403 in one namespace also forgets the answer for all namespaces of that resource (a grant everywhere is one there too), not other resources'`, async () => {
        cache = new AccessReviewCache(transport);
        const everywhere: AccessQuery = { verb: 'delete', group: '', resource: 'pods' };
        assert.equal((await cache.can(everywhere)).allowed, true);
        assert.equal((await cache.can(SCALE_WEB)).allowed, true);
        cache.invalidate(DELETE_POD);
        assert.equal(cache.peek(everywhere), undefined, 'the all-namespaces answer is contradicted');
        assert.equal(cache.peek(SCALE_WEB)?.allowed, true, 'another resource keeps its answer');
      });

      it(`(${label}) a rules review lists what may be done in a namespace; RBAC's matching reads it`, async () => {
        server.access.setRules([
          { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
          { verbs: ['patch'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], namespaces: ['shop'] },
        ]);
        cache = new AccessReviewCache(transport);
        const shop = await cache.rules('shop');
        assert.equal(shop.incomplete, false);
        assert.equal(rulesAllow(shop, SCALE_WEB), true);
        assert.equal(rulesAllow(shop, { ...SCALE_WEB, verb: 'update' }), false);
        assert.equal(rulesAllow(shop, DELETE_POD), false);
        assert.equal(rulesAllow(shop, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }), true, 'every user may ask');
        const payments = await cache.rules('payments');
        assert.equal(rulesAllow(payments, { ...SCALE_WEB, namespace: 'payments' }), false);
        await cache.rules('shop');
        assert.equal(server.requests.filter((r) => r.path.endsWith('/selfsubjectrulesreviews')).length, 2, 'cached per namespace');
      });
    });
  }

  describe('without a server to ask', () => {
    let server: FakeApiServer;
    let transport: KubeConfigTransport;
    let cache: AccessReviewCache | undefined;
    beforeEach(async () => {
      server = await FakeApiServer.start();
      transport = transportFor(server);
    });
    afterEach(async () => {
      cache?.dispose();
      transport.dispose();
      await server.close();
    });

    it('a review that cannot be made is an unknown answer (allowed: the server decides), never cached', async () => {
      cache = new AccessReviewCache(transport);
      await server.goDown();
      const answer = await cache.can(DELETE_POD);
      assert.equal(answer.unknown, true);
      assert.equal(answer.allowed, true);
      assert.match(answer.reason ?? '', /^the access review failed: /);
      assert.equal(cache.peek(DELETE_POD), undefined);
      await server.comeUp();
      assert.deepEqual(await cache.can(DELETE_POD), { allowed: true });
      const noWrites = new AccessReviewCache({});
      assert.deepEqual(await noWrites.can(DELETE_POD), { allowed: true, unknown: true, reason: 'this connection cannot send access reviews' });
      noWrites.dispose();
    });

    it('an answer older than the TTL is asked again; one learned before invalidate() is not stored after it', async () => {
      const clock = manualClock();
      cache = new AccessReviewCache(transport, { clock, ttlMs: 60_000 });
      await cache.can(LIST_PODS);
      clock.advance(59_000);
      await cache.can(LIST_PODS);
      assert.equal(reviews(server).length, 1);
      assert.equal(cache.stale(LIST_PODS), false);
      clock.advance(2_000);
      assert.equal(cache.stale(LIST_PODS), true, 'older than the TTL: the row actions ask again in the background');
      await cache.can(LIST_PODS);
      assert.equal(reviews(server).length, 2, 'expired: asked again');

      // In flight when the cache is told to forget: its late answer must not land.
      server.access.readOnly();
      const pending = cache.can(DELETE_POD);
      cache.invalidate();
      assert.deepEqual(await pending, { allowed: false }, 'the caller still gets its answer');
      assert.equal(cache.peek(DELETE_POD), undefined, 'but it was asked before the invalidate, so it is not kept');
    });

    it("the caller's signal ends only its own wait; dispose ends every wait", async () => {
      cache = new AccessReviewCache(transport);
      const ctl = new AbortController();
      const mine = cache.can(DELETE_POD, ctl.signal);
      const other = cache.can(DELETE_POD);
      ctl.abort();
      await assert.rejects(mine, AbortedError);
      assert.deepEqual(await other, { allowed: true });
      const late = cache.can(SCALE_WEB);
      cache.dispose();
      await assert.rejects(late, AbortedError);
      await assert.rejects(cache.can(LIST_PODS), AbortedError);
    });

    it('queries read as words', () => {
      assert.equal(accessQueryText(DELETE_POD), 'delete pods "web-1" in namespace "shop"');
      assert.equal(accessQueryText(SCALE_WEB), 'patch deployments/scale (apps) in namespace "shop"');
      assert.equal(accessQueryText({ verb: 'patch', group: '', resource: 'nodes', name: 'node-1' }), 'patch nodes "node-1" at the cluster scope');
    });
  });

  describe('one cache per context, held by the watch manager', () => {
    let server: FakeApiServer;
    let dir: string;
    let manager: WatchManager | undefined;
    beforeEach(async () => {
      server = await FakeApiServer.start();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-access-'));
    });
    afterEach(async () => {
      await manager?.stop();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('an entry answers for its context; a context switch brings a new cache, the old one ends', async () => {
      const kubeconfig = path.join(dir, 'config');
      server.writeKubeconfig(kubeconfig, { context: 'one', cluster: 'c', user: 'u1' });
      manager = new WatchManager({ contexts: [], resources: ['configmaps'], namespaces: [], kubeconfigPath: kubeconfig });
      await manager.start();
      const id = await until(() => manager!.entries()[0]?.id, 'an entry');
      const first = await until(() => manager!.accessReviewsOf(id), 'the access reviews of the context');
      assert.equal(manager.userOf(id), 'u1');
      assert.deepEqual(await first.can(LIST_PODS), { allowed: true });
      server.writeKubeconfig(kubeconfig, { context: 'two', cluster: 'c', user: 'u2' });
      await manager.reloadKubeconfig('test: switched');
      const second = await until(() => manager!.accessReviewsOf(id) !== first && manager!.accessReviewsOf(id), 'a new cache after the switch');
      assert.equal(manager.userOf(id), 'u2');
      await assert.rejects(first.can(DELETE_POD), AbortedError, 'the old context is gone');
      assert.deepEqual(await second.can(DELETE_POD), { allowed: true });
    });
  });
});
