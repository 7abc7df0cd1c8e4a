/**
 * The sandbox (`npm start`, scripts/sandbox/main.ts) as a child process, for the tests: started in
 * a process group of its own, its output read line by line (colours stripped), fault names typed
 * on its standard input, stopped with a signal like Ctrl-C.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
export const SANDBOX_MAIN = path.join(repoRoot, 'scripts', 'sandbox', 'main.ts');

/** Lines the sandbox prints that the tests read. */
export const SANDBOX_LINES = {
  apiServer: /^API server:\s+(https:\/\/127\.0\.0\.1:\d+)$/m,
  kubeconfig: /^KUBECONFIG=(\S+)$/m,
  address: /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m,
  codeServerPid: /code-server started \(pid (\d+)/,
  watching: /a client is watching /,
  stopped: /stopped everything the sandbox started/,
};

export class SandboxProcess {
  readonly output: string[] = [];
  private text = '';
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcess) {
    const onData = (chunk: Buffer) => {
      // eslint-disable-next-line no-control-regex
      const plain = chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');
      this.text += plain;
      this.output.push(...plain.split('\n').filter((l) => l !== ''));
      if (process.env.SANDBOX_VERBOSE === '1') process.stderr.write(plain);
      for (const w of [...this.waiters]) w();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    this.exited.then(() => [...this.waiters].forEach((w) => w()));
  }

  /** Starts `node --import tsx scripts/sandbox/main.ts ARGS` with this process's Node. */
  static start(args: string[], env: Record<string, string> = {}): SandboxProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', SANDBOX_MAIN, ...args], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    return new SandboxProcess(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything printed so far. */
  get all(): string {
    return this.text;
  }

  /** Waits until the output matches `re` (from the start); fails with the output when it exits first or the time is up. */
  waitFor(re: RegExp, timeoutMs: number, after = 0): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = re.exec(this.text.slice(after));
        if (m) return done(() => resolve(m));
        if (!this.running) return done(() => reject(new Error(`the sandbox exited (${this.child.exitCode ?? this.child.signalCode}) before printing ${re}; its output:\n${this.text}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`the sandbox printed no ${re} within ${timeoutMs / 1000} s; its output:\n${this.text}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Where the output ends now: pass to waitFor as `after` to match only what comes next. */
  get mark(): number {
    return this.text.length;
  }

  /** Types a line (a fault's name) on the sandbox's standard input. */
  type(line: string): void {
    this.child.stdin!.write(`${line}\n`);
  }

  /** Sends `signal` (Ctrl-C's SIGINT by default) and waits for the exit, up to `timeoutMs` (then SIGKILL to its group). */
  async stop(signal: NodeJS.Signals = 'SIGINT', timeoutMs = 30_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      this.exited,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (result) return result;
    killGroup(this.pid, 'SIGKILL');
    throw new Error(`the sandbox did not exit within ${timeoutMs / 1000} s of ${signal}; its output:\n${this.text}`);
  }
}

/** Whether any process of the process group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone
  }
}

/** The processes of the process group `pgid` (`pid args` lines), for a failure's message. */
export function groupMembers(pgid: number): string[] {
  try {
    return execFileSync('ps', ['-e', '-o', 'pid=,pgid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[1] === String(pgid))
      .map((f) => `${f[0]} ${f.slice(2).join(' ')}`);
  } catch {
    return [];
  }
}

/**
 * Waits up to `boundMs` for the process group `pgid` to be empty; returns the members still
 * there then ([] when it emptied). Processes of a group that got SIGTERM may take a moment.
 */
export async function groupLeftAfter(pgid: number, boundMs: number): Promise<string[]> {
  const deadline = Date.now() + boundMs;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return groupMembers(pgid);
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

/** True once nothing listens at `url`'s host and port any more. */
export function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}
