/**
 * Tries the CLI (dist/cli.js) against the local API server behind a relay that freezes
 * connections, in real time: the process is stopped (SIGSTOP) for STOP_SECONDS while its
 * connection dies and the cluster changes, then continued (SIGCONT); prints how long after
 * SIGCONT the change arrived. Run after `npm run build`:
 *   node --import tsx bench/connection/cli-resume.ts            (STOP_SECONDS=60 by default)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FakeApiServer } from '../../test/support/apiserver';
import { TcpRelay } from '../../test/support/tcp-relay';

const STOP_SECONDS = Number(process.env.STOP_SECONDS ?? 60);
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

async function main(): Promise<void> {
  const server = await FakeApiServer.start();
  const relay = await TcpRelay.start(Number(new URL(server.url).port));
  server.create('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: '0' } });
  const dir = mkdtempSync(path.join(tmpdir(), 'kw-resume-'));
  const kubeconfig = path.join(dir, 'config');
  writeFileSync(kubeconfig, relay.rewrite(server.kubeconfig(), server.url));
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
  await until(/"lifecycle":"watch-opened"/);
  cli.kill('SIGSTOP');
  relay.freezeAll(); // the connection dies while the process is stopped: nothing closes it
  server.update('configmaps', { metadata: { name: 'probe', namespace: 'default' }, data: { v: 'while-stopped' } });
  await new Promise((r) => setTimeout(r, STOP_SECONDS * 1000));
  const mark = out.length;
  const continuedAt = Date.now();
  cli.kill('SIGCONT');
  const caughtUp = until(/"event":"update","namespace":"default","name":"probe"/, mark).then(() => Date.now() - continuedAt);
  const limit = new Promise<number>((r) => setTimeout(() => r(-1), 120_000));
  const ms = await Promise.race([caughtUp, limit]);
  const resumed = /"lifecycle":"resumed"[^\n]*/.exec(out.slice(mark))?.[0];
  console.log(`stopped ${STOP_SECONDS} s; after SIGCONT: ${ms < 0 ? 'not caught up within 120 s' : `caught up in ${(ms / 1000).toFixed(1)} s`}`);
  if (resumed) console.log(`log: ${resumed}`);
  cli.kill('SIGTERM');
  await relay.close();
  await server.close();
}

void main();
