import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock, seededRandom, systemClock } from '../../src/base/clock';
import { CredentialRegistry } from '../../src/connection/credentials/credential-registry';
import { MIN_RUN_SPACING_MS } from '../../src/connection/credentials/renewal-plan';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { Informer } from '../../src/informer/informer';
import type { ResourceType } from '../../src/informer/resource-type';
import { FakeApiServer } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { ManualClock } from '../support/manual-clock';
import { SocksProxy } from '../support/socks-proxy';
import { until } from '../support/until';

const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const pods: ResourceType = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
const CERTS = path.join(import.meta.dirname, '..', 'support', 'certs');

function fingerprint(which: 'a' | 'b'): string {
  return new X509Certificate(fs.readFileSync(path.join(CERTS, `client-${which}.pem`))).fingerprint256;
}

/**
 * Client certificates on every route, and what a rotation leaves behind: the SOCKS route
 * presents the credentials' certificate (a static one, or one from an exec plugin), and a
 * rotated identity's connections are released once the streams on them have ended, not only
 * when the transport is disposed.
 */
describe('client certificates through SOCKS, and rotated identities released', function () {
  this.timeout(60_000);
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function server(http2: boolean): Promise<FakeApiServer> {
    const s = await FakeApiServer.start({ http2, timeScale: 4 });
    cleanups.push(() => s.close());
    s.create('configmaps', { metadata: { name: 'cm-0', namespace: 'default' } });
    s.create('pods', { metadata: { name: 'p-0', namespace: 'default' }, spec: {} });
    return s;
  }

  async function socks(): Promise<SocksProxy> {
    const p = await SocksProxy.start();
    cleanups.push(() => p.close());
    return p;
  }

  it('F29 (SOCKS) a proxy-url socks5:// route presents a static client certificate from the kubeconfig', async () => {
    const s = await server(false);
    const proxy = await socks();
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: s.url.replace('127.0.0.1', 'localhost'), caData: Buffer.from(s.caPem).toString('base64'), proxyUrl: proxy.url }],
      users: [{ name: 'u', token: s.acceptedToken, certData: fs.readFileSync(path.join(CERTS, 'client-a.pem')).toString('base64'), keyData: fs.readFileSync(path.join(CERTS, 'client-a-key.pem')).toString('base64') }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    const transport = new KubeConfigTransport(kc, { env: {} });
    cleanups.push(() => transport.dispose());
    const list = await transport.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal);
    assert.equal(list.items?.length, 1);
    assert.ok(proxy.connects.length >= 1, 'through the SOCKS proxy');
    assert.equal(s.requests.at(-1)?.clientCert, fingerprint('a'), 'certificate a presented');
  });

  it('F29 (SOCKS) F27 the SOCKS route presents the client certificate an exec plugin hands out, and the new one after a rotation', async () => {
    const s = await server(false);
    const proxy = await socks();
    const plugin = new ExecPluginFixture(s.acceptedToken);
    cleanups.push(() => plugin.dispose());
    plugin.setClientCert('a');
    const kc = new KubeConfig();
    kc.loadFromString(plugin.kubeconfig({ server: s.url.replace('127.0.0.1', 'localhost'), caPem: s.caPem, proxyUrl: proxy.url }));
    // The credentials' own clock, so the renewal's wait for the plugin's run spacing is stepped, not slept.
    const credentialClock = new ManualClock();
    const firstRunAt = credentialClock.now();
    const registry = new CredentialRegistry({ clock: credentialClock });
    cleanups.push(() => registry.dispose());
    const transport = new KubeConfigTransport(kc, { env: {}, credentials: registry.acquire(kc) });
    cleanups.push(() => transport.dispose());
    await transport.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal);
    assert.ok(proxy.connects.length >= 1, 'through the SOCKS proxy');
    assert.equal(s.requests.at(-1)?.clientCert, fingerprint('a'), 'the plugin\'s certificate a presented');
    // The cluster revokes the token; the plugin hands out a new token and certificate b.
    plugin.setClientCert('b');
    plugin.setToken('token-2');
    s.setToken('token-2');
    const second = transport.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal);
    await until(() => credentialClock.nextDue() === firstRunAt + MIN_RUN_SPACING_MS, 'the renewal to wait out the spacing since the first plugin run');
    credentialClock.advance(MIN_RUN_SPACING_MS);
    await second;
    assert.equal(s.requests.at(-1)?.clientCert, fingerprint('b'), 'certificate b presented after the rotation');
    await until(() => transport.retiredConnectionSets === 0, 'the agent of certificate a released: nothing runs on it any more');
  });

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    it(`F27 (${label}) a rotated identity's connections are released once the streams on them end, not only at dispose`, async () => {
      const s = await server(http2);
      const plugin = new ExecPluginFixture(s.acceptedToken);
      cleanups.push(() => plugin.dispose());
      plugin.setClientCert('a');
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: s.url, caPem: s.caPem }));
      const clock = acceleratedClock(250, seededRandom(4));
      // The plugin is a real child process: its 30 s timeout runs on real time (120 ms at 250x is
      // less than a node child's start on a loaded machine).
      const registry = new CredentialRegistry({ clock, runClock: systemClock });
      cleanups.push(() => registry.dispose());
      const transport = new KubeConfigTransport(kc, { clock: acceleratedClock(1), credentials: registry.acquire(kc) });
      cleanups.push(() => transport.dispose());
      const informers = [configmaps, pods].map((type) => new Informer({ transport, type, namespace: 'default', clock, requestTimeoutMs: 600_000, minWatchTimeoutSeconds: 3600 }));
      for (const i of informers) {
        cleanups.push(() => i.stop());
        i.start();
      }
      await until(() => informers.every((i) => i.state.phase === 'watching') && s.openWatches() === 2, 'both watching');
      // A rotation: the configmaps watch meets the new token, refreshes and gets certificate b; the pods watch runs on with a.
      plugin.setClientCert('b');
      plugin.setToken('token-2');
      s.setToken('token-2');
      s.dropWatches('end', 'configmaps');
      await until(() => s.requests.some((r) => r.resource === 'configmaps' && r.verb === 'watch' && r.status === 200 && r.clientCert === fingerprint('b')), 'the configmaps watch on certificate b');
      assert.equal(transport.retiredConnectionSets, 1, 'certificate a\'s connections still carry the pods watch');
      s.dropWatches('end', 'pods');
      await until(() => transport.retiredConnectionSets === 0, () => `certificate a's connections released (${transport.retiredConnectionSets} left)`);
      await until(() => informers.every((i) => i.state.phase === 'watching'), 'both watching again');
      assert.ok(s.requests.filter((r) => r.verb === 'watch' && r.status === 200).slice(-2).every((r) => r.clientCert === fingerprint('b')), 'both watches now on certificate b');
    });
  }
});
