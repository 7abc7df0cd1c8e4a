/**
 * What `exec` runs in a simulated pod: a real process in a scratch directory of the pod's own
 * (its working directory and HOME), so a shell typed into is a real `/bin/sh`. With a TTY the
 * command runs under util-linux `script` (a real pseudo-terminal) and a resize sets the size of
 * that terminal (`stty -F`), which the shell sees as SIGWINCH. The simulated container image has
 * `sh` but no `bash` unless the pod's annotation `kube-watch.test/bash: "true"` says so, so a
 * client that tries bash then sh is seen doing it. A command that is not found is refused as
 * the container runtime refuses it. Which commands the image has, and its files: pod-image.ts.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { hostCommand, imagePath, seedFiles } from './pod-image';

export interface ExecSpec {
  readonly command: readonly string[];
  readonly tty: boolean;
  readonly stdin: boolean;
}

/** A running command: its output, and how it ended. */
export interface PodProcess {
  readonly child: ChildProcess;
  write(data: Buffer): void;
  closeStdin(): void;
  resize(width: number, height: number): void;
  kill(): void;
}

const NOT_FOUND = (cmd: string) => `OCI runtime exec failed: exec failed: unable to start container process: exec: "${cmd}": executable file not found in $PATH: unknown`;

/** Scratch directories by pod uid (and their image folders, pod-image.ts); removed with `removeAll`. */
export class PodScratch {
  private readonly dirs = new Map<string, string>();

  /** The pod's working directory, seeded with its files (pod-image.ts) when first made. */
  dirOf(uid: string, name: string, annotations: Record<string, string> = {}): string {
    let dir = this.dirs.get(uid);
    if (!dir) {
      this.dirs.set(uid, (dir = mkdtempSync(join(tmpdir(), `kube-watch-pod-${name.replace(/[^a-z0-9-]/gi, '')}-`))));
      seedFiles(annotations, dir);
    }
    return dir;
  }

  /** The PATH the pod's commands run with (its image's commands). */
  pathOf(uid: string, name: string, annotations: Record<string, string>): string {
    return imagePath(annotations, `${this.dirOf(uid, name, annotations)}-image`);
  }

  remove(uid: string): void {
    const dir = this.dirs.get(uid);
    this.dirs.delete(uid);
    if (dir) for (const d of [dir, `${dir}-image`]) rmSync(d, { recursive: true, force: true });
  }

  removeAll(): void {
    for (const uid of [...this.dirs.keys()]) this.remove(uid);
  }
}

/**
 * Why `command` cannot start in a pod that has (or lacks) bash, on its image's PATH; undefined
 * when it can. A distroless image (annotation `kube-watch.test/distroless: "true"`) has no shell
 * and no tools: nothing can be run in it (a debug container can).
 */
export function refusal(command: readonly string[], hasBash: boolean, distroless = false, path = process.env.PATH ?? ''): string | undefined {
  const cmd = command[0];
  if (!cmd) return 'you must specify at least one command for the container';
  if (distroless) return NOT_FOUND(cmd);
  const base = cmd.split('/').pop()!;
  if (base === 'bash' && !hasBash) return NOT_FOUND(cmd);
  if (isAbsolute(cmd)) return executable(cmd) ? undefined : NOT_FOUND(cmd);
  return path.split(delimiter).some((d) => d && executable(join(d, cmd))) ? undefined : NOT_FOUND(cmd);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Starts `spec.command` in `dir`, finding commands on `path` (the image's). */
export function startProcess(spec: ExecSpec, dir: string, path = process.env.PATH ?? '/usr/bin:/bin'): PodProcess {
  const env = { PATH: path, HOME: dir, TERM: 'xterm-256color', PS1: '$ ', LANG: 'C.UTF-8' };
  const child = spec.tty
    ? spawn(hostCommand('script') ?? 'script', ['-qfec', `stty cols 80 rows 24 2>/dev/null; exec ${spec.command.map(shellQuote).join(' ')}`, '/dev/null'], { cwd: dir, env, stdio: 'pipe' })
    : spawn(spec.command[0], spec.command.slice(1), { cwd: dir, env, stdio: 'pipe' });
  child.stdin?.on('error', () => undefined);
  // A size asked for before the shell's terminal exists is applied before the next input reaches it.
  let pending: { width: number; height: number } | undefined;
  const applySize = () => {
    const tty = pending && spec.tty && child.pid ? terminalOf(child.pid) : undefined;
    if (!tty || !pending) return;
    try {
      execFileSync('stty', ['-F', tty, 'cols', String(pending.width), 'rows', String(pending.height)], { stdio: 'ignore', timeout: 5000 });
      pending = undefined;
    } catch {
      // the terminal went away
    }
  };
  return {
    child,
    write: (data) => {
      applySize();
      if (child.stdin && !child.stdin.destroyed) child.stdin.write(data);
    },
    closeStdin: () => child.stdin?.end(),
    resize: (width, height) => {
      pending = { width, height };
      applySize();
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) {
        // The shell under `script` first: `script` then ends too.
        const inner = child.pid ? childrenOf(child.pid) : [];
        for (const pid of inner) safeKill(pid);
        child.kill('SIGKILL');
      }
    },
  };
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The pseudo-terminal of the command `script` runs (its child's stdin). */
function terminalOf(scriptPid: number): string | undefined {
  for (const pid of childrenOf(scriptPid)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/0`);
      if (target.startsWith('/dev/pts/')) return target;
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

function safeKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
