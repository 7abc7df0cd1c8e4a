import { HEALTH_STATES, type HealthState } from '../../health';
import type { StateStyle } from './health-messages';

/**
 * The band's words and colours: the words the tree uses for the same states
 * (src/ui/watch-state-text.ts), the colours VS Code's theme gives charts.
 */
const STYLES: Record<HealthState, { label: string; color: string }> = {
  watching: { label: 'watching', color: 'var(--vscode-charts-green)' },
  'catching-up': { label: 'catching up', color: 'var(--vscode-charts-yellow)' },
  connecting: { label: 'connecting', color: 'var(--vscode-charts-blue)' },
  listing: { label: 'listing', color: 'var(--vscode-charts-blue)' },
  reconnecting: { label: 'reconnecting', color: 'var(--vscode-charts-yellow)' },
  'backing-off': { label: 'backing off', color: 'var(--vscode-charts-orange)' },
  unreachable: { label: 'unreachable', color: 'var(--vscode-charts-red)' },
  unauthorized: { label: 'unauthorized', color: 'var(--vscode-charts-purple)' },
  'credentials-failed': { label: 'credentials failed', color: 'var(--vscode-charts-purple)' },
  forbidden: { label: 'forbidden', color: 'var(--vscode-charts-purple)' },
  'not-found': { label: 'not found', color: 'var(--vscode-charts-purple)' },
  suspended: { label: 'process suspended', color: 'var(--vscode-charts-foreground)' },
  paused: { label: 'paused', color: 'var(--vscode-disabledForeground)' },
  stopped: { label: 'stopped', color: 'var(--vscode-disabledForeground)' },
};

export function stateStyle(state: HealthState): StateStyle {
  return { state, ...STYLES[state] };
}

export function stateLabel(state: HealthState): string {
  return STYLES[state].label;
}

/** Every state's style, in legend order. */
export function stateStyles(): StateStyle[] {
  return HEALTH_STATES.map(stateStyle);
}
