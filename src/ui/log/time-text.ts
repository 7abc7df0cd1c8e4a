/**
 * How durations and instants read in the log, the status bar tooltip and the inspect report.
 * Pure and locale-independent, so that the same instant always reads the same (tests compare text).
 */

/** `340 ms`, `1.2 s`, `45 s`, `7 min 12 s`, `3 h 5 min`. Negative durations read as 0 ms. */
export function formatDuration(ms: number): string {
  const v = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (v < 999.5) return `${Math.round(v)} ms`;
  if (v < 9_950) return `${(v / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(v / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) {
    const s = totalSeconds % 60;
    return s === 0 ? `${totalMinutes} min` : `${totalMinutes} min ${s} s`;
  }
  const hours = Math.floor(totalMinutes / 60);
  if (hours < 48) {
    const m = totalMinutes % 60;
    return m === 0 ? `${hours} h` : `${hours} h ${m} min`;
  }
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** Whole seconds, for countdowns and "for how long": `0 s`, `4 s`, `2 min 5 s`. */
export function formatSeconds(ms: number): string {
  const seconds = Math.max(0, Math.round((Number.isFinite(ms) ? ms : 0) / 1000));
  return seconds < 60 ? `${seconds} s` : formatDuration(seconds * 1000);
}

/** An instant as ISO 8601 UTC to the second: `2026-01-02T10:42:13Z`. */
export function formatInstant(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `12 s ago`, `just now`, `in 4 s`: how far `at` is from `now`, in whole seconds. */
export function formatRelative(at: number, now: number): string {
  const d = now - at;
  if (Math.abs(d) < 1000) return 'just now';
  return d > 0 ? `${formatSeconds(d)} ago` : `in ${formatSeconds(-d)}`;
}

/** `2026-01-02T10:42:13Z (12 s ago)`. */
export function formatInstantWithAge(at: number, now: number): string {
  return `${formatInstant(at)} (${formatRelative(at, now)})`;
}
