/**
 * What the log terminal of a workload writes besides the lines themselves (those are
 * `terminalLine` with kubectl's `--prefix`, coloured per pod): its name, its header, a pod
 * followed or gone, the streams left out by the cap. Pure, so the exact bytes are testable.
 */

const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const YELLOW = '\x1b[33m';

/** kubectl's short names, as in `kubectl logs deploy/web`. */
const SHORT: Record<string, string> = { Deployment: 'deploy', ReplicaSet: 'rs', StatefulSet: 'sts', DaemonSet: 'ds', Job: 'job' };

/** The workload as kubectl names it: `deploy/web`. */
export function workloadName(kind: string, name: string): string {
  return `${SHORT[kind] ?? kind.toLowerCase()}/${name}`;
}

/** The terminal's name, e.g. `logs shop/deploy/web`. */
export function workloadTerminalName(kind: string, namespace: string, name: string): string {
  return `logs ${namespace ? `${namespace}/` : ''}${workloadName(kind, name)}`;
}

/** Where a line or marker of a stream goes: kubectl's `--prefix` text and its pod's colour. */
export interface StreamPrefix {
  readonly prefix: string;
  readonly colourIndex: number;
}

function dim(text: string): string {
  return `${DIM}── ${text} ──${RESET}\r\n`;
}

/**
 * The first lines: what is followed, how (tail, cap, selector) and how many lines the terminal keeps.
 */
export function workloadHeaderLines(kind: string, namespace: string, name: string, selector: string, tailLines: number, maxStreams: number, keptLines: number): string[] {
  return [
    dim(`following every container of the pods of ${namespace ? `${namespace}/` : ''}${workloadName(kind, name)} (${selector}), as they come and go`),
    dim(
      `running containers start from ${Number.isFinite(tailLines) ? `their last ${tailLines} lines` : 'the start of their log'}, new pods from their start; at most ${maxStreams} streams (kubeWatch.logs.maxStreams); keeps the last ${keptLines.toLocaleString('en-US')} lines (terminal.integrated.scrollback); close the terminal to stop`,
    ),
  ];
}

/** A pod whose containers start streaming: `── pod/web-1: following app, sidecar ──`. */
export function podFollowedLine(pod: string, containers: readonly string[]): string {
  return dim(`pod/${pod}: following ${containers.join(', ')}`);
}

/** A pod whose streams stopped: `── pod/web-1 deleted ──`, or it no longer belongs to the workload. */
export function podEndedLine(pod: string, why: 'deleted' | 'left', workload: string): string {
  return dim(why === 'deleted' ? `pod/${pod} deleted` : `pod/${pod} no longer belongs to ${workload}: stopped following it`);
}

/** How many left-out streams the line names before "and N more". */
const NAMED = 5;

/**
 * The streams the cap leaves out (`pod/container`), in yellow; when none are left out any
 * more, a dim line saying so.
 */
export function leftOutLine(streams: readonly string[], maxStreams: number): string {
  if (streams.length === 0) return dim('every container is followed now');
  const named = streams.slice(0, NAMED).map((s) => `pod/${s}`).join(', ');
  const more = streams.length > NAMED ? ` and ${streams.length - NAMED} more` : '';
  const count = `${streams.length} container${streams.length === 1 ? '' : 's'}`;
  return `${YELLOW}── not following ${count} (at most ${maxStreams} streams, setting kubeWatch.logs.maxStreams): ${named}${more} ──${RESET}\r\n`;
}

/** A note of the set as a whole (waiting for the pods, the watch ended). */
export function workloadNoticeLine(text: string): string {
  return `${YELLOW}── ${text} ──${RESET}\r\n`;
}
