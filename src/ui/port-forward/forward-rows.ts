/**
 * How a port-forward reads in the Port Forwards view: one row per forward, its state first (the
 * label starts with it: `ready · svc/web 80 → :8080`), so a narrow side bar cuts the
 * least important part and never the state. Pure functions of the forward's status.
 */
import { localAddressOf, type ForwardPhase, type ForwardStatus } from '../../port-forward';
import { humanDuration } from '../age';

export interface ForwardRow {
  /** `ready · svc/web 80 → :8080`: the state, then what is forwarded where. */
  readonly label: string;
  /** `pod web-7f9c · 2 open · 14 served · 1.2 MB`; a failing forward's reason first. */
  readonly description: string;
  /** Markdown: every count, the pod, the last problem. */
  readonly tooltip: string;
  readonly icon: { readonly id: string; readonly color?: string };
  /** `portForward` (with `.http` where a browser can open it). */
  readonly contextValue: string;
}

const PHASE_TEXT: Record<ForwardPhase, string> = { starting: 'starting', ready: 'ready', failing: 'failing', waiting: 'waiting for a pod', reconnecting: 'reconnecting', stopped: 'stopped' };
const PHASE_ICON: Record<ForwardPhase, { id: string; color?: string }> = {
  starting: { id: 'loading~spin' },
  ready: { id: 'plug', color: 'testing.iconPassed' },
  failing: { id: 'warning', color: 'list.warningForeground' },
  waiting: { id: 'watch', color: 'list.warningForeground' },
  reconnecting: { id: 'sync~spin', color: 'list.warningForeground' },
  stopped: { id: 'debug-disconnect', color: 'disabledForeground' },
};

/** Bytes for people: `512 B`, `1.2 KB`, `3.4 MB` (powers of 1000, as kubectl's quantities of traffic are read). */
export function bytesText(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** The address to show and to open: a wildcard bind reads as localhost. */
export function localAddressText(status: Pick<ForwardStatus, 'localAddress' | 'localPort'>): string {
  return localAddressOf(status);
}

/**
 * The local end as a row's label shows it: `:8080` on the default loopback address, so that a
 * narrow side bar keeps the port after the state and the target (the tooltip, the notification
 * and Open in Browser give it whole); any other address whole.
 */
function labelAddressText(status: Pick<ForwardStatus, 'localAddress' | 'localPort'>): string {
  return status.localAddress === '127.0.0.1' ? `:${status.localPort}` : localAddressText(status);
}

/** The URL "Open in Browser" opens. */
export function browserUrl(status: Pick<ForwardStatus, 'localAddress' | 'localPort'>): string {
  return `http://${localAddressText(status)}/`;
}

export function forwardRow(label: string, context: string, status: ForwardStatus, now: number): ForwardRow {
  // The state leads the label; a failing forward says why first in the description (`connection refused by pod web-1 port 80`): the row must not read as fine.
  const parts: string[] = [];
  if (status.phase === 'failing' && status.reason) parts.push(status.reason);
  if (status.pod && status.phase === 'ready') parts.push(`pod ${status.pod}${status.podReady === false ? ' (not Ready)' : ''}`);
  parts.push(`${status.open} open`, `${status.served} served`);
  if (status.interrupted) parts.push(`${status.interrupted} cut by a pod switch`);
  if (status.refused) parts.push(`${status.refused} refused`);
  if (status.failed) parts.push(`${status.failed} failed`);
  parts.push(bytesText(status.bytesIn + status.bytesOut));
  const lines = [
    `**${label}** → \`${localAddressText(status)}\`${context ? ` · ${context}` : ''}`,
    '',
    `${PHASE_TEXT[status.phase]} for ${humanDuration(now - status.since)}${status.reason ? `: ${status.reason}` : ''}`,
    '',
    `- pod: ${status.pod ? `${status.pod}:${status.podPort}${status.podReady === false ? ' (Running, not Ready)' : ''}` : 'none running'} (${status.switches} switch${status.switches === 1 ? '' : 'es'})`,
    `- connections: ${status.open} open, ${status.served} served, ${status.interrupted} cut by a pod switch, ${status.refused} refused (no running pod), ${status.failed} failed`,
    `- bytes: ${bytesText(status.bytesIn)} in, ${bytesText(status.bytesOut)} out`,
  ];
  if (status.lastError) lines.push(`- last problem: ${status.lastError}`);
  return {
    label: `${PHASE_TEXT[status.phase]} · ${label} → ${labelAddressText(status)}`,
    description: parts.join(' · '),
    tooltip: lines.join('\n'),
    icon: PHASE_ICON[status.phase],
    contextValue: status.phase === 'stopped' ? 'portForward.stopped' : 'portForward',
  };
}
