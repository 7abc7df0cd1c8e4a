/**
 * What a failed browser test leaves behind, so that a failure seen once can be read afterwards:
 * `test-results/e2e/failed/<file>/<test id>/` holds `screen.png` (the window as it was when the
 * test failed, before any afterEach closed a menu or a dialog), the extension's own log (the
 * Kube Watch output channel's file, `kube-watch.log`), the extension host's and code-server's
 * logs, and `diagnostics.txt` (code-server's output and the page's errors, as the Workbench kept
 * them), and `requests.txt` (the simulated API server's request log, when the test passes its
 * server). The profile is deleted when the Workbench stops, so this is copied at once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

/** What of a test the record needs (a Mocha.Test is one). */
export interface FailedTest {
  title: string;
  state?: string;
  file?: string;
}

/** What of a workbench the record reads (a Workbench is one). */
export interface RecordedWorkbench {
  readonly page: Page;
  readonly userDataDir: string;
  readonly diagnostics: readonly string[];
}

/** What of the simulated API server the record reads (a FakeApiServer is one): its request log. */
export interface RecordedServer {
  readonly requests: readonly { method: string; path: string; status: number; at: number; query?: Record<string, string> }[];
}

export const FAILED_RESULTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'e2e', 'failed');

/** The folder of a test's record: its file's name and its id (`A07`, `V01`) or the start of its title. */
export function failureFolder(test: FailedTest): string {
  const file = path.basename(test.file ?? 'unknown', '.ts').replace(/\.e2e$/, '');
  const id = test.title.replace(/[^A-Za-z0-9 ()-]+/g, ' ').trim().slice(0, 60).replace(/\s+/g, '-');
  return path.join(FAILED_RESULTS, file, id);
}

/**
 * Records a failed test (does nothing for a passed one); never throws (a dead page still leaves
 * its logs). Says on stderr where the record is, with the last lines of the extension's log.
 */
export async function recordFailure(test: FailedTest | undefined, bench: RecordedWorkbench | undefined, server?: RecordedServer): Promise<void> {
  if (!test || test.state !== 'failed' || !bench) return;
  const dir = failureFolder(test);
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    process.stderr.write(`[e2e] could not record the failure in ${dir}: ${(err as Error).message}\n`);
    return;
  }
  const notes: string[] = [];
  await bench.page.screenshot({ path: path.join(dir, 'screen.png'), timeout: 20_000 }).catch((err: Error) => notes.push(`no screenshot: ${err.message}`));
  let kubeWatchLog = '';
  for (const log of logFiles(bench.userDataDir)) {
    const name = path.basename(log) === 'Kube Watch.log' ? 'kube-watch.log' : path.basename(log);
    try {
      // Several windows or sessions: numbered copies, never one over another.
      let target = path.join(dir, name);
      for (let n = 2; fs.existsSync(target); n++) target = path.join(dir, name.replace(/\.log$/, `-${n}.log`));
      fs.copyFileSync(log, target);
      if (name === 'kube-watch.log') kubeWatchLog = fs.readFileSync(log, 'utf8');
    } catch (err) {
      notes.push(`${log}: ${(err as Error).message}`);
    }
  }
  if (server) {
    const lines = server.requests.map((r) => `${new Date(r.at).toISOString()} ${r.status} ${r.method} ${r.path}${r.query && Object.keys(r.query).length > 0 ? `?${new URLSearchParams(r.query).toString()}` : ''}`);
    fs.writeFileSync(path.join(dir, 'requests.txt'), `${lines.join('\n')}\n`);
  }
  fs.writeFileSync(path.join(dir, 'diagnostics.txt'), [...notes, ...bench.diagnostics].join('\n') + '\n');
  const tail = kubeWatchLog.trimEnd().split('\n').slice(-40).join('\n');
  process.stderr.write(
    `--- ${test.title.slice(0, 3)} failed: screenshot and logs in ${path.relative(process.cwd(), dir)} ---\n` +
      `--- code-server and page output (last 40 lines) ---\n${bench.diagnostics.slice(-40).join('\n')}\n` +
      `--- the Kube Watch log (last 40 lines) ---\n${tail}\n`,
  );
}

/** The extension's output channel file and the extension host's and code-server's logs of the profile. */
function logFiles(userDataDir: string): string[] {
  const logs = path.join(userDataDir, 'logs');
  if (!fs.existsSync(logs)) return [];
  return fs
    .readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /(^|\/)(Kube Watch\.log|remoteexthost\.log|exthost\d*\.log|remoteagent\.log)$/.test(f))
    .map((f) => path.join(logs, f));
}
