/**
 * B16: metrics for 10,000 Pods in 100 namespaces with one namespace shown. The local API server
 * (in this process) serves metrics.k8s.io for every running pod; the metrics engine runs in a
 * process of its own showing one namespace, at the default 15 s resolution, for a real minute
 * (30 s with --quick). Figures: metrics requests per minute the server saw (all must be the shown
 * namespace's: 4 a minute), and the engine process's CPU over the window, in % of one core.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FakeApiServer } from '../../test/support/apiserver';
import { podObject } from '../../scripts/sandbox/simulated-cluster';
import { median, ROOT, type CaseContext, type CaseResult } from '../support/harness';

const PODS = 10_000;
const NAMESPACES = 100;
const SHOWN = 'team-042';

function runEngine(task: object): Promise<{ started: number; ended: number; cpuMs: number; wallMs: number; rounds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/support/metrics-engine-main.ts')], { env: { ...process.env, B16_TASK: JSON.stringify(task) }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`B16 engine process exited with ${code}`));
      const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, number>);
      resolve({ ...lines[0], ...lines[1] } as never);
    });
  });
}

export async function b16({ h, quick }: CaseContext): Promise<CaseResult> {
  const windowMs = quick ? 30_000 : 60_000;
  const runs = quick ? 1 : 2;
  h.progress.step(`B16: ${PODS.toLocaleString('en-US')} pods in ${NAMESPACES} namespaces`);
  const server = await FakeApiServer.start({ http2: true, historyLimit: 100 });
  const perMinute: number[] = [];
  const cpuPercent: number[] = [];
  const notes: string[] = [];
  try {
    server.metrics.mode = 'served';
    for (let i = 0; i < PODS; i++) {
      const ns = `team-${String(i % NAMESPACES).padStart(3, '0')}`;
      server.create('pods', podObject(ns, `pod-${i}`));
    }
    for (let r = 0; r < runs; r++) {
      h.progress.step(`B16 run ${r + 1}/${runs}: one namespace shown for ${windowMs / 1000} s`);
      const res = await runEngine({ kubeconfig: server.kubeconfig({ context: 'b16' }), http2: true, namespace: SHOWN, intervalMs: 15_000, warmupMs: 3000, windowMs });
      const seen = server.requests.filter((x) => x.path.startsWith('/apis/metrics.k8s.io/') && x.at >= res.started && x.at <= res.ended);
      const foreign = seen.filter((x) => x.path !== `/apis/metrics.k8s.io/v1beta1/namespaces/${SHOWN}/pods`);
      perMinute.push((seen.length * 60_000) / windowMs);
      cpuPercent.push((res.cpuMs / res.wallMs) * 100);
      notes.push(`B16 run ${r + 1}: ${seen.length} metrics requests in ${windowMs / 1000} s (${foreign.length} for anything but ${SHOWN}), engine CPU ${res.cpuMs.toFixed(0)} ms in ${(res.wallMs / 1000).toFixed(1)} s`);
      server.requests.length = 0;
    }
  } finally {
    await server.close();
  }
  h.progress.done();
  const rpm = median(perMinute);
  const cpu = median(cpuPercent);
  return {
    rows: [
      { case: 'B16', metric: 'metrics requests per minute', unit: 'requests', better: 'lower', ours: rpm, reference: null, limit: 4, runs },
      { case: 'B16', metric: 'engine process CPU', unit: '%', better: 'lower', ours: cpu, reference: null, limit: 2, runs },
    ],
    verdicts: [
      { case: 'B16', metric: 'metrics requests per minute', target: 'only the shown namespace, <= 4 a minute (+1 at a window edge)', met: rpm <= 5 && notes.every((n) => n.includes('(0 for anything')) },
      { case: 'B16', metric: 'engine process CPU', target: 'under 2% of a core', met: cpu < 2 },
    ],
    notes: [...notes, 'B16: the engine alone (ClusterMetrics over our HTTP/2 transport) in its own process; the server (in the bench process) serves metrics.k8s.io for 10,000 running pods.'],
  };
}
