import { oneLine } from '../log/log-line';
import { formatSeconds } from '../log/time-text';
import { describeWatchState } from '../watch-state-text';
import type { EntryHealth } from './entry-health';

/** Longest reason shown in a tooltip row; the log and the inspect report have the full text. */
const MAX_REASON = 90;

/**
 * The state column of the status bar tooltip and the watch list: the tree's wording
 * (`describeWatchState`), with the reason it leaves out (the server's message, the network
 * error) and, inside a run of failures, for how long it has been failing:
 * `reconnecting in 4 s (connection reset) · failing for 45 s`, `unauthorized (Unauthorized)`.
 * A watching entry reads just `watching`: the resourceVersion has its own column.
 */
export function rowStateText(health: EntryHealth, now: number): string {
  const { entry, trouble } = health;
  const described = describeWatchState(entry, now).text;
  let text = entry.state.phase === 'watching' ? described.replace(/ · rv \S+/, '') : described;
  const reason = entry.state.reason ? oneLine(entry.state.reason, MAX_REASON) : '';
  const showsReason = health.condition !== 'misconfigured' && entry.state.phase !== 'watching' && entry.state.phase !== 'listing' && entry.state.phase !== 'connecting';
  if (showsReason && reason && !text.includes(reason.replace(/…$/, ''))) text += ` (${reason})`;
  if (trouble && now - trouble.since >= 1000) text += ` · failing for ${formatSeconds(now - trouble.since)}`;
  return text;
}
