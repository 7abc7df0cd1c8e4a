/**
 * Tries the CLI (dist/cli.js) with default settings against the local API server behind a
 * relay that freezes connections, in real time. Run after `npm run build`:
 *   MODE=resume node --import tsx bench/connection/cli-resume.ts
 *     the CLI is stopped (SIGSTOP) for STOP_SECONDS (60) while its connection dies and the
 *     cluster changes, then continued (SIGCONT): how long after SIGCONT the change arrived.
 *   MODE=freeze node --import tsx bench/connection/cli-resume.ts
 *     the connection freezes: how long until the CLI noticed, and until a change made after
 *     the freeze arrived.
 *   MODE=revoke node --import tsx bench/connection/cli-resume.ts
 *     the user's credential comes from an exec plugin (no expirationTimestamp); the server
 *     revokes it and the plugin would hand out a new one: how long until a change made after
 *     the revocation arrived, and how many times the plugin ran.
 * WARMUP_SECONDS=N (freeze): watch N s before the freeze. HTTP2=0 makes the server speak HTTP/1.1 only; VERSION=1.34 makes it a 1.34 server (bookmarks on
 * quiet watches about every 60 s, which HTTP/1.1 needs to see a frozen connection early).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FakeApiServer } from '../../test/support/apiserver';
import { ExecPluginFixture } from '../../test/support/exec-plugin/exec-plugin-fixture';
import { TcpRelay } from '../../test/support/tcp-relay';

const STOP_SECONDS = Number(process.env.STOP_SECONDS ?? 60);
const MODE = process.env.MODE === 'freeze' || process.env.MODE === 'revoke' ? process.env.MODE : 'resume';
const HTTP2 = process.env.HTTP2 !== '0';
const VERSION = process.env.VERSION === '1.34' ? '1.34' : '1.26';
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** `kube-watch watch configmaps -n default` from dist/, its JSON lines gathered; `until` resolves once a line after `from` matches. */
function watchConfigmaps(kubeconfig: string) {
  const cli = spawn(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'watch', 'configmaps', '-n', 'default', '--kubeconfig', kubeconfig], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waiters: (() => void)[] = [];
  cli.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  const until = (re: RegExp, from = 0) =>
    new Promise<void>((resolve) => {
      const check = () => (re.test(out.slice(from)) ? resolve() : waiters.push(check));
      check();
    });
  return { cli, output: () => out, until };
}

async function main(): Promise<void> {
  if (MODE === 'revoke') return revoke();
  const server = await FakeApiServer.start({ http2: HTTP2, version: VERSION });
  const relay = await TcpRelay.start(Number(new URL(server.url).port));
  server.create('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: '0' } });
  const dir = mkdtempSync(path.join(tmpdir(), 'kw-resume-'));
  const kubeconfig = path.join(dir, 'config');
  writeFileSync(kubeconfig, relay.rewrite(server.kubeconfig(), server.url));
  const { cli, output, until } = watchConfigmaps(kubeconfig);
  await until(/"lifecycle":"watch-opened"/);
  const protocol = /"lifecycle":"watch-opened"[^\n]*"protocol":"([^"]+)"/.exec(output())?.[1] ?? '?';
  if (MODE === 'freeze') {
    // WARMUP_SECONDS: watch that long first, so that a server with bookmarks on quiet watches has
    // shown its cadence (two bookmarks in a row) before the freeze.
    await new Promise((r) => setTimeout(r, Number(process.env.WARMUP_SECONDS ?? 0) * 1000));
    const mark = output().length;
    const frozenAt = Date.now();
    relay.freezeAll();
    server.update('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: 'after-freeze' } });
    const noticed = until(/"lifecycle":"watch-closed"/, mark).then(() => Date.now() - frozenAt);
    const caught = until(/"event":"update","namespace":"default","name":"probe"/, mark).then(() => Date.now() - frozenAt);
    const limit = new Promise<number>((r) => setTimeout(() => r(-1), 300_000));
    const n = await Promise.race([noticed, limit]);
    const c = await Promise.race([caught, limit]);
    const reason = /"lifecycle":"watch-closed"[^\n]*"reason":"([^"]*)"/.exec(output().slice(mark))?.[1];
    console.log(`server ${VERSION}, protocol ${protocol}; frozen connection noticed after ${n < 0 ? 'more than 300 s' : `${(n / 1000).toFixed(1)} s`} (${reason ?? '-'}); the change made at the freeze arrived after ${c < 0 ? 'more than 300 s' : `${(c / 1000).toFixed(1)} s`}`);
    cli.kill('SIGTERM');
    await relay.close();
    process.exit(0);
  }
  cli.kill('SIGSTOP');
  relay.freezeAll(); // the connection dies while the process is stopped: nothing closes it
  server.update('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: 'while-stopped' } });
  await new Promise((r) => setTimeout(r, STOP_SECONDS * 1000));
  const mark = output().length;
  const continuedAt = Date.now();
  cli.kill('SIGCONT');
  const caughtUp = until(/"event":"update","namespace":"default","name":"probe"/, mark).then(() => Date.now() - continuedAt);
  const limit = new Promise<number>((r) => setTimeout(() => r(-1), 120_000));
  const ms = await Promise.race([caughtUp, limit]);
  const resumed = /"lifecycle":"resumed"[^\n]*/.exec(output().slice(mark))?.[0];
  console.log(`protocol ${protocol}; stopped ${STOP_SECONDS} s; after SIGCONT: ${ms < 0 ? 'not caught up within 120 s' : `caught up in ${(ms / 1000).toFixed(1)} s`}`);
  if (resumed) console.log(`log: ${resumed}`);
  cli.kill('SIGTERM');
  await relay.close();
  process.exit(0);
}

/** MODE=revoke: an exec credential revoked while the CLI watches. */
async function revoke(): Promise<void> {
  const server = await FakeApiServer.start({ http2: HTTP2, version: VERSION, token: 'token-1' });
  const plugin = new ExecPluginFixture('token-1');
  server.create('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: '0' } });
  const dir = mkdtempSync(path.join(tmpdir(), 'kw-revoke-'));
  const kubeconfig = path.join(dir, 'config');
  writeFileSync(kubeconfig, plugin.kubeconfig({ server: server.url, caPem: server.caPem }));
  const { cli, output, until } = watchConfigmaps(kubeconfig);
  await until(/"lifecycle":"watch-opened"/);
  const protocol = /"lifecycle":"watch-opened"[^\n]*"protocol":"([^"]+)"/.exec(output())?.[1] ?? '?';
  const runsBefore = plugin.runs();
  const mark = output().length;
  const revokedAt = Date.now();
  plugin.setToken('token-2');
  server.setToken('token-2');
  server.dropWatches('end'); // the next request presents the revoked token
  server.update('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: 'after-revocation' } });
  const caught = until(/"event":"update","namespace":"default","name":"probe"/, mark).then(() => Date.now() - revokedAt);
  const limit = new Promise<number>((r) => setTimeout(() => r(-1), 120_000));
  const ms = await Promise.race([caught, limit]);
  const refused = server.requests.filter((r) => r.status === 401).length;
  const leaked = /token-[12]/.test(output());
  console.log(`protocol ${protocol}; token revoked: ${refused} request(s) refused with 401; the change arrived after ${ms < 0 ? 'more than 120 s' : `${(ms / 1000).toFixed(1)} s`}; plugin runs ${runsBefore} before, ${plugin.runs()} after; token in the CLI's output: ${leaked ? 'YES' : 'no'}`);
  cli.kill('SIGTERM');
  plugin.dispose();
  await server.close();
  process.exit(0);
}

void main();
