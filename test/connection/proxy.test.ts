import assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { describeProxyRoute } from '../../src/connection/proxy/proxy-route';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WatchManager } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';
import { ConnectProxy } from '../support/connect-proxy';

const TOKEN = 'proxy-test-token';
const NAME = 'kube.test.invalid';

/** The client's resolver: only localhost and the test's names, all on loopback; anything else does not exist. */
const lookup: LookupFunction = (hostname, options, callback) => {
  const known = hostname === NAME || hostname === 'localhost' || hostname.endsWith('.test.invalid');
  const cb = callback as (err: NodeJS.ErrnoException | null, address?: string | { address: string; family: number }[], family?: number) => void;
  if (!known) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
};

function kubeconfig(server: string, caPem: string, proxyUrl?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    // The server certificate names localhost and 127.0.0.1: the test names are verified as localhost.
    clusters: [{ name: 'c', server, caData: Buffer.from(caPem).toString('base64'), tlsServerName: 'localhost', ...(proxyUrl ? { proxyUrl } : {}) }],
    users: [{ name: 'u', token: TOKEN }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

describe('proxies like kubectl (F29)', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function rig(http2: boolean) {
    const server = await FakeApiServer.start({ token: TOKEN, http2 });
    cleanups.push(() => server.close());
    server.create('configmaps', { metadata: { name: 'one', namespace: 'default' } });
    const port = new URL(server.url).port;
    // The proxy resolves the test's names (and 0.0.0.0, which Linux connects to loopback) from its own table.
    const proxy = await ConnectProxy.start({ [NAME]: '127.0.0.1', 'api.corp.test.invalid': '127.0.0.1', '0.0.0.0': '127.0.0.1' });
    cleanups.push(() => proxy.close());
    const fetch = async (serverUrl: string, env: NodeJS.ProcessEnv, options: { proxyUrl?: string; editorProxy?: string } = {}) => {
      const transport = new KubeConfigTransport(kubeconfig(serverUrl, server.caPem, options.proxyUrl), { env, lookup, http2, editorProxy: options.editorProxy });
      cleanups.push(() => transport.dispose());
      const seen = server.requests.length;
      const list = await transport.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal);
      assert.deepEqual(
        (list.items ?? []).map((i) => (i as { metadata: { name: string } }).metadata.name),
        ['one'],
      );
      const requests = server.requests.slice(seen);
      assert.ok(requests.length > 0 && requests.every((r) => r.protocol === (http2 ? 'h2' : 'http/1.1')), `over ${http2 ? 'HTTP/2' : 'HTTP/1.1'}: ${requests.map((r) => r.protocol).join(',')}`);
      return { transport, route: describeProxyRoute(transport.proxyRoute) };
    };
    return { server, proxy, port, fetch, proxyEnv: { HTTPS_PROXY: proxy.url } };
  }

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';

    it(`F29 (${label}) HTTPS_PROXY: the request goes through a CONNECT tunnel to the server's name (TLS${http2 ? ' with ALPN h2' : ''} inside it)`, async () => {
      const { proxy, port, fetch, proxyEnv } = await rig(http2);
      const { route } = await fetch(`https://${NAME}:${port}`, proxyEnv);
      assert.equal(route, `proxy ${proxy.url}`);
      assert.deepEqual(
        proxy.tunnels.map((t) => [t.authority, t.status]),
        [[`${NAME}:${port}`, 200]],
        'one tunnel, to the name (the proxy resolves it)',
      );
    });

    it(`F29 (${label}) NO_PROXY by domain suffix, by "*" and by CIDR bypasses the proxy; entries that do not match keep it`, async () => {
      const { proxy, port, fetch, proxyEnv } = await rig(http2);
      for (const noProxy of ['test.invalid', '.test.invalid', 'corp.test.invalid', '*', 'other.example, *']) {
        const { route } = await fetch(`https://api.corp.test.invalid:${port}`, { ...proxyEnv, NO_PROXY: noProxy });
        assert.equal(route, 'direct', noProxy);
      }
      // 0.0.0.0 is not loopback to Go, so only NO_PROXY exempts it (Linux connects it to 127.0.0.1).
      assert.equal((await fetch(`https://0.0.0.0:${port}`, { ...proxyEnv, no_proxy: '0.0.0.0/8' })).route, 'direct');
      assert.equal(proxy.tunnels.length, 0, 'nothing went through the proxy');

      for (const noProxy of ['.api.corp.test.invalid', 'test.invalid:1', 'invalid.test', '10.0.0.0/8']) {
        await fetch(`https://api.corp.test.invalid:${port}`, { ...proxyEnv, NO_PROXY: noProxy });
      }
      await fetch(`https://0.0.0.0:${port}`, { ...proxyEnv, NO_PROXY: '10.0.0.0/8' });
      assert.deepEqual(
        proxy.tunnels.map((t) => t.authority),
        [...Array(4).fill(`api.corp.test.invalid:${port}`), `0.0.0.0:${port}`],
        'each non-matching NO_PROXY kept the proxy',
      );
    });

    it(`F29 (${label}) loopback and localhost are never proxied, whatever NO_PROXY says`, async () => {
      const { proxy, port, fetch, proxyEnv } = await rig(http2);
      assert.equal((await fetch(`https://127.0.0.1:${port}`, proxyEnv)).route, 'direct');
      assert.equal((await fetch(`https://localhost:${port}`, { ...proxyEnv, NO_PROXY: 'example.com' })).route, 'direct');
      assert.deepEqual(proxy.tunnels, []);
    });

    it(`F29 (${label}) the kubeconfig proxy-url wins over HTTPS_PROXY and NO_PROXY`, async () => {
      const { proxy, port, fetch } = await rig(http2);
      const { route } = await fetch(`https://${NAME}:${port}`, { HTTPS_PROXY: 'http://127.0.0.1:1', NO_PROXY: '*' }, { proxyUrl: proxy.url });
      assert.equal(route, `proxy ${proxy.url}`);
      assert.deepEqual(
        proxy.tunnels.map((t) => t.status),
        [200],
      );
    });
  }

  it('F29 HTTP_PROXY does not apply to an https server; the editor proxy (http.proxy) does where the environment names none', async () => {
    const { proxy, port, fetch } = await rig(false);
    assert.equal((await fetch(`https://api.corp.test.invalid:${port}`, { HTTP_PROXY: 'http://127.0.0.1:1' })).route, 'direct');
    assert.deepEqual(proxy.tunnels, []);
    assert.equal((await fetch(`https://api.corp.test.invalid:${port}`, {}, { editorProxy: proxy.url })).route, `proxy ${proxy.url}`);
    assert.equal((await fetch(`https://api.corp.test.invalid:${port}`, { NO_PROXY: 'test.invalid' }, { editorProxy: proxy.url })).route, 'direct');
    assert.equal(proxy.tunnels.length, 1);
  });

  it('F29 a proxy asking for credentials: the URL userinfo is sent as Proxy-Authorization; without it a one-line error that names no secret', async () => {
    const { proxy, port, server } = await rig(false);
    proxy.requireAuth = { user: 'alice', pass: 'pr0xy-s3cret' };
    const withAuth = new URL(proxy.url);
    withAuth.username = 'alice';
    withAuth.password = 'pr0xy-s3cret';
    const ok = new KubeConfigTransport(kubeconfig(`https://${NAME}:${port}`, server.caPem), { env: { HTTPS_PROXY: withAuth.href }, lookup, http2: false });
    cleanups.push(() => ok.dispose());
    await ok.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal);
    assert.equal(describeProxyRoute(ok.proxyRoute), `proxy ${proxy.url}`, 'the route shown has no credentials');

    const wrong = new URL(withAuth.href);
    wrong.password = 'wr0ng-s3cret';
    const refused = new KubeConfigTransport(kubeconfig(`https://${NAME}:${port}`, server.caPem), { env: { HTTPS_PROXY: wrong.href }, lookup, http2: false });
    cleanups.push(() => refused.dispose());
    await assert.rejects(refused.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal), (err: Error) => {
      assert.equal(err.message, `the proxy ${proxy.url} asks for credentials (407 Proxy Authentication Required)`);
      assert.ok(!/s3cret|alice/.test(String(err.stack)), 'no credential anywhere in the error');
      return true;
    });
    assert.deepEqual(
      proxy.tunnels.map((t) => [t.authorized, t.status]),
      [
        [true, 200],
        [true, 407],
      ],
    );
  });

  it('F29 the manager hands the editor proxy (VS Code http.proxy) to its transports', async function () {
    // The manager reads the real environment: a machine with its own proxy settings would decide otherwise.
    if (['HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'].some((k) => process.env[k])) this.skip();
    const { proxy, port, server } = await rig(false);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-proxy-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const kubeconfigPath = path.join(dir, 'config');
    // 0.0.0.0 is not loopback to Go's rules, so the editor proxy applies; the proxy maps it to the server.
    const text = server.kubeconfig().replace(/^(\s*)server: .*$/m, (_line, indent: string) => `${indent}server: "https://0.0.0.0:${port}"\n${indent}tls-server-name: "localhost"`);
    fs.writeFileSync(kubeconfigPath, text);
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    const m = new WatchManager({ contexts: [kc.getCurrentContext()], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath }, { editorProxy: proxy.url });
    cleanups.push(() => m.stop());
    await m.start();
    const deadline = Date.now() + 20_000;
    while (!m.entries().every((e) => e.state.phase === 'watching' && e.state.synced) || m.entries().length !== 1) {
      if (Date.now() > deadline) throw new Error(`not watching: ${JSON.stringify(m.entries().map((e) => [e.state.phase, e.error]))}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.ok(proxy.tunnels.length > 0 && proxy.tunnels.every((t) => t.authority === `0.0.0.0:${port}` && t.status === 200), 'every connection through the editor proxy');
  });
});
