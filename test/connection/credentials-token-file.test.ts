import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base/clock';
import { loadKubeConfig } from '../../src/cluster/kubeconfig-loader';
import { CredentialRegistry } from '../../src/connection/credentials/credential-registry';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { WatchManager } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';
import { ManualClock } from '../support/manual-clock';
import { until } from '../support/until';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const q = (s: string): string => JSON.stringify(s);

/** A kubeconfig of one cluster and the given users (name: YAML lines under `user:`), one context per user named `<user>-ctx`. */
function kubeconfig(server: FakeApiServer, users: Record<string, string[]>): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: "c"',
    '  cluster:',
    `    server: ${q(server.url)}`,
    `    certificate-authority-data: ${q(Buffer.from(server.caPem).toString('base64'))}`,
    'users:',
    ...Object.entries(users).flatMap(([name, lines]) => [`- name: ${q(name)}`, '  user:', ...lines.map((l) => `    ${l}`)]),
    'contexts:',
    ...Object.keys(users).flatMap((name) => [`- name: ${q(`${name}-ctx`)}`, '  context:', '    cluster: "c"', `    user: ${q(name)}`]),
    `current-context: ${q(`${Object.keys(users)[0]}-ctx`)}`,
    '',
  ].join('\n');
}

/**
 * F41: a kubeconfig `token-file` is read when a context in use needs it, trimmed, relative to
 * the kubeconfig's directory, again after a minute and at once on a 401. Through the loader,
 * the credential registry and the real transport to the local API server.
 */
describe('token files that rotate (F41)', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function tempDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-token-file-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    const protocol = http2 ? 'h2' : 'http/1.1';

    it(`F41 (${label}) a relative tokenFile (kubectl's spelling) with a trailing newline is read from the kubeconfig's directory, trimmed; a rotation is picked up a minute later without a 401, and at once on a 401; a file missing mid-rotation keeps the last token`, async () => {
      const server = await FakeApiServer.start({ http2, token: 'token-1' });
      cleanups.push(() => server.close());
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'secrets'));
      const tokenPath = path.join(dir, 'secrets', 'token');
      fs.writeFileSync(tokenPath, 'token-1\n');
      const config = path.join(dir, 'config');
      fs.writeFileSync(config, kubeconfig(server, { vault: ['tokenFile: secrets/token'] }));
      assert.notEqual(path.resolve(process.cwd()), dir, 'the working directory is elsewhere');

      const { kc } = loadKubeConfig({ path: config });
      const clock = new ManualClock();
      const registry = new CredentialRegistry({ clock });
      cleanups.push(() => registry.dispose());
      const transport = new KubeConfigTransport(kc, { credentials: registry.acquire(kc) });
      cleanups.push(() => transport.dispose());
      const probe = () => transport.list(CONFIGMAPS, {}, new AbortController().signal);
      const statuses = () => server.requests.map((r) => r.status);

      await probe();
      assert.deepEqual(statuses(), [200], 'the trimmed token from <kubeconfig dir>/secrets/token');

      // The agent writes the next token while the old one is still valid: used from the next read on.
      fs.writeFileSync(tokenPath, 'token-2\n');
      clock.advance(30_000);
      await probe();
      assert.deepEqual(statuses(), [200, 200], 'within the minute the token read before is sent');
      server.setToken('token-2');
      clock.advance(31_000);
      await probe();
      assert.deepEqual(statuses(), [200, 200, 200], 'a minute after the last read, the file is read again: no 401');

      // Rotated and revoked at once: the 401 reads the file again at once, and the request is retried.
      fs.writeFileSync(tokenPath, '  token-3 \n\n');
      server.setToken('token-3');
      await probe();
      assert.deepEqual(statuses(), [200, 200, 200, 401, 200]);

      // Gone mid-rotation (removed, then written): the last token read stays in use.
      fs.rmSync(tokenPath);
      clock.advance(61_000);
      await probe();
      assert.deepEqual(statuses().slice(5), [200]);
      assert.ok(server.requests.every((r) => r.protocol === protocol));
    });

    it(`F41 (${label}) an unreadable token file (client-node's spelling, token-file) of a user that no context in use names breaks nothing; the context that uses one says which file cannot be read, and recovers once it can`, async () => {
      const server = await FakeApiServer.start({ http2, token: 'good-token' });
      cleanups.push(() => server.close());
      const dir = tempDir();
      const missing = path.join(dir, 'missing-token');
      const config = path.join(dir, 'config');
      fs.writeFileSync(config, kubeconfig(server, { good: ['token: "good-token"'], broken: [`token-file: ${q(missing)}`] }));
      server.create('configmaps', { metadata: { name: 'cm', namespace: 'default' } });
      const m = new WatchManager(
        { contexts: ['good-ctx'], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: config },
        { clock: acceleratedClock(50, seededRandom(7)), informerOptions: { requestTimeoutMs: 600_000 }, kubeconfigDebounceMs: 20 },
      );
      cleanups.push(() => m.stop());
      await m.start();
      const states = () => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.error]));
      await until(() => m.entries().length === 1 && m.entries()[0].state.phase === 'watching' && m.entries()[0].informer?.store.get('default/cm'), states);

      // The context whose user reads the missing file: its entry says so, in words, and the other keeps watching.
      await m.update({ contexts: ['good-ctx', 'broken-ctx'], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: config });
      const broken = () => m.entries().find((e) => e.id.includes('broken-ctx'));
      await until(() => broken()?.error?.includes('missing-token'), states);
      assert.match(broken()!.error!, /the token file .*missing-token cannot be read \(no such file\)/);
      assert.ok(m.entries().some((e) => e.id.includes('good-ctx') && e.state.phase === 'watching'), states());

      // The file appears: the next attempt reads it.
      fs.writeFileSync(missing, 'good-token\n');
      await until(() => m.entries().every((e) => e.state.phase === 'watching' && e.state.synced), states);
      assert.ok(server.requests.every((r) => r.protocol === protocol));
    });
  }
});
