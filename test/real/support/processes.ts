/**
 * The control plane's child processes and data directories, and their clean-up: on `stop()`,
 * and also when the test process exits without stopping them (a failed `after`, an uncaught
 * error, Ctrl-C, SIGTERM from CI). A run killed outright (SIGKILL) cannot clean up; the next
 * run removes what it left: every data directory records its owner's pid, and a directory whose
 * owner is gone has its processes (found by the directory in their command line) killed and is
 * removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const DIR_PREFIX = 'kube-watch-envtest-';
const OWNER_FILE = 'owner-pid';

/** Every live process and data directory of this test process, for the exit clean-up. */
const live = { processes: new Set<ManagedProcess>(), dirs: new Set<string>() };
let exitHooksInstalled = false;

/** A child process whose output goes to a log file, stopped with SIGTERM and then SIGKILL. */
export class ManagedProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        live.processes.delete(this);
        resolve(this.exitStatus);
      });
    });
  }

  /** Starts `file` with `args` in `cwd`, its stdout and stderr appended to `logFile`. */
  static spawn(name: string, file: string, args: string[], cwd: string, logFile: string): ManagedProcess {
    installExitHooks();
    const log = fs.openSync(logFile, 'a');
    try {
      const child = spawn(file, args, { cwd, stdio: ['ignore', log, log] });
      const p = new ManagedProcess(name, child, logFile);
      live.processes.add(p);
      child.once('error', () => undefined); // a spawn failure shows as an early exit with the log
      return p;
    } finally {
      fs.closeSync(log);
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether it has exited, and how. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitStatus;
  }

  /** The last lines of its log, for an error message. */
  logTail(lines = 15): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Whether its log mentions `text` (for example a port it could not bind). */
  logIncludes(text: string): boolean {
    try {
      return fs.readFileSync(this.logFile, 'utf8').includes(text);
    } catch {
      return false;
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  async stop(graceMs = 3000): Promise<void> {
    if (this.exitStatus) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** At once (the exit clean-up, or an abrupt crash a test stages). */
  killNow(): void {
    if (!this.exitStatus) this.child.kill('SIGKILL');
  }
}

/**
 * A fresh data directory under the system's temporary directory, recorded for the exit clean-up.
 * Removes the directories (and processes) of earlier runs whose owner is gone first.
 */
export function makeDataDir(): string {
  installExitHooks();
  sweepAbandoned();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  live.dirs.add(dir);
  return dir;
}

/** Removes a data directory (unless KUBE_WATCH_REAL_KEEP is set, for a post-mortem). */
export function removeDataDir(dir: string): void {
  live.dirs.delete(dir);
  if (process.env.KUBE_WATCH_REAL_KEEP) {
    console.log(`real tier: kept ${dir} (KUBE_WATCH_REAL_KEEP)`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Synchronous: what may run in an 'exit' handler. */
function cleanUpNow(): void {
  for (const p of live.processes) p.killNow();
  live.processes.clear();
  for (const dir of live.dirs) fs.rmSync(dir, { recursive: true, force: true });
  live.dirs.clear();
}

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', cleanUpNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      cleanUpNow();
      process.off(signal, onSignal);
      // Nobody else handles it (mocha may): the default action, so the process still ends.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** Data directories of runs whose test process is gone: their processes killed, the directories removed. */
function sweepAbandoned(): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith(DIR_PREFIX));
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = path.join(os.tmpdir(), entry);
    let owner: number;
    try {
      owner = Number(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // being created, or not ours
    }
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    for (const pid of processesMentioning(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pids whose command line names `dir` (Linux /proc; nothing elsewhere). */
function processesMentioning(dir: string): number[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of pids) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) found.push(Number(pid));
    } catch {
      // exited meanwhile, or not readable
    }
  }
  return found;
}
