/**
 * `npm run bench [-- --quick] [-- --only B1,B3]`: runs the cases of the shared PERF.md side by
 * side (ours, the reference @kubernetes/client-node informer, and the bare JSON.parse limit) on a
 * local HTTPS API server, prints one table on stdout, progress on stderr, and writes
 * bench/results.json.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { b1 } from './cases/b1-initial-sync';
import { b2 } from './cases/b2-watch-throughput';
import { b3 } from './cases/b3-scale';
import { b4 } from './cases/b4-reconnect';
import { b5 } from './cases/b5-tree-refresh';
import { b6 } from './cases/b6-quiet-requests';
import { b7 } from './cases/b7-connections';
import { b8 } from './cases/b8-sync-paths';
import { b9 } from './cases/b9-health-panel';
import { b10 } from './cases/b10-vscode-scale';
import { b11 } from './cases/b11-vscode-events';
import { b15 } from './cases/b15-table';
import { b12 } from './cases/b12-port-forward';
import { b13 } from './cases/b13-manifests';
import { b14 } from './cases/b14-helm';
import { b16 } from './cases/b16-metrics';
import { buildChildren, Harness, ROOT, type CaseContext, type CaseResult, type Row, type Verdict } from './support/harness';

const CASES: Record<string, (ctx: CaseContext) => Promise<CaseResult>> = { B1: b1, B2: b2, B3: b3, B4: b4, B6: b6, B5: b5, B7: b7, B8: b8, B9: b9, B10: b10, B11: b11, B12: b12, B13: b13, B14: b14, B15: b15, B16: b16 };

function parseArgs(argv: string[]): { quick: boolean; only: string[] } {
  const quick = argv.includes('--quick');
  const onlyArg = argv.find((a) => a.startsWith('--only'));
  let only = Object.keys(CASES);
  if (onlyArg) {
    const v = onlyArg.includes('=') ? onlyArg.split('=')[1] : argv[argv.indexOf(onlyArg) + 1];
    only = v.split(',').map((s) => s.trim().toUpperCase());
  }
  return { quick, only };
}

function fmt(v: number | null, unit: string): string {
  if (v === null || Number.isNaN(v)) return '-';
  if (!Number.isFinite(v)) return 'never';
  if (unit === 'bytes') {
    if (Math.abs(v) >= 1 << 20) return `${(v / (1 << 20)).toFixed(1)} MiB`;
    return `${Math.round(v)} B`;
  }
  if (unit === 'ms') return v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(1)} ms`;
  if (unit === 'events/s') return `${Math.round(v).toLocaleString('en-US')}/s`;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

function ratio(a: number | null, b: number | null): string {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '-';
  return `${(a / b).toFixed(2)}x`;
}

function table(rows: Row[], verdicts: Verdict[]): string {
  const head = ['case', 'metric', 'path', 'ours', 'reference', 'limit', 'ours/ref', 'ours/limit', 'target', 'met?'];
  const body = rows.map((r) => {
    const v = verdicts.find((x) => x.case === r.case && x.metric === r.metric && x.path === r.path);
    const met = v?.met === null || v === undefined ? '-' : v.met ? 'yes' : 'NO';
    return [r.case, r.metric, r.path ?? '', fmt(r.ours, r.unit), fmt(r.reference, r.unit), fmt(r.limit, r.unit), ratio(r.ours, r.reference), ratio(r.ours, r.limit), v?.target ?? '', met];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 3 && i <= 7 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { quick, only } = parseArgs(process.argv.slice(2));
  const started = performance.now();
  process.stderr.write(`kube-watch bench${quick ? ' (quick)' : ''}: ${only.join(', ')} on Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}\n`);
  await buildChildren();
  const h = new Harness();
  await h.start();
  const rows: Row[] = [];
  const verdicts: Verdict[] = [];
  const notes: string[] = [];
  try {
    for (const id of Object.keys(CASES)) {
      if (!only.includes(id)) continue;
      const t = performance.now();
      process.stderr.write(`${id}\n`);
      const res = await CASES[id]({ h, quick });
      rows.push(...res.rows);
      verdicts.push(...res.verdicts);
      notes.push(...(res.notes ?? []));
      process.stderr.write(`${id} done in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    }
  } finally {
    await h.close();
  }
  const order = (r: { case: string }) => r.case;
  rows.sort((a, b) => order(a).localeCompare(order(b)));
  const elapsed = (performance.now() - started) / 1000;
  const result = {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    quick,
    date: new Date().toISOString(),
    seconds: Math.round(elapsed),
    rows,
    verdicts,
    notes,
  };
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${table(rows, verdicts)}\n\n${notes.map((n) => `  ${n}`).join('\n')}\n`);
  process.stderr.write(`bench: ${elapsed.toFixed(1)} s; wrote bench/results.json\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
