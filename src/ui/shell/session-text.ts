/**
 * What a shell or command terminal writes about its session, in plain words: a header, how it
 * ended (the exit code; or that the connection dropped, how long it lasted, what became of the
 * pod) and the offer of a new session. Pure functions; `\r\n` line ends for a terminal.
 */
import type { SessionEnd } from '../../shell';
import { humanDuration } from '../age';

const DIM = '\x1b[2m';
const YELLOW = '\x1b[33m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/** The terminal's tab title: `sh web-1` or `sh web-1/app`. */
export function shellTerminalName(pod: string, container?: string): string {
  return `shell ${pod}${container ? `/${container}` : ''}`;
}

export function runTerminalName(pod: string, command: readonly string[]): string {
  return `run ${pod}: ${command.join(' ').slice(0, 40)}`;
}

/** The first line: where the session runs and over what. */
export function sessionHeader(namespace: string, pod: string, container: string | undefined, command: readonly string[], protocol: string | undefined): string {
  return `${DIM}── ${command.join(' ')} in pod ${namespace}/${pod}${container ? ` (container ${container})` : ''}${protocol ? ` · ${protocol}` : ''} ──${RESET}\r\n`;
}

/** How long a session lasted: tenths of a second while short (`0.8 s`, `12.4 s`), then kubectl's `3m20s`. */
export function sessionLength(ms: number): string {
  return ms < 60_000 ? `${(Math.max(0, ms) / 1000).toFixed(1)} s` : humanDuration(ms);
}

/** How the session ended, and for a shell the offer of a new one. */
export function sessionEndText(end: SessionEnd, pod: string, offerNew: boolean): string {
  const lasted = `after ${sessionLength(end.durationMs)}`;
  const lines: string[] = [];
  if (end.dropped !== undefined) {
    lines.push(`${YELLOW}── the connection dropped ${lasted} (${end.dropped}); a shell cannot be resumed ──${RESET}`);
    const fate = end.pod;
    if (fate?.kind === 'exists') lines.push(`${YELLOW}── pod ${pod} still exists ──${RESET}`);
    else if (fate?.kind === 'replaced') lines.push(`${YELLOW}── pod ${pod} was replaced${fate.by === pod ? ' (same name, a new pod)' : ` by pod ${fate.by}`} ──${RESET}`);
    else if (fate?.kind === 'gone') lines.push(`${YELLOW}── pod ${pod} no longer exists ──${RESET}`);
    else if (fate?.kind === 'unknown') lines.push(`${YELLOW}── whether pod ${pod} still exists is unknown: ${fate.why} ──${RESET}`);
  } else if (end.result?.exitCode !== undefined) {
    const color = end.result.exitCode === 0 ? DIM : RED;
    lines.push(`${color}── exited with code ${end.result.exitCode} ${lasted} ──${RESET}`);
  } else {
    lines.push(`${RED}── it did not run: ${end.result?.message ?? 'unknown reason'} ──${RESET}`);
  }
  if (offerNew) lines.push(`${DIM}Press Enter to start a new session (in ${end.pod?.kind === 'replaced' ? `pod ${end.pod.by}` : `pod ${pod}`}), or close this terminal.${RESET}`);
  return `\r\n${lines.join('\r\n')}\r\n`;
}
