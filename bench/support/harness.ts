/**
 * What every case uses: the bench server's process, client processes forked per run, progress
 * on stderr, medians.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ChildRpc } from './rpc';
import type { SetupParams, SetupResult } from './server-main';
import type { Conn } from './client-main';
import type { RequestRecord } from './bench-server';

export const ROOT = resolve(process.cwd());
const CACHE = join(ROOT, 'bench', '.cache');
const CERTS = join(ROOT, 'test', 'support', 'certs');

/** V8 flags of every child: gc() for retained-heap figures, room for B3's reference. */
const CHILD_FLAGS = ['--expose-gc', '--max-old-space-size=16384'];
/** Extra flags for client processes only, e.g. BENCH_CLIENT_FLAGS='--cpu-prof --cpu-prof-dir=prof'. */
const CLIENT_FLAGS = [...CHILD_FLAGS, ...(process.env.BENCH_CLIENT_FLAGS ?? '').split(' ').filter(Boolean)];

/** Bundles the child entries (plain Node loads one bundled file in ~0.2 s; tsx would take ~2 s). */
export async function buildChildren(): Promise<void> {
  await esbuild.build({
    entryPoints: {
      server: join(ROOT, 'bench/support/server-main.ts'),
      client: join(ROOT, 'bench/support/client-main.ts'),
      floor: join(ROOT, 'bench/support/floor-main.ts'),
    },
    outdir: CACHE,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'warning',
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A status line on stderr: the current step, its elapsed time and the child's last note. */
export class Progress {
  private label = '';
  private noteText = '';
  private started = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastPrinted = 0;
  private readonly tty = process.stderr.isTTY === true;

  step(label: string): void {
    this.clear();
    this.label = label;
    this.noteText = '';
    this.started = performance.now();
    this.lastPrinted = 0;
    this.render(true);
    this.timer ??= setInterval(() => this.render(false), 500);
    this.timer.unref();
  }

  note(text: string): void {
    this.noteText = text;
  }

  log(line: string): void {
    this.clear();
    process.stderr.write(`${line}\n`);
    this.render(true);
  }

  done(): void {
    this.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.label = '';
  }

  private text(): string {
    const s = ((performance.now() - this.started) / 1000).toFixed(1);
    return `  ${this.label} … ${s} s${this.noteText ? ` (${this.noteText})` : ''}`;
  }

  private render(force: boolean): void {
    if (!this.label) return;
    if (this.tty) {
      process.stderr.write(`\r\x1b[K${this.text()}`);
      return;
    }
    const now = performance.now();
    if (force || now - this.lastPrinted >= 5000) {
      this.lastPrinted = now;
      process.stderr.write(`${this.text()}\n`);
    }
  }

  private clear(): void {
    if (this.tty && this.label) process.stderr.write('\r\x1b[K');
  }
}

/** Which bundled entry a client process runs. */
export type ClientBundle = 'client' | 'floor';

export class Harness {
  readonly progress = new Progress();
  private server!: ChildRpc;
  url = '';
  readonly caPem = readFileSync(join(CERTS, 'ca.pem'), 'utf8');
  private labels = 0;

  async start(): Promise<void> {
    this.server = ChildRpc.start(join(CACHE, 'server.cjs'), CHILD_FLAGS);
    const { port } = await this.server.call<{ port: number }>('start', { certDir: CERTS });
    this.url = `https://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    this.progress.done();
    await this.server?.stop();
  }

  setup(p: SetupParams): Promise<SetupResult> {
    return this.server.call<SetupResult>('setup', p);
  }

  serverCall<T>(method: string, params: unknown = {}): Promise<T> {
    return this.server.call<T>(method, params);
  }

  requests(label?: string, since?: number): Promise<RequestRecord[]> {
    return this.server.call<RequestRecord[]>('requests', { label, since });
  }

  /** A connection for one client run, with a token label of its own. */
  conn(prefix: string): Conn {
    return { url: this.url, caPem: this.caPem, label: `${prefix}-${++this.labels}` };
  }

  /**
   * Forks a client process whose notes go to the status line: the client bundle (ours, the
   * reference and the limit), or the bare floor's (no client code loaded).
   */
  client(bundle: ClientBundle = 'client'): ChildRpc {
    const c = ChildRpc.start(join(CACHE, `${bundle}.cjs`), CLIENT_FLAGS);
    c.onNote = (n) => this.progress.note(n);
    return c;
  }

  /** One call in a fresh client process, which is then ended. */
  async once<T>(method: string, task: unknown, bundle: ClientBundle = 'client'): Promise<T> {
    const c = this.client(bundle);
    try {
      return await c.call<T>(method, task);
    } finally {
      await c.stop();
    }
  }

  /** Polls `cond` every `everyMs` until it holds or `timeoutMs` passes; returns whether it held. */
  async until(cond: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
    const end = performance.now() + timeoutMs;
    while (performance.now() < end) {
      if (await cond()) return true;
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return cond();
  }
}

/** One row of bench/results.json, as PERF.md defines it. */
export interface Row {
  case: string;
  metric: string;
  /** Which initial-list path our informer took: paginated LIST or one streaming list (WatchList). */
  path?: 'list' | 'watchlist';
  unit: string;
  better: 'lower' | 'higher';
  ours: number | null;
  reference: number | null;
  limit: number | null;
  runs: number;
}

/** How a row is judged against its target (kept out of the row itself). */
export interface Verdict {
  case: string;
  metric: string;
  path?: 'list' | 'watchlist';
  target: string;
  met: boolean | null;
  note?: string;
}

export interface CaseResult {
  rows: Row[];
  verdicts: Verdict[];
  notes?: string[];
}

export interface CaseContext {
  h: Harness;
  quick: boolean;
}
