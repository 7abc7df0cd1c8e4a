/**
 * How long a client takes to heal when a live connection goes silent (F49), or to catch up after
 * its process was stopped while its connection died (F24), on a real kube-apiserver 1.34.9 with
 * etcd 3.5 (test/real/support) behind a TCP relay that freezes live connections (new ones go
 * through). The clients run as child processes watching the ConfigMaps of a fresh namespace:
 *   ours        the CLI (dist/cli.js, or OURS_CLI=path for another build, e.g. the one before a change)
 *   client-node @kubernetes/client-node's informer as its README shows it (client-node-watch.ts)
 * Each run: start the client through the relay, let it watch WARMUP_SECONDS (cycled over the
 * runs, so the freeze falls at different points of the PING schedule), then
 *   MODE=freeze  freeze every live connection and change the probe ConfigMap at once: the time
 *                until the client reports the change (the heal time);
 *   MODE=resume  stop the client (SIGSTOP), freeze its connections, change the probe, wait
 *                STOP_SECONDS, continue it (SIGCONT): the time from SIGCONT until it reports the
 *                change (the catch-up time; the process notices it was away, as after a suspend).
 * Run after `npm run build`, with Node 22.19 or newer (client-node 2.0):
 *   node_modules/.bin/node --import tsx bench/connection/heal-real.ts
 * Settings (environment): CLIENTS=ours,client-node  TIMEOUTS=default,5 (the CLI's
 * --timeout-seconds; client-node has no such setting: one row)  RUNS=3  WARMUP_SECONDS=4,11,18
 * MODE=freeze|resume  STOP_SECONDS=30  OURS_CLI=dist/cli.js  OURS_LABEL=ours
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ControlPlane } from '../../test/real/support';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const MODE = process.env.MODE === 'resume' ? 'resume' : 'freeze';
const CLIENTS = (process.env.CLIENTS ?? 'ours,client-node').split(',').map((s) => s.trim()).filter(Boolean);
const TIMEOUTS = (process.env.TIMEOUTS ?? 'default,5').split(',').map((s) => s.trim()).filter(Boolean);
const RUNS = Number(process.env.RUNS ?? 3);
const WARMUPS = (process.env.WARMUP_SECONDS ?? '4,11,18').split(',').map(Number);
const STOP_SECONDS = Number(process.env.STOP_SECONDS ?? 30);
const OURS_CLI = path.resolve(repoRoot, process.env.OURS_CLI ?? 'dist/cli.js');
const OURS_LABEL = process.env.OURS_LABEL ?? 'ours';
const LIMIT_MS = 180_000;

interface Watcher {
  child: ChildProcess;
  output(): string;
  /** Resolves with Date.now() when a line after offset `from` matches. */
  until(re: RegExp, from?: number): Promise<number>;
}

function startClient(client: string, kubeconfig: string, namespace: string, timeout: string): Watcher {
  const args =
    client === 'client-node'
      ? ['--import', 'tsx', path.join(repoRoot, 'bench', 'connection', 'client-node-watch.ts'), kubeconfig, namespace]
      : [OURS_CLI, 'watch', 'configmaps', '-n', namespace, '--kubeconfig', kubeconfig, ...(timeout === 'default' ? [] : ['--timeout-seconds', timeout])];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  const until = (re: RegExp, from = 0) =>
    new Promise<number>((resolve) => {
      const check = () => (re.test(out.slice(from)) ? resolve(Date.now()) : waiters.push(check));
      check();
    });
  return { child, output: () => out, until };
}

function within(p: Promise<number>, ms: number): Promise<number | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms))]);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(t);
}

async function oneRun(plane: ControlPlane, client: string, timeout: string, warmupSeconds: number): Promise<number | undefined> {
  const namespace = await plane.setup.namespace();
  const configMaps = plane.setup.configMaps(namespace);
  await configMaps.create('probe');
  const relay = await plane.relay();
  const dir = mkdtempSync(path.join(tmpdir(), 'kw-heal-'));
  const kubeconfig = path.join(dir, 'config');
  writeFileSync(kubeconfig, plane.kubeconfig('admin', { via: relay, namespace }));
  const w = startClient(client, kubeconfig, namespace, timeout);
  try {
    const opened = await within(w.until(/"lifecycle":"watch-opened"/), 60_000);
    if (opened === undefined) throw new Error(`${client} did not start watching: ${w.output().slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
    const changed = /"event":"update"[^\n]*"name":"probe"|"name":"probe"[^\n]*"event":"update"/;
    if (MODE === 'freeze') {
      const mark = w.output().length;
      const frozenAt = Date.now();
      relay.freezeAll();
      await configMaps.update('probe', 'after-freeze');
      const at = await within(w.until(changed, mark), LIMIT_MS);
      return at === undefined ? undefined : at - frozenAt;
    }
    w.child.kill('SIGSTOP');
    relay.freezeAll();
    await configMaps.update('probe', 'while-stopped');
    await new Promise((r) => setTimeout(r, STOP_SECONDS * 1000));
    const mark = w.output().length;
    const continuedAt = Date.now();
    w.child.kill('SIGCONT');
    const at = await within(w.until(changed, mark), LIMIT_MS);
    return at === undefined ? undefined : at - continuedAt;
  } finally {
    await stopChild(w.child);
    await plane.closeRelay(relay);
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (ms: number | undefined) => (ms === undefined ? `>${LIMIT_MS / 1000}` : (ms / 1000).toFixed(1));

async function main(): Promise<void> {
  const plane = await ControlPlane.start();
  console.log(`kube-apiserver 1.34.9 + etcd 3.5 up in ${(plane.startup.totalMs / 1000).toFixed(1)} s; MODE=${MODE}${MODE === 'resume' ? `, stopped ${STOP_SECONDS} s` : ''}; warmups ${WARMUPS.join(', ')} s`);
  console.log(`| client | watch timeouts | ${MODE === 'freeze' ? 'heal time' : 'catch-up after SIGCONT'} per run (s) | median | max |`);
  console.log('|---|---|---|---|---|');
  try {
    for (const client of CLIENTS) {
      for (const timeout of client === 'client-node' ? ['default'] : TIMEOUTS) {
        const results: (number | undefined)[] = [];
        for (let i = 0; i < RUNS; i++) results.push(await oneRun(plane, client, timeout, WARMUPS[i % WARMUPS.length]));
        const known = results.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
        const median = results.length === known.length ? known[Math.floor((known.length - 1) / 2)] : undefined;
        const max = results.length === known.length ? known.at(-1) : undefined;
        const label = client === 'ours' ? OURS_LABEL : client;
        const timeouts = client === 'client-node' ? 'its own (none settable)' : timeout === 'default' ? 'default ([300, 600) s)' : `--timeout-seconds ${timeout}`;
        console.log(`| ${label} | ${timeouts} | ${results.map(fmt).join(', ')} | ${fmt(median)} | ${fmt(max)} |`);
      }
    }
  } finally {
    await plane.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
