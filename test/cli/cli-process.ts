import * as fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');

/** Bundles the CLI exactly as the build script does. */
export async function buildCli(): Promise<void> {
  const dist = path.resolve(__dirname, '../../dist');
  await esbuild.build({
    entryPoints: [path.resolve(__dirname, '../../src/cli/main.ts')],
    outfile: path.join(dist, 'cli-bundle.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'warning',
  });
  // dist/cli.js is the unbundled entry that checks the Node version (scripts/build.mjs does the same).
  fs.copyFileSync(path.resolve(__dirname, '../../src/cli/node-version-check.cjs'), CLI);
}

/** One parsed line of the CLI's standard output. */
export type Line = Record<string, unknown>;

/** A running `node dist/cli.js ...` with its output parsed as it arrives. */
export class CliProcess {
  readonly lines: Line[] = [];
  /** Lines of standard output that were not JSON (there must be none). */
  readonly junk: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private pending = '';

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    // process.execPath is the Node that runs mocha: Node 24 under npx/npm (client-node needs >= 22.19).
    this.child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.pending += chunk;
      let nl;
      while ((nl = this.pending.indexOf('\n')) >= 0) {
        const raw = this.pending.slice(0, nl);
        this.pending = this.pending.slice(nl + 1);
        try {
          this.lines.push(JSON.parse(raw) as Line);
        } catch {
          this.junk.push(raw);
        }
      }
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Waits until a line satisfies `predicate` and returns it. */
  async waitFor(predicate: (line: Line) => boolean, what: string, boundMs = 15_000): Promise<Line> {
    const deadline = Date.now() + boundMs;
    for (;;) {
      const found = this.lines.find(predicate);
      if (found) return found;
      if (this.child.exitCode !== null) throw new Error(`the CLI exited (${this.child.exitCode}) before ${what}; stderr: ${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.lines.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Closes the read end of the child's standard output, like `kube-watch ... | head -1` does. */
  closeStdout(): void {
    this.child.stdout?.destroy();
  }

  /**
   * Sends `signal` (unless `send` is false) and waits for the exit; kills the process if it does
   * not exit within the bound.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', boundMs = 10_000, send = true): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (send && this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), boundMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs the CLI to completion (for the commands that fail at once). */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: Line[]; stderr: string }> {
  const p = new CliProcess(args, env);
  const timer = setTimeout(() => p.kill('SIGKILL'), 15_000);
  const { code } = await p.exited;
  clearTimeout(timer);
  return { code, stdout: p.lines, stderr: p.stderr };
}
