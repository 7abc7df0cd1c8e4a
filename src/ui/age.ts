import { dateTime } from '../base/time-format';
/**
 * Durations for people: the age column the way kubectl prints it, and "n s ago" for the
 * tooltips. Pure functions of their inputs; `now` is always passed in, so callers on an
 * injected clock stay consistent.
 */

/**
 * kubectl's human duration (k8s.io/apimachinery `duration.HumanDuration`): `45s`, `5m30s`,
 * `45m`, `3h20m`, `30h`, `3d5h`, `40d`, `2y30d`, `9y`. Negative spans within a second print `0s`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    const years = Math.floor(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** The age of an object from its `creationTimestamp`; '' when it has none or it cannot be parsed. */
export function objectAge(creationTimestamp: string | null | undefined, now: number): string {
  if (!creationTimestamp) return '';
  const created = Date.parse(creationTimestamp);
  return Number.isNaN(created) ? '' : humanDuration(now - created);
}

/** Whole seconds until `at`, rounded up, never below 0: "reconnecting in 4 s". */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** `2026-01-02 10:11:12 UTC (5m ago)` in the one time format (src/base/time-format.ts), for tooltips; `never` when absent. */
export function timeAndAgo(at: number | undefined, now: number): string {
  if (at === undefined) return 'never';
  return `${dateTime(at)} (${humanDuration(now - at)} ago)`;
}
