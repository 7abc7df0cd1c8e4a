/**
 * B12: one port-forward of a Service carries 200 new connections a second for 60 s while its
 * only pod is replaced every 10 s (deleted; a new pod created, ready 1 s later, as a ReplicaSet
 * and a kubelet would). The forward runs in a process of its own (as in the extension host), on
 * our transport, against the local API server whose simulated pod answers each request with its
 * name. Measured: requests answered and failed (a failure must be a request in flight when its pod
 * was deleted), the longest pause after a switch (from the new pod's Ready to the first answer
 * from it; target at most 1 s), and the forward process's CPU. The anchor, in words: `kubectl
 * port-forward svc/...` picks one pod at start and answers nothing once that pod is gone
 * (kubectl issue 686), so after the first replacement every request fails.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { FakeApiServer } from '../../test/support/apiserver';
import { replacePod } from '../../scripts/sandbox/pod-replacer';
import { ROOT, type CaseContext, type CaseResult } from '../support/harness';

interface Answer {
  readonly startedAt: number;
  readonly endedAt: number;
  readonly ok: boolean;
  readonly body: string;
}

function get(port: number): Promise<Answer> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const done = (ok: boolean, body: string) => resolve({ startedAt, endedAt: performance.now(), ok, body });
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 60_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => done(res.statusCode === 200, body.trim()));
      res.on('error', (e) => done(false, e.message));
    });
    req.on('error', (e) => done(false, e.message));
    req.on('timeout', () => req.destroy(new Error('timed out')));
  });
}

export async function b12({ h, quick }: CaseContext): Promise<CaseResult> {
  const perSecond = 200;
  const durationMs = quick ? 20_000 : 60_000;
  const everyMs = quick ? 5_000 : 10_000;
  const readyAfterMs = 1_000;
  const server = await FakeApiServer.start({ token: 'b12' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-b12-'));
  const kubeconfig = path.join(dir, 'config');
  server.writeKubeconfig(kubeconfig, { token: 'b12' });
  const labels = { app: 'web' };
  const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8', uid: 'rs-uid', controller: true }];
  server.create('services', { metadata: { namespace: 'shop', name: 'web' }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } });
  server.create('pods', { metadata: { namespace: 'shop', name: 'web-5d8-aaaaa', labels, ownerReferences: owner }, spec: { containers: [{ name: 'main', ports: [{ containerPort: 8080 }] }] }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'support', 'forward-client.ts'), kubeconfig, 'shop', 'web', '80'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  const next = () => new Promise<Record<string, unknown>>((resolve) => lines.once('line', (l) => resolve(JSON.parse(l) as Record<string, unknown>)));
  const timers = new Set<NodeJS.Timeout>();
  try {
    const { port } = (await next()) as { port: number };
    h.progress.step(`B12: ${perSecond} connections/s for ${durationMs / 1000} s through one forward, its pod replaced every ${everyMs / 1000} s`);
    child.stdin!.write('go\n');
    const answers: Promise<Answer>[] = [];
    const readyAt: Array<{ pod: string; at: number; deletedAt: number }> = [];
    const start = performance.now();
    let current = 'web-5d8-aaaaa';
    const replacing = (async () => {
      for (let t = everyMs; t < durationMs; t += everyMs) {
        await new Promise((r) => setTimeout(r, start + t - performance.now()));
        const deletedAt = performance.now();
        const pod = await replacePod(server, 'shop', current, readyAfterMs, timers);
        if (!pod) break;
        readyAt.push({ pod, at: performance.now(), deletedAt });
        current = pod;
      }
    })();
    // Open-loop load: 200 new connections a second, whatever the answers take.
    for (let i = 0; performance.now() - start < durationMs; i++) {
      const due = start + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      answers.push(get(port));
    }
    await replacing;
    const all = await Promise.all(answers);
    child.stdin!.write('stop\n');
    const { cpuMs, status } = (await next()) as { cpuMs: number; status: Record<string, number> };
    h.progress.done();
    const seconds = durationMs / 1000;
    const failed = all.filter((a) => !a.ok);
    // A failure is "in flight at a switch" when the request started before its pod was deleted and ended after.
    const inFlight = failed.filter((f) => readyAt.some((r) => f.startedAt <= r.deletedAt + 50 && f.endedAt >= r.deletedAt));
    const pauses = readyAt.map((r) => {
      const first = all.filter((a) => a.ok && a.body === r.pod).reduce((m, a) => Math.min(m, a.endedAt), Infinity);
      return first - r.at;
    });
    const longest = Math.max(0, ...pauses.filter(Number.isFinite));
    const reasons = new Map<string, number>();
    for (const f of failed) reasons.set(f.body.slice(0, 60), (reasons.get(f.body.slice(0, 60)) ?? 0) + 1);
    const latency = all.map((a) => a.endedAt - a.startedAt).sort((a, b) => a - b);
    const p = (q: number) => Math.round(latency[Math.min(latency.length - 1, Math.floor(q * latency.length))] ?? 0);
    const cpu = (cpuMs / 1000 / seconds) * 100;
    return {
      rows: [
        { case: 'B12', metric: 'requests answered', unit: 'count', better: 'higher', ours: all.length - failed.length, reference: null, limit: all.length, runs: 1 },
        { case: 'B12', metric: 'requests failed', unit: 'count', better: 'lower', ours: failed.length, reference: null, limit: null, runs: 1 },
        { case: 'B12', metric: 'longest pause after a switch (from Ready)', unit: 'ms', better: 'lower', ours: Math.round(longest), reference: null, limit: null, runs: readyAt.length },
        { case: 'B12', metric: 'forward process CPU', unit: '% of a core', better: 'lower', ours: Math.round(cpu * 10) / 10, reference: null, limit: null, runs: 1 },
      ],
      verdicts: [
        { case: 'B12', metric: 'longest pause after a switch (from Ready)', target: '<= 1 s after the new pod is ready', met: longest <= 1000 },
        { case: 'B12', metric: 'requests failed', target: 'only those in flight at a switch', met: failed.length === inFlight.length },
      ],
      notes: [
        `B12: ${all.length} requests in ${seconds} s, ${readyAt.length} pod replacements; ${failed.length} failed (${inFlight.length} of them in flight when their pod was deleted); pauses after each switch: ${pauses.map((p) => `${Math.round(p)} ms`).join(', ')}; failures: ${[...reasons].map(([r, n]) => `${n}× "${r}"`).join(', ') || 'none'}; request time p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, the machine's load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; the forward counted ${status.served} served, ${status.interrupted} cut by a switch, ${status.refused} refused, ${status.failed} failed. kubectl port-forward svc/web, the anchor, answers nothing after the first replacement (its one pod is gone): it would have failed every request after ${everyMs / 1000} s.`,
      ],
    };
  } finally {
    for (const t of timers) clearTimeout(t);
    child.kill();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
