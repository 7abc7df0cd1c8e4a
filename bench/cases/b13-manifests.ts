/**
 * B13: a workspace of 500 manifests of 10 types against a cluster of 10,000 objects. Measured on
 * the manifests engine with the watch manager (the extension's own path: discovery, one ad-hoc
 * watch per type and namespace named, server-side dry runs) against the local API server in this process,
 * not inside VS Code (the CodeLens provider only reads what the engine holds). Figures: opening
 * the folder to every document's live state; a cluster change to its document's state (p95);
 * dry runs per document per change; the process's CPU while idle (server and engine together).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { ManagerCluster } from '../../src/manifests/manager-cluster';
import { ManifestEngine } from '../../src/manifests/manifest-engine';
import { FakeApiServer } from '../../test/support/apiserver';
import { ACTION_TYPES } from '../../test/support/apiserver/action-resources';
import type { CaseContext, CaseResult } from '../support/harness';

const TYPES = [
  { resource: 'configmaps', apiVersion: 'v1', kind: 'ConfigMap' },
  { resource: 'secrets', apiVersion: 'v1', kind: 'Secret' },
  { resource: 'services', apiVersion: 'v1', kind: 'Service' },
  { resource: 'deployments.apps', apiVersion: 'apps/v1', kind: 'Deployment' },
  { resource: 'replicasets.apps', apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  { resource: 'statefulsets.apps', apiVersion: 'apps/v1', kind: 'StatefulSet' },
  { resource: 'daemonsets.apps', apiVersion: 'apps/v1', kind: 'DaemonSet' },
  { resource: 'jobs.batch', apiVersion: 'batch/v1', kind: 'Job' },
  { resource: 'cronjobs.batch', apiVersion: 'batch/v1', kind: 'CronJob' },
  { resource: 'poddisruptionbudgets.policy', apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
];

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

export async function b13({ h, quick }: CaseContext): Promise<CaseResult> {
  const perType = quick ? 100 : 1000;
  const manifestsPerType = quick ? 10 : 50;
  const changes = quick ? 10 : 40;
  // HTTP/2, as kube-apiserver serves it: one connection carries the watches (more when a stream would wait).
  const server = await FakeApiServer.start({ token: 'b13', http2: true });
  for (const def of ACTION_TYPES) server.defineResource(def);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-b13-'));
  const kubeconfig = path.join(dir, 'config');
  server.writeKubeconfig(kubeconfig, { token: 'b13' });
  h.progress.step(`B13: ${perType * TYPES.length} objects of ${TYPES.length} types, ${manifestsPerType * TYPES.length} manifests`);
  const labels = (i: number) => ({ bench: 'b13', index: String(i) });
  for (const t of TYPES) for (let i = 0; i < perType; i++) server.create(t.resource, { metadata: { namespace: `ns-${i % 10}`, name: `${t.kind.toLowerCase()}-${i}`, labels: labels(i) } });
  const manager = new WatchManager({ contexts: [], resources: [], namespaces: [], kubeconfigPath: kubeconfig }, { clock: systemClock });
  await manager.start();
  const cluster = new ManagerCluster(manager, () => undefined, systemClock);
  const engine = new ManifestEngine(cluster, { clock: systemClock });
  const uriOf = (t: (typeof TYPES)[number], i: number) => `file:///bench/${t.kind}-${i}.yaml`;
  const text = (t: (typeof TYPES)[number], i: number, value = String(i)) =>
    `apiVersion: ${t.apiVersion}\nkind: ${t.kind}\nmetadata:\n  name: ${t.kind.toLowerCase()}-${i}\n  namespace: ns-${i % 10}\n  labels:\n    bench: b13\n    index: "${value}"\n`;
  const docs = TYPES.flatMap((t) => Array.from({ length: manifestsPerType }, (_, i) => ({ t, i, uri: uriOf(t, i) })));
  const stateOf = (uri: string) => engine.view(uri)?.documents[0]?.state.kind;
  const notes: string[] = [];
  try {
    const start = performance.now();
    for (const d of docs) engine.update(d.uri, text(d.t, d.i));
    const allShown = await until(() => docs.every((d) => stateOf(d.uri) === 'in-sync'), 120_000);
    const openMs = performance.now() - start;
    if (!allShown) notes.push(`B13: not all in sync: ${JSON.stringify(docs.map((d) => engine.view(d.uri)?.documents[0]?.state).filter((s) => s?.kind !== 'in-sync').slice(0, 3))}`);

    // Changes on the cluster: a label set by someone else, then back; each must show as drift, then in sync.
    const latencies: number[] = [];
    const dryRunsPerChange: number[] = [];
    for (let c = 0; c < changes; c++) {
      const d = docs[(c * 37) % docs.length];
      const key = `${d.uri}#${d.t.apiVersion}|${d.t.kind}|ns-${d.i % 10}|${d.t.kind.toLowerCase()}-${d.i}`;
      const before = engine.dryRunsStarted.get(key) ?? 0;
      const obj = server.get(d.t.resource, `ns-${d.i % 10}`, `${d.t.kind.toLowerCase()}-${d.i}`)!;
      const t0 = performance.now();
      server.update(d.t.resource, { ...obj, metadata: { ...obj.metadata, labels: { ...labels(d.i), index: `changed-${c}` } } }, { manager: 'someone' });
      await until(() => stateOf(d.uri) === 'drifted', 30_000);
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 200)); // no second dry run for the same change
      dryRunsPerChange.push((engine.dryRunsStarted.get(key) ?? 0) - before);
      const now = server.get(d.t.resource, `ns-${d.i % 10}`, `${d.t.kind.toLowerCase()}-${d.i}`)!;
      server.update(d.t.resource, { ...now, metadata: { ...now.metadata, labels: labels(d.i) } }, { manager: 'someone' });
      await until(() => stateOf(d.uri) === 'in-sync', 30_000);
    }
    // Idle: nothing changes for 10 s (3 s quick).
    const idleMs = quick ? 3000 : 10_000;
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    await new Promise((r) => setTimeout(r, idleMs));
    const cpu = process.cpuUsage(cpu0);
    const idlePercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - w0)) * 100;
    const p95 = percentile(latencies, 95);
    const maxDryRuns = Math.max(...dryRunsPerChange);
    notes.push(`B13: ${docs.length} manifests, ${perType * TYPES.length} objects, ${manager.adHocWatchCount} ad-hoc watches; change latencies p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms; engine only, not in VS Code`);
    h.progress.done();
    return {
      rows: [
        { case: 'B13', metric: 'opening to every live state', unit: 'ms', better: 'lower', ours: Math.round(openMs), reference: null, limit: 3000, runs: 1 },
        { case: 'B13', metric: 'cluster change to state (p95)', unit: 'ms', better: 'lower', ours: Math.round(p95), reference: null, limit: 1000, runs: changes },
        { case: 'B13', metric: 'dry runs per document per change', unit: 'dry runs', better: 'lower', ours: maxDryRuns, reference: null, limit: 1, runs: changes },
        { case: 'B13', metric: 'idle CPU (engine and server)', unit: '% of a core', better: 'lower', ours: Number(idlePercent.toFixed(2)), reference: null, limit: 1, runs: 1 },
      ],
      verdicts: [
        { case: 'B13', metric: 'opening to every live state', target: 'within 3 s', met: allShown && openMs <= 3000 },
        { case: 'B13', metric: 'cluster change to state (p95)', target: 'within 1 s', met: p95 <= 1000 },
        { case: 'B13', metric: 'dry runs per document per change', target: 'at most 1', met: maxDryRuns <= 1 },
        { case: 'B13', metric: 'idle CPU (engine and server)', target: 'under 1% of a core', met: idlePercent < 1 },
      ],
      notes,
    };
  } finally {
    engine.dispose();
    cluster.dispose();
    manager.dispose();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
