import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, ApiError, TransportError, acceleratedClock } from '../../src/base';
import { createCredentialProvider } from '../../src/connection/credentials/credential-registry';
import { MIN_RUN_SPACING_MS } from '../../src/connection/credentials/renewal-plan';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { SwitchableTransport } from '../../src/connection/transport/switchable-transport';
import { outgoingWrite } from '../../src/connection/transport/write-request';
import { FakeApiServer, type KubeObjectJson } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { ManualClock } from '../support/manual-clock';
import { until } from '../support/until';

const CM = '/api/v1/namespaces/default/configmaps';

function transportFor(server: FakeApiServer, kubeconfig = server.kubeconfig(), options: ConstructorParameters<typeof KubeConfigTransport>[1] = {}): KubeConfigTransport {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  return new KubeConfigTransport(kc, options);
}

const signal = () => new AbortController().signal;

describe('Write request: the transport writes', () => {
  describe('what is sent', () => {
    it('a JSON body gets its Content-Type and length; a patch or apply type only with PATCH', () => {
      const out = outgoingWrite({ method: 'POST', path: CM, body: '{"a":"é"}' });
      assert.equal(out.headers['Content-Type'], 'application/json');
      assert.equal(out.headers['Content-Length'], String(Buffer.byteLength('{"a":"é"}')));
      assert.deepEqual(outgoingWrite({ method: 'DELETE', path: `${CM}/x` }).headers, {});
      assert.throws(() => outgoingWrite({ method: 'PUT', path: CM, body: 'a: 1', contentType: 'application/apply-patch+yaml' }), /PATCH/);
      assert.throws(() => outgoingWrite({ method: 'POST', path: CM, body: '{}', contentType: 'application/merge-patch+json' }), /PATCH/);
      assert.throws(() => outgoingWrite({ method: 'GET' as 'POST', path: CM }), /POST, PUT, PATCH or DELETE/);
    });
  });

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    describe(`over ${label}`, () => {
      let server: FakeApiServer;
      let transport: KubeConfigTransport | undefined;
      let plugin: ExecPluginFixture | undefined;
      beforeEach(async () => {
        server = await FakeApiServer.start({ http2 });
      });
      afterEach(async () => {
        transport?.dispose();
        transport = undefined;
        plugin?.dispose();
        plugin = undefined;
        await server.close();
      });

      it(`(${label}) creates, updates with the resourceVersion precondition, patches three ways and applies; each answer is the stored object`, async () => {
        transport = transportFor(server);
        const created = await transport.write<KubeObjectJson>({ method: 'POST', path: CM, query: { fieldManager: 'kube-watch' }, body: JSON.stringify({ metadata: { name: 'web' }, data: { a: '1' } }) }, signal());
        assert.equal(created.metadata.name, 'web');
        assert.equal(server.get('configmaps', 'default', 'web')?.metadata.resourceVersion, created.metadata.resourceVersion);

        const updated = await transport.write<KubeObjectJson>(
          { method: 'PUT', path: `${CM}/web`, query: { fieldManager: 'kube-watch' }, body: JSON.stringify({ ...created, data: { a: '2' } }) },
          signal(),
        );
        assert.deepEqual(updated.data, { a: '2' });
        const stale = await transport.write({ method: 'PUT', path: `${CM}/web`, body: JSON.stringify({ ...created, data: { a: '3' } }) }, signal()).catch((e: unknown) => e);
        assert.ok(stale instanceof ApiError, String(stale));
        assert.equal(stale.code, 409);
        assert.equal(stale.reason, 'Conflict');
        assert.match(stale.message, /^Operation cannot be fulfilled on configmaps "web": the object has been modified/);
        assert.deepEqual(server.get('configmaps', 'default', 'web')?.data, { a: '2' }, 'the stale update stored nothing');

        await transport.write({ method: 'PATCH', path: `${CM}/web`, body: JSON.stringify({ data: { b: 'm' } }), contentType: 'application/merge-patch+json' }, signal());
        await transport.write({ method: 'PATCH', path: `${CM}/web`, body: JSON.stringify({ data: { c: 's' } }), contentType: 'application/strategic-merge-patch+json' }, signal());
        await transport.write({ method: 'PATCH', path: `${CM}/web`, body: JSON.stringify([{ op: 'add', path: '/data/d', value: 'j' }]), contentType: 'application/json-patch+json' }, signal());
        const applied = await transport.write<KubeObjectJson>(
          { method: 'PATCH', path: `${CM}/web`, query: { fieldManager: 'kube-watch' }, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  e: "y"\n', contentType: 'application/apply-patch+yaml' },
          signal(),
        );
        assert.deepEqual(applied.data, { a: '2', b: 'm', c: 's', d: 'j', e: 'y' });
        const writes = server.requests.filter((r) => r.method !== 'GET');
        assert.deepEqual(
          writes.map((r) => `${r.method} ${r.status}`),
          ['POST 201', 'PUT 200', 'PUT 409', 'PATCH 200', 'PATCH 200', 'PATCH 200', 'PATCH 200'],
        );
        assert.ok(writes.every((r) => r.protocol === (http2 ? 'h2' : 'http/1.1')), `every write over ${label}`);
      });

      it(`(${label}) dryRun=All answers what would be stored and stores nothing`, async () => {
        transport = transportFor(server);
        const before = server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } });
        const dry = await transport.write<KubeObjectJson>({ method: 'PATCH', path: `${CM}/web`, query: { dryRun: 'All' }, body: '{"data":{"a":"2"}}', contentType: 'application/merge-patch+json' }, signal());
        assert.deepEqual(dry.data, { a: '2' });
        assert.deepEqual(server.get('configmaps', 'default', 'web'), before);
      });

      it(`(${label}) a 422 rejects with the server's Status: code, reason and every cause with its field`, async () => {
        transport = transportFor(server);
        server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } });
        const err = await transport.write({ method: 'PATCH', path: `${CM}/web`, body: JSON.stringify({ metadata: { labels: { 'bad key!': 'x' } }, data: { 'bad key': '1' } }), contentType: 'application/merge-patch+json' }, signal()).catch((e: unknown) => e);
        assert.ok(err instanceof ApiError, String(err));
        assert.equal(err.code, 422);
        assert.equal(err.reason, 'Invalid');
        assert.deepEqual(err.status.details?.causes?.map((c) => c.field), ['metadata.labels', 'data[bad key]']);
      });

      it(`(${label}) a write is sent once: a connection reset rejects with a TransportError and nothing is sent again`, async () => {
        transport = transportFor(server);
        server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } });
        server.writes.use((call) => {
          call.req.socket.destroy();
          return true;
        });
        const err = await transport.write({ method: 'PATCH', path: `${CM}/web`, body: '{"data":{"a":"2"}}', contentType: 'application/merge-patch+json' }, signal()).catch((e: unknown) => e);
        assert.ok(err instanceof TransportError, String(err));
        assert.equal(server.requests.filter((r) => r.method === 'PATCH').length, 1);
      });

      it(`(${label}) no answer within the deadline is a TransportError (ETIMEDOUT) that says the outcome is unknown; the caller's abort is an AbortedError`, async () => {
        transport = transportFor(server, server.kubeconfig(), { clock: acceleratedClock(1000) });
        server.create('configmaps', { metadata: { name: 'web', namespace: 'default' } });
        server.writes.use(() => true); // never answers
        const late = await transport.write({ method: 'PATCH', path: `${CM}/web`, body: '{}', contentType: 'application/merge-patch+json' }, signal()).catch((e: unknown) => e);
        assert.ok(late instanceof TransportError, String(late));
        assert.equal(late.code, 'ETIMEDOUT');
        assert.match(late.message, /within 30 s: whether the server applied it is unknown/);
        const ctl = new AbortController();
        const pending = transport.write({ method: 'PATCH', path: `${CM}/web`, body: '{}', contentType: 'application/merge-patch+json' }, ctl.signal).catch((e: unknown) => e);
        ctl.abort();
        assert.ok((await pending) instanceof AbortedError);
      });

      it(`(${label}) a 401 renews the credentials once and sends the write again; the switchable transport forwards writes`, async () => {
        plugin = new ExecPluginFixture('token-1');
        server.setToken('token-1');
        // The credentials' own clock, so the renewal's wait for the plugin's run spacing is stepped, not slept.
        const credentialClock = new ManualClock();
        const firstRunAt = credentialClock.now();
        const kubeconfig = plugin.kubeconfig({ server: server.url, caPem: server.caPem });
        const kc = new KubeConfig();
        kc.loadFromString(kubeconfig);
        transport = transportFor(server, kubeconfig, { credentials: createCredentialProvider(kc, { clock: credentialClock }) });
        const switchable = new SwitchableTransport(transport);
        await switchable.write({ method: 'POST', path: CM, body: JSON.stringify({ metadata: { name: 'one' } }) }, signal());
        plugin.setToken('token-2');
        server.setToken('token-2');
        const second = switchable.write({ method: 'POST', path: CM, body: JSON.stringify({ metadata: { name: 'two' } }) }, signal());
        await until(() => credentialClock.nextDue() === firstRunAt + MIN_RUN_SPACING_MS, 'the renewal to wait out the spacing since the first plugin run');
        credentialClock.advance(MIN_RUN_SPACING_MS);
        await second;
        assert.deepEqual(
          server.requests.filter((r) => r.method === 'POST').map((r) => r.status),
          [201, 401, 201],
        );
        assert.equal(plugin.runs(), 2);
        assert.ok(server.get('configmaps', 'default', 'two'));
      });
    });
  }
});
