import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { CredentialRegistry } from '../../src/connection/credentials/credential-registry';
import { runExecPlugin } from '../../src/connection/credentials/exec-plugin-runner';
import { acceleratedClock, seededRandom } from '../../src/base/clock';
import { Informer } from '../../src/informer/informer';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { ResourceType } from '../../src/informer/resource-type';
import { WatchManager, type WatchConfig } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { ManualClock } from '../support/manual-clock';
import { until } from '../support/until';

const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function fingerprint(which: 'a' | 'b'): string {
  return new X509Certificate(fs.readFileSync(path.join(import.meta.dirname, '..', 'support', 'certs', `client-${which}.pem`))).fingerprint256;
}

describe('credentials that renew (exec plugins)', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(token: string, scale: number, http2 = false) {
    const server = await FakeApiServer.start({ timeScale: 1000 / scale, token, http2 });
    cleanups.push(() => server.close());
    const plugin = new ExecPluginFixture(token);
    cleanups.push(() => plugin.dispose());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-cred-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return { server, plugin, kubeconfigPath: path.join(dir, 'config') };
  }

  function manager(config: Partial<WatchConfig>, scale: number) {
    const m = new WatchManager(
      { contexts: [], resources: [], namespaces: [], ...config },
      { clock: acceleratedClock(scale, seededRandom(3)), informerOptions: { requestTimeoutMs: 600_000 }, kubeconfigDebounceMs: 20 },
    );
    cleanups.push(() => m.stop());
    return m;
  }

  const states = (m: WatchManager) => () => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.state.synced, e.error]));
  const allWatching = (m: WatchManager, n: number) => () => m.entries().length === n && m.entries().every((e) => e.state.phase === 'watching' && e.state.synced);

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    const protocol = http2 ? 'h2' : 'http/1.1';

    it(`F26 (${label}) an exec credential without expiry is revoked (401): the plugin runs again once for the whole cluster; recovery without a restart; unauthorized only after a 401 with fresh credentials`, async () => {
      const { server, plugin, kubeconfigPath } = await setup('token-1', 50, http2);
      fs.writeFileSync(kubeconfigPath, plugin.kubeconfig({ server: server.url, caPem: server.caPem, contexts: ['ctx-a', 'ctx-b', 'ctx-c'] }));
      server.create('configmaps', { metadata: { name: 'before', namespace: 'default' } });
      const m = manager({ contexts: ['ctx-a', 'ctx-b', 'ctx-c'], resources: ['configmaps'], namespaces: ['default', 'other'], kubeconfigPath }, 50);
      await m.start();
      await until(allWatching(m, 6), states(m));
      assert.equal(plugin.runs(), 1, 'six informers on three contexts of one user share one plugin run');

      // The token is revoked; the plugin would hand out a new one.
      plugin.setToken('token-2');
      server.setToken('token-2');
      const unauthorizedBefore = server.requests.filter((r) => r.status === 401).length;
      server.dropWatches('end');
      server.create('configmaps', { metadata: { name: 'after', namespace: 'default' } });
      await until(() => allWatching(m, 6)() && m.entries().filter((e) => e.namespace === 'default').every((e) => e.informer?.store.get('default/after') !== undefined), states(m));
      assert.ok(server.requests.filter((r) => r.status === 401).length > unauthorizedBefore, 'the server refused the revoked token');
      assert.equal(plugin.runs(), 2, 'the plugin ran once more for the whole cluster');
      assert.ok(m.entries().every((e) => e.state.phase === 'watching'), 'recovered without a restart');

      // Revoked again, and the plugin hands out the same (refused) token: only now unauthorized.
      server.setToken('token-3');
      server.dropWatches('end');
      await until(() => m.entries().every((e) => e.state.phase === 'unauthorized'), states(m));
      assert.ok(plugin.runs() >= 3, 'the plugin was asked again before giving up');
      for (const e of m.entries()) assert.ok(!/token-/.test(e.error ?? ''), 'no credential in the error');
      assert.ok(server.requests.every((r) => r.protocol === protocol), `every request over ${protocol}`);
    });

    it(`F27 (${label}) an exec plugin returns a new client certificate: new connections present the new certificate`, async () => {
      const scale = 250;
      const { server, plugin, kubeconfigPath } = await setup('token-1', scale, http2);
      const clock = acceleratedClock(scale, seededRandom(5));
      // The credentials' own clock is stepped by the test: their renewal comes when the test says,
      // however long the start took on a busy machine (the informer keeps its accelerated clock).
      const credentialClock = new ManualClock(clock.now());
      plugin.setClientCert('a');
      plugin.setExpiry(new Date(credentialClock.now() + 600_000));
      fs.writeFileSync(kubeconfigPath, plugin.kubeconfig({ server: server.url, caPem: server.caPem }));
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfigPath);
      const registry = new CredentialRegistry({ clock: credentialClock });
      cleanups.push(() => registry.dispose());
      const transport = new KubeConfigTransport(kc, { credentials: registry.acquire(kc) });
      cleanups.push(() => transport.dispose());
      const informer = new Informer({ transport, type: configmaps, namespace: 'default', clock, requestTimeoutMs: 600_000 });
      cleanups.push(() => informer.stop());
      informer.start();
      await until(() => informer.state.phase === 'watching', () => informer.state.phase);
      assert.ok(server.requests.length > 0 && server.requests.every((r) => r.clientCert === fingerprint('a')), 'certificate a presented');

      // The next run of the plugin (ahead of expiry, on the credentials' clock) hands out certificate b.
      plugin.setClientCert('b');
      plugin.setExpiry(new Date(credentialClock.now() + 6_000_000));
      credentialClock.advance(500_000);
      const pem = (which: 'a' | 'b') => fs.readFileSync(path.join(import.meta.dirname, '..', 'support', 'certs', `client-${which}.pem`), 'utf8').trim();
      const probe = registry.acquire(kc);
      let inForce = '';
      await until(
        () => (void probe.get(new AbortController().signal).then((c) => (inForce = String(c.tls.cert ?? '').trim())), inForce === pem('b')),
        () => `certificate b in force (now ${inForce === pem('a') ? 'a' : inForce === '' ? 'none' : 'another'}) after ${plugin.runs()} plugin runs`,
      );
      probe.dispose();
      assert.ok(plugin.runs() >= 2, 'the plugin ran again to renew');
      const seen = server.requests.length;
      server.dropWatches('reset');
      await until(() => server.requests.slice(seen).some((r) => r.verb === 'watch' && r.status === 200) && informer.state.phase === 'watching', () => informer.state.phase);
      // A request that took its credentials just before the renewal may still arrive with a; from the
      // first request with b on, a is never presented again.
      const later = server.requests.slice(seen);
      const firstB = later.findIndex((r) => r.clientCert === fingerprint('b'));
      const shown = later.map((r) => r.clientCert?.slice(0, 8)).join(',');
      assert.ok(firstB >= 0 && later.slice(firstB).every((r) => r.clientCert === fingerprint('b')), `new connections present certificate b: ${shown}`);
      assert.ok(server.requests.every((r) => r.protocol === protocol), `every request over ${protocol}`);
    });
  }

  it('F28 an exec plugin hangs (interactive login): stop, restart and context switch still complete; one plugin process per cluster at a time', async () => {
    const scale = 5;
    const { server, plugin, kubeconfigPath } = await setup('token-1', scale);
    plugin.setHang(true);
    fs.writeFileSync(kubeconfigPath, plugin.kubeconfig({ server: server.url, caPem: server.caPem, contexts: ['ctx-a', 'ctx-b'], interactiveMode: 'IfAvailable' }));
    const m = manager({ contexts: ['ctx-a', 'ctx-b'], resources: ['configmaps'], namespaces: ['default', 'other'], kubeconfigPath }, scale);
    await m.start();
    await until(() => plugin.runs() === 1, () => `plugin runs ${plugin.runs()}`);
    const aliveCount = () => plugin.pids().filter(alive).length;

    await m.restartAll('test');
    assert.ok(aliveCount() <= 1, 'one plugin process at a time after a restart');
    await m.update({ contexts: ['ctx-b'], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath });
    assert.ok(aliveCount() <= 1, 'one plugin process at a time after a context switch');
    // The login completes: everyone gets the credential from the process that was waiting.
    plugin.setHang(false);
    const pids = plugin.pids();
    await m.stop();
    await until(() => pids.every((p) => !alive(p)), () => 'the plugin killed on stop');
    assert.equal(m.entries().length, 0);
    assert.ok(plugin.runs() <= 2, `plugin runs ${plugin.runs()}`);
  });

  it('no plugin process outlives the manager: dispose() kills one that hangs, and nothing in the entries shows its output', async () => {
    const { server, plugin, kubeconfigPath } = await setup('token-secret-1', 5);
    plugin.setHang(true);
    fs.writeFileSync(kubeconfigPath, plugin.kubeconfig({ server: server.url, caPem: server.caPem }));
    const m = manager({ contexts: ['exec-context'], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath }, 5);
    await m.start();
    await until(() => plugin.runs() === 1, () => `plugin runs ${plugin.runs()}`);
    const [pid] = plugin.pids();
    assert.equal(alive(pid), true);
    m.dispose();
    await until(() => !alive(pid), () => 'the plugin process gone after dispose');
    for (const e of m.entries()) assert.ok(!/token-secret/.test(`${e.error ?? ''}`));
  });

  describe('exec plugin runner', () => {
    it('times out after 30 s with a one-line message, killing the plugin', async () => {
      const plugin = new ExecPluginFixture('secret-token');
      cleanups.push(() => plugin.dispose());
      plugin.setHang(true);
      const clock = new ManualClock();
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: 'https://127.0.0.1:1' }));
      const exec = kc.getCurrentUser()!.exec as Parameters<typeof runExecPlugin>[0];
      const run = runExecPlugin(exec, { clock, signal: new AbortController().signal });
      await until(() => plugin.runs() === 1, () => 'plugin started');
      clock.advance(29_000);
      assert.equal(alive(plugin.pids()[0]), true);
      clock.advance(1_000);
      await assert.rejects(run, (err: Error) => /^the exec plugin `node(\.exe)?` timed out after 30 s$/.test(err.message));
      await until(() => !alive(plugin.pids()[0]), () => 'killed');
    });

    it('reports a failing plugin by its exit code, never its output', async () => {
      const plugin = new ExecPluginFixture('secret-token');
      cleanups.push(() => plugin.dispose());
      plugin.setExitCode(1);
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: 'https://127.0.0.1:1' }));
      const exec = kc.getCurrentUser()!.exec as Parameters<typeof runExecPlugin>[0];
      await assert.rejects(runExecPlugin(exec, { clock: new ManualClock(), signal: new AbortController().signal }), (err: Error) => {
        assert.match(err.message, /^the exec plugin `node(\.exe)?` exited with code 1$/);
        return true;
      });
    });

    it('passes KUBERNETES_EXEC_INFO with the cluster when provideClusterInfo is set', async () => {
      const plugin = new ExecPluginFixture('t');
      cleanups.push(() => plugin.dispose());
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: 'https://kube.example:6443', provideClusterInfo: true }));
      const registry = new CredentialRegistry({ clock: new ManualClock() });
      const creds = await registry.acquire(kc).get(new AbortController().signal);
      registry.dispose();
      assert.equal(creds.headers.Authorization, 'Bearer t');
      assert.deepEqual(plugin.execInfo(), { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { interactive: false, cluster: { server: 'https://kube.example:6443' } } });
    });

    it('renews ahead of expiry (a fifth of the lifetime, at most 5 min, ahead), on the clock', async () => {
      const plugin = new ExecPluginFixture('t1');
      cleanups.push(() => plugin.dispose());
      const clock = new ManualClock();
      plugin.setExpiry(new Date(clock.now() + 3_600_000));
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: 'https://127.0.0.1:1' }));
      const registry = new CredentialRegistry({ clock });
      cleanups.push(() => registry.dispose());
      const lease = registry.acquire(kc);
      const first = await lease.get(new AbortController().signal);
      plugin.setToken('t2');
      clock.advance(3_299_000);
      assert.equal(plugin.runs(), 1);
      clock.advance(1_000);
      await until(() => plugin.runs() === 2, () => 'renewed');
      let second = await lease.get(new AbortController().signal);
      await until(() => (second.generation > first.generation ? true : (void lease.get(new AbortController().signal).then((c) => (second = c)), false)), () => 'new generation');
      assert.equal(second.headers.Authorization, 'Bearer t2');
    });

    it('a plugin run is timed on the run clock: the registry clock passing 30 s does not time it out, the run clock passing 30 s does', async () => {
      const plugin = new ExecPluginFixture('t');
      cleanups.push(() => plugin.dispose());
      plugin.setHang(true);
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: 'https://127.0.0.1:1' }));
      const clock = new ManualClock();
      const runClock = new ManualClock();
      const registry = new CredentialRegistry({ clock, runClock });
      cleanups.push(() => registry.dispose());
      let outcome: string | undefined;
      void registry.acquire(kc).get(new AbortController().signal).then(() => (outcome = 'credentials'), (e: Error) => (outcome = e.message));
      await until(() => plugin.runs() === 1, () => 'started');
      clock.advance(31_000);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(outcome, undefined, 'still running after 31 s on the registry clock');
      runClock.advance(31_000);
      await until(() => outcome !== undefined, () => 'the run timed out');
      assert.match(outcome!, /timed out after 30 s/);
    });

    it('a waiting get() rejects at once on abort; dispose kills the plugin', async () => {
      const plugin = new ExecPluginFixture('t');
      cleanups.push(() => plugin.dispose());
      plugin.setHang(true);
      const kc = new KubeConfig();
      kc.loadFromString(plugin.kubeconfig({ server: 'https://127.0.0.1:1' }));
      const registry = new CredentialRegistry({ clock: new ManualClock() });
      const a = registry.acquire(kc);
      const b = registry.acquire(kc);
      const ctl = new AbortController();
      const waiting = a.get(ctl.signal);
      const other = b.get(new AbortController().signal);
      await until(() => plugin.runs() === 1, () => 'started');
      ctl.abort();
      await assert.rejects(waiting, { name: 'AbortedError' });
      assert.equal(plugin.runs(), 1, 'one process for both leases');
      a.dispose();
      assert.equal(alive(plugin.pids()[0]), true, 'still running for the other lease');
      b.dispose();
      await assert.rejects(other);
      await until(() => !alive(plugin.pids()[0]), () => 'killed');
    });
  });
});
