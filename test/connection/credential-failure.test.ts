import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock, seededRandom } from '../../src/base/clock';
import { clusterKeyOf } from '../../src/cluster/context-identity';
import { CredentialRegistry } from '../../src/connection/credentials/credential-registry';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { emptyStats, type Informer, type InformerPhase } from '../../src/informer';
import { Informer as InformerClass } from '../../src/informer/informer';
import type { ResourceType } from '../../src/informer/resource-type';
import type { WatchEntry } from '../../src/manager';
import { describeWatchState } from '../../src/ui/watch-state-text';
import { FakeApiServer } from '../support/apiserver';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { until } from '../support/until';

const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
// The plugin timeout (30 s) is 1.5 s of real time: a Node process starts well within it on a loaded machine.
const SCALE = 20;

/**
 * F46: an exec plugin that fails (exit code, bad output, timeout) is a credential failure, not
 * a network one: the watch says "credentials failed" with the exit code or reason (never what
 * the plugin printed), and the cluster is not counted as unreachable.
 */
for (const http2 of [false, true]) {
  const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
  describe(`a failing exec plugin (F46) over ${label}`, function () {
    this.timeout(60_000);
    const cleanups: (() => unknown)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    async function setup(kubeconfigOf: (server: FakeApiServer, plugin: ExecPluginFixture) => string) {
      const server = await FakeApiServer.start({ http2, timeScale: 1000 / SCALE });
      cleanups.push(() => server.close());
      server.create('configmaps', { metadata: { name: 'cm-0', namespace: 'default' } });
      const plugin = new ExecPluginFixture(server.acceptedToken);
      cleanups.push(() => plugin.dispose());
      const clock = acceleratedClock(SCALE, seededRandom(11));
      const kc = new KubeConfig();
      kc.loadFromString(kubeconfigOf(server, plugin));
      const credentials = new CredentialRegistry({ clock });
      cleanups.push(() => credentials.dispose());
      const clusters = new ClusterRegistry(false);
      cleanups.push(() => clusters.dispose());
      const lease = clusters.acquire(clusterKeyOf(kc));
      const reachability = lease.cluster.reachability;
      let failing = false;
      const probe = setInterval(() => (failing ||= reachability.isFailing), 1);
      cleanups.push(() => clearInterval(probe));
      const transport = new KubeConfigTransport(kc, { clock, lease, credentials: credentials.acquire(kc) });
      cleanups.push(() => transport.dispose());
      const informer = new InformerClass({ transport, type: configmaps, namespace: 'default', clock, requestTimeoutMs: 600_000 });
      const phases: { phase: InformerPhase; reason?: string }[] = [];
      informer.onStateChange((s) => phases.push({ phase: s.phase, reason: s.reason }));
      cleanups.push(() => informer.stop());
      return { server, plugin, informer, phases, everFailing: () => failing };
    }

    const execKubeconfig = (server: FakeApiServer, plugin: ExecPluginFixture) => plugin.kubeconfig({ server: server.url, caPem: server.caPem });

    function assertCredentialFailure(phases: { phase: InformerPhase; reason?: string }[], everFailing: () => boolean, reason: RegExp): void {
      const failed = phases.find((p) => p.phase === 'credentials-failed');
      assert.ok(failed, `a credentials-failed state (saw ${phases.map((p) => p.phase).join(', ')})`);
      assert.match(failed.reason ?? '', reason);
      assert.ok(!phases.some((p) => p.phase === 'unreachable'), 'never unreachable');
      assert.ok(!phases.some((p) => /secret|not json at all/.test(p.reason ?? '')), 'nothing the plugin printed is shown');
      assert.equal(everFailing(), false, 'the cluster was never counted as failing (reachability)');
    }

    it(`F46 (${label}) the plugin exits with a code: "credentials failed" with the code, not unreachable; once it works again the watch syncs`, async () => {
      const { plugin, informer, phases, everFailing } = await setup(execKubeconfig);
      plugin.setExitCode(2);
      informer.start();
      await until(() => phases.filter((p) => p.phase === 'credentials-failed').length >= 1, () => phases.map((p) => p.phase).join(', '));
      assertCredentialFailure(phases, everFailing, /exited with code 2/);
      plugin.setExitCode(undefined);
      await until(() => informer.state.synced && informer.state.phase === 'watching', () => `${informer.state.phase}: ${informer.state.reason ?? ''}`);
    });

    it(`F46 (${label}) the plugin hangs past its timeout: "credentials failed" saying it timed out`, async () => {
      const { plugin, informer, phases, everFailing } = await setup(execKubeconfig);
      plugin.setHang(true);
      informer.start();
      await until(() => phases.some((p) => p.phase === 'credentials-failed'), () => phases.map((p) => p.phase).join(', '));
      assertCredentialFailure(phases, everFailing, /timed out after 30 s/);
    });

    it(`F46 (${label}) the plugin prints something that is not an ExecCredential: "credentials failed" naming what is wrong, never what it printed`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-bad-plugin-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const script = path.join(dir, 'plugin.mjs');
      fs.writeFileSync(script, "process.stdout.write('secret-token-abc not json at all');\n");
      const { informer, phases, everFailing } = await setup((server, plugin) =>
        plugin.kubeconfig({ server: server.url, caPem: server.caPem }).replace(/args: \[.*\]/, `args: [${JSON.stringify(script)}]`),
      );
      informer.start();
      await until(() => phases.some((p) => p.phase === 'credentials-failed'), () => phases.map((p) => `${p.phase} ${p.reason ?? ''}`).join(', '));
      assertCredentialFailure(phases, everFailing, /not an ExecCredential/);
    });
  });
}

describe('the state text of a credential failure (F46)', () => {
  it('F46 says "credentials failed" with the reason and when it tries again, in the colour of a failure', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const entry: WatchEntry = {
      id: 'e',
      context: 'dev',
      resource: 'pods',
      namespace: 'default',
      label: 'dev/pods in default',
      state: { phase: 'credentials-failed', reason: 'the exec plugin `kubelogin` exited with code 1', since: now - 1000, nextRetryAt: now + 3200, synced: true },
      stats: emptyStats(),
      informer: {} as Informer,
    };
    const text = describeWatchState(entry, now);
    assert.equal(text.text, 'credentials failed: the exec plugin `kubelogin` exited with code 1 · next try in 4 s');
    assert.equal(text.tone, 'error');
  });
});
