/**
 * What B10 and B11 need of the real VS Code: code-server with the packaged .vsix, driven by
 * Chromium (the browser tests' Workbench and page objects), pointed at the bench server through a
 * kubeconfig of its own, and the extension host's process for its memory.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkbenchUi } from '../../test/e2e/pages';
import { extensionHost } from '../../test/e2e/support/processes';
import { Workbench, defaultVsixPath } from '../../test/e2e/support/workbench';
import { codeServerPaths } from '../../scripts/vscode/code-server.mjs';
import type { Conn } from './client-main';

/** Why the real VS Code cannot run here, or undefined when it can. */
export function vscodeMissing(): string | undefined {
  const vsix = defaultVsixPath();
  if (!fs.existsSync(vsix)) return `${path.basename(vsix)} is missing (npm run package)`;
  try {
    const paths = codeServerPaths() as { entry: string; node: string };
    if (!fs.existsSync(paths.entry)) return `code-server is not installed (${paths.entry}; set CODE_SERVER_HOME or run npm run test:vscode once)`;
  } catch (err) {
    return `code-server is not installed: ${(err as Error).message}`;
  }
  return undefined;
}

/** A kubeconfig file for `conn` (its token names the client in the server's request log). */
export function writeKubeconfig(conn: Conn, dir: string, name = 'kubeconfig'): string {
  const file = path.join(dir, name);
  const ca = Buffer.from(conn.caPem).toString('base64');
  fs.writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: bench\n  cluster:\n    server: ${conn.url}\n    certificate-authority-data: ${ca}`,
      'users:',
      `- name: bench\n  user:\n    token: bench-${conn.label}`,
      'contexts:',
      '- name: bench\n  context:\n    cluster: bench\n    user: bench',
      'current-context: bench',
      '',
    ].join('\n'),
  );
  return file;
}

export interface VsCodeSession {
  bench: Workbench;
  ui: WorkbenchUi;
  dir: string;
  /** The extension host's resident set now, in bytes (0 when it cannot be read). */
  hostRss(): number;
  /** The extension host's process id, if it runs. */
  hostPid(): number | undefined;
  /** CPU time the extension host has used so far, in milliseconds (user + system; 0 when it cannot be read). */
  hostCpuMs(): number;
  stop(): Promise<void>;
}

/** code-server on a kubeconfig of `conn`, with `settings`; the Kube Watch view not opened yet (nothing activated). */
export async function startVsCode(conn: Conn, settings: Record<string, unknown>): Promise<VsCodeSession> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-bench-vscode-'));
  const kubeconfig = writeKubeconfig(conn, dir);
  const bench = await Workbench.start({
    vsix: defaultVsixPath(),
    env: { KUBECONFIG: kubeconfig },
    settings: { 'terminal.integrated.gpuAcceleration': 'off', 'extensions.autoUpdate': false, ...settings },
  });
  const ui = new WorkbenchUi(bench.page);
  return {
    bench,
    ui,
    dir,
    hostRss() {
      const host = bench.codeServerPid !== undefined ? extensionHost(bench.codeServerPid) : undefined;
      if (!host) return 0;
      try {
        const status = fs.readFileSync(`/proc/${host.pid}/status`, 'utf8');
        const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
        return kb ? Number(kb) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    hostPid() {
      return bench.codeServerPid !== undefined ? extensionHost(bench.codeServerPid)?.pid : undefined;
    },
    hostCpuMs() {
      const host = bench.codeServerPid !== undefined ? extensionHost(bench.codeServerPid) : undefined;
      if (!host) return 0;
      try {
        const stat = fs.readFileSync(`/proc/${host.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime and stime are fields 14 and 15 of stat (11 and 12 after the state), in clock ticks (100 a second here).
        return (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        return 0;
      }
    },
    async stop() {
      await bench.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Percentile `p` (0..1) of `xs`, nearest rank. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
