import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base/clock';
import { contextFingerprint } from '../../src/cluster/context-identity';
import { loadKubeConfig } from '../../src/cluster/kubeconfig-loader';
import { WatchManager } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';
import { OidcProvider, unsignedJwt } from '../support/oidc/oidc-provider';
import { until } from '../support/until';

const q = (s: string): string => JSON.stringify(s);
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const SCALE = 50;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
const NAMESPACES = Array.from({ length: 10 }, (_, i) => `ns-${i}`);

/** A kubeconfig as kubectl writes it, with a comment, an OIDC user on two contexts, and another user. */
function kubeconfig(server: FakeApiServer, provider: OidcProvider, idToken: string, refreshToken: string): string {
  return `# written by kubectl; this comment and the layout below stay as they are
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${b64(server.caPem)}
    server: ${server.url}
  name: fake
contexts:
- context:
    cluster: fake
    user: alice
  name: ctx-a
- context:
    cluster: fake
    user: alice
  name: ctx-b
- context:
    cluster: fake
    user: bob
  name: ctx-bob
current-context: ctx-a
kind: Config
preferences: {}
users:
- name: alice
  user:
    auth-provider:
      config:
        client-id: kube
        client-secret: s3cret
        id-token: ${idToken}
        idp-certificate-authority-data: ${b64(provider.caPem)}
        idp-issuer-url: ${provider.url}
        refresh-token: ${refreshToken}
      name: oidc
- name: bob   # a token user, untouched
  user:
    token: ${q('bob-token')}
`;
}

/**
 * F44: auth-provider credentials. OIDC: one refresh per user however many informers wait, the
 * refresh token never spent twice, the new tokens written back to the kubeconfig file the user
 * came from, a refresh made by kubectl meanwhile adopted. Through the manager and the real
 * transport to the local API server, with a local identity provider that rotates refresh
 * tokens as Dex does.
 */
