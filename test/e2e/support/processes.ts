/**
 * Processes under code-server, read from /proc: the tests find the extension host among them to
 * stop it (SIGSTOP) and let it go on (SIGCONT), as a closed laptop lid or a debugger would.
 */
import * as fs from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function read(pid: number): ProcessInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return { pid, ppid, cmdline };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every process below `root` (children, their children, ...). */
export function descendants(root: number): ProcessInfo[] {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => read(Number(d)))
    .filter((p): p is ProcessInfo => p !== undefined);
  const out: ProcessInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const p of all) {
      if (p.ppid === parent) {
        out.push(p);
        frontier.push(p.pid);
      }
    }
  }
  return out;
}

/** The extension host under code-server (`--type=extensionHost`), if it runs. */
export function extensionHost(codeServerPid: number): ProcessInfo | undefined {
  return descendants(codeServerPid).find((p) => /--type=extensionHost/.test(p.cmdline));
}

/** The state letter of a process (`T` while stopped, `S` or `R` while it runs). */
export function processState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