describe('auth-provider credentials (F44)', function () {
  this.timeout(90_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    const protocol = http2 ? 'h2' : 'http/1.1';

    it(`F44 (${label}) an OIDC id-token expires while 20 informers of its user run: one refresh for all of them, a refresh token never spent twice, the new tokens written back to the kubeconfig with nothing else in it changed, no relist for the write; after an outage of the token one more refresh; a refresh kubectl made meanwhile is adopted, not spent again`, async () => {
      const clock = acceleratedClock(SCALE, seededRandom(11));
      const server = await FakeApiServer.start({ http2, token: 'nothing-yet' });
      cleanups.push(() => server.close());
      const provider = await OidcProvider.start({ clock, clientSecret: 's3cret', onIssue: (t) => server.setToken(t) });
      cleanups.push(() => provider.close());
      provider.delayMs = 200;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-oidc-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const config = path.join(dir, 'config');
      const expired = unsignedJwt(clock.now() - 60_000);
      const r0 = provider.liveRefreshToken;
      const original = kubeconfig(server, provider, expired, r0);
      fs.writeFileSync(config, original);
      const fingerprint = contextFingerprint(loadKubeConfig({ path: config, context: 'ctx-a' }).kc);

      const m = new WatchManager(
        { contexts: ['ctx-a', 'ctx-b'], resources: ['configmaps'], namespaces: NAMESPACES, kubeconfigPath: config },
        { clock, informerOptions: { requestTimeoutMs: 600_000 }, kubeconfigDebounceMs: 20 },
      );
      cleanups.push(() => m.stop());
      const states = () => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.error]));
      const allWatching = () => m.entries().length === 20 && m.entries().every((e) => e.state.phase === 'watching' && e.state.synced);
      await m.start();
      await until(allWatching, states);
      assert.equal(provider.refreshes.length, 1, 'one refresh for 20 informers on two contexts');
      assert.deepEqual(provider.reuses, [], 'no refresh token spent twice');
      const [first] = provider.refreshes;
      await until(() => fs.readFileSync(config, 'utf8').includes(first.issuedRefreshToken), 'the new tokens in the kubeconfig');
      assert.equal(fs.readFileSync(config, 'utf8'), original.replace(expired, first.issuedIdToken).replace(r0, first.issuedRefreshToken), 'only the two tokens changed');
      assert.equal(fs.existsSync(`${config}.lock`), false, 'the lock is released');
      assert.deepEqual(contextFingerprint(loadKubeConfig({ path: config, context: 'ctx-a' }).kc), fingerprint, 'the written file is no credential change (no relist)');

      /** Ends every watch and waits until all 20 are open again. */
      const rewatched = async () => {
        const seen = server.requests.length;
        server.dropWatches('end');
        await until(() => allWatching() && server.requests.slice(seen).filter((r) => r.verb === 'watch' && r.status === 200).length >= 20, states);
      };

      // The API server stops accepting the id-token (an outage, a key rotation): 20 refused watches, one refresh.
      server.setToken('revoked');
      await rewatched();
      assert.equal(provider.refreshes.length, 2);
      await until(() => fs.readFileSync(config, 'utf8').includes(provider.refreshes[1].issuedRefreshToken), 'the second refresh in the kubeconfig');
      assert.deepEqual(provider.reuses, []);

      // kubectl in a terminal refreshes meanwhile (spending the file's refresh token) and writes its tokens back.
      const byKubectl = provider.redeem(provider.refreshes[1].issuedRefreshToken)!;
      const text = fs.readFileSync(config, 'utf8');
      fs.writeFileSync(config, text.replace(provider.refreshes[1].issuedIdToken, byKubectl.idToken).replace(provider.refreshes[1].issuedRefreshToken, byKubectl.refreshToken));
      await rewatched();
      assert.equal(provider.refreshes.length, 3, 'kubectl\'s refresh adopted from the file, none of ours');
      assert.deepEqual(provider.reuses, [], 'the refresh token kubectl spent was not presented again');

      // The next refresh spends the token kubectl left in the file, and kubectl's next run finds a live one there.
      server.setToken('revoked-again');
      await rewatched();
      assert.equal(provider.refreshes.length, 4);
      assert.equal(provider.refreshes[3].spent, byKubectl.refreshToken);
      await until(() => fs.readFileSync(config, 'utf8').includes(provider.refreshes[3].issuedRefreshToken), 'the fourth refresh in the kubeconfig');
      const inFile = /refresh-token: (\S+)/.exec(fs.readFileSync(config, 'utf8'))![1];
      assert.ok(provider.redeem(inFile), 'the refresh token in the kubeconfig is live for the next kubectl run');
      assert.deepEqual(provider.reuses, []);
      assert.ok(fs.readFileSync(config, 'utf8').includes('# written by kubectl; this comment'), 'comments kept');
      assert.ok(server.requests.every((r) => r.protocol === protocol));
    });

    it(`F44 (${label}) a gcp cmd-path command runs asynchronously: while it hangs the extension host runs on, it is killed after 30 s with a message in words, a working one's token is used, and one that hangs at stop is killed`, async () => {
      const clock = acceleratedClock(SCALE, seededRandom(13));
      const server = await FakeApiServer.start({ http2, token: 'gcp-token-1' });
      cleanups.push(() => server.close());
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-cmd-path-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = (name: string) => path.join(dir, name);
      const runs = () => (fs.existsSync(file('runs')) ? fs.readFileSync(file('runs'), 'utf8').split('\n').filter(Boolean).map(Number) : []);
      fs.writeFileSync(file('hang'), '');
      const config = file('config');
      fs.writeFileSync(
        config,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          `- name: fake`,
          '  cluster:',
          `    server: ${server.url}`,
          `    certificate-authority-data: ${b64(server.caPem)}`,
          'users:',
          '- name: gke-user',
          '  user:',
          '    auth-provider:',
          '      name: gcp',
          '      config:',
          `        cmd-path: ${q(process.execPath)}`,
          `        cmd-args: ${q(`${path.join(import.meta.dirname, '..', 'support', 'exec-plugin', 'cloud-command.mjs')} ${dir}`)}`,
          "        token-key: '{.credential.access_token}'",
          "        expiry-key: '{.credential.token_expiry}'",
          'contexts:',
          '- name: gke',
          '  context: {cluster: fake, user: gke-user}',
          'current-context: gke',
          '',
        ].join('\n'),
      );
      const m = new WatchManager({ contexts: ['gke'], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: config }, { clock, kubeconfigDebounceMs: 20 });
      cleanups.push(() => m.stop());
      const states = () => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.error]));
      await m.start();
      await until(() => runs().length === 1, 'the command started');

      // The extension host is not blocked while the command hangs: real timers keep firing.
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      await until(() => ticks >= 5, 'five timer ticks while the command hangs');
      clearInterval(ticker);
      await until(() => m.entries()[0]?.error?.includes('timed out'), states);
      assert.match(m.entries()[0].error!, /the gcp auth provider's command `node(\.exe)?` timed out after 30 s/);
      await until(() => !alive(runs()[0]), 'the timed-out command killed');

      // It answers now: the next attempt's token is used.
      fs.rmSync(file('hang'));
      fs.writeFileSync(file('token'), 'gcp-token-1');
      fs.writeFileSync(file('expiry'), new Date(clock.now() + 3_600_000).toISOString());
      await until(() => m.entries().length === 1 && m.entries()[0].state.phase === 'watching', states);

      // Refused (a revoked token) while the command hangs again: stop kills it.
      fs.writeFileSync(file('hang'), '');
      server.setToken('gcp-token-2');
      const before = runs().length;
      server.dropWatches('end');
      await until(() => runs().length > before, 'the command run again after the 401');
      const hanging = runs().at(-1)!;
      assert.equal(alive(hanging), true);
      await m.stop();
      await until(() => !alive(hanging), 'the command killed on stop');
      assert.ok(server.requests.every((r) => r.protocol === protocol));
    });
  }

  it('F44 one OIDC user on two clusters whose id-token expired: one refresh for both clusters\' informers, the refresh token spent once', async () => {
    const clock = acceleratedClock(SCALE, seededRandom(14));
    const east = await FakeApiServer.start({ token: 'nothing-yet' });
    cleanups.push(() => east.close());
    const west = await FakeApiServer.start({ token: 'nothing-yet' });
    cleanups.push(() => west.close());
    const provider = await OidcProvider.start({ clock, clientSecret: 's3cret', onIssue: (t) => (east.setToken(t), west.setToken(t)) });
    cleanups.push(() => provider.close());
    provider.delayMs = 200;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-oidc-2-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = path.join(dir, 'config');
    // The cluster of the generated kubeconfig is east; west is added beside it with a context of its own.
    const text = kubeconfig(east, provider, unsignedJwt(clock.now() - 60_000), provider.liveRefreshToken)
      .replace('clusters:\n', `clusters:\n- cluster:\n    certificate-authority-data: ${b64(west.caPem)}\n    server: ${west.url}\n  name: west\n`)
      .replace('contexts:\n', 'contexts:\n- context:\n    cluster: west\n    user: alice\n  name: ctx-west\n');
    fs.writeFileSync(config, text);
    const m = new WatchManager({ contexts: ['ctx-a', 'ctx-west'], resources: ['configmaps'], namespaces: NAMESPACES.slice(0, 5), kubeconfigPath: config }, { clock, kubeconfigDebounceMs: 20 });
    cleanups.push(() => m.stop());
    await m.start();
    await until(
      () => m.entries().length === 10 && m.entries().every((e) => e.state.phase === 'watching' && e.state.synced),
      () => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.error])),
    );
    assert.equal(provider.refreshes.length, 1, 'one refresh for the user on both clusters');
    assert.deepEqual(provider.reuses, []);
    assert.ok(east.requests.some((r) => r.status === 200) && west.requests.some((r) => r.status === 200));
  });

  it('F44 a kubeconfig that cannot be written now (another writer holds its lock) keeps the refreshed tokens in memory: watching goes on, the file is left alone', async () => {
    const clock = acceleratedClock(SCALE, seededRandom(12));
    const server = await FakeApiServer.start({ token: 'nothing-yet' });
    cleanups.push(() => server.close());
    const provider = await OidcProvider.start({ clock, clientSecret: 's3cret', onIssue: (t) => server.setToken(t) });
    cleanups.push(() => provider.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-oidc-ro-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = path.join(dir, 'config');
    const original = kubeconfig(server, provider, unsignedJwt(clock.now() - 60_000), provider.liveRefreshToken);
    fs.writeFileSync(config, original);
    // Another writer holds kubectl's lock for good: the write is given up after a short wait.
    fs.writeFileSync(`${config}.lock`, '');
    const m = new WatchManager({ contexts: ['ctx-a'], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: config }, { clock, kubeconfigDebounceMs: 20 });
    cleanups.push(() => m.stop());
    await m.start();
    await until(() => m.entries().length === 1 && m.entries()[0].state.phase === 'watching', () => JSON.stringify(m.entries().map((e) => [e.state.phase, e.error])));
    assert.equal(provider.refreshes.length, 1);
    assert.equal(fs.readFileSync(config, 'utf8'), original);
  });
});
