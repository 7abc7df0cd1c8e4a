/**
 * Where a log terminal starts reading: kubectl's `--tail` and `--since`, as a short list of
 * choices (the server's `tailLines` and `sinceSeconds`). Pure, so the query each one sends is
 * testable.
 */

/** One choice of where the log starts. Neither field: the whole log the kubelet keeps. */
export interface LogRange {
  readonly label: string;
  /** The last N lines (`tailLines`). */
  readonly tailLines?: number;
  /** The lines of the last N seconds (`sinceSeconds`, at least 1). */
  readonly sinceSeconds?: number;
}

/** The choices offered by "Log Range…", in order. */
export const LOG_RANGES: readonly LogRange[] = [
  { label: 'Last 100 lines', tailLines: 100 },
  { label: 'Last 1,000 lines', tailLines: 1000 },
  { label: 'Since 5 minutes ago', sinceSeconds: 300 },
  { label: 'Since 1 hour ago', sinceSeconds: 3600 },
  { label: 'The whole log' },
];

/** The whole log: what a pod's terminal starts with (kubectl's default). */
export const WHOLE_LOG: LogRange = LOG_RANGES[LOG_RANGES.length - 1];

/** The query parameters `range` adds to the first request of each stream. */
export function rangeQuery(range: LogRange): Record<string, string> {
  const q: Record<string, string> = {};
  if (range.tailLines !== undefined) q.tailLines = String(range.tailLines);
  if (range.sinceSeconds !== undefined) q.sinceSeconds = String(range.sinceSeconds);
  return q;
}

/** How the header says it: `the last 100 lines`, `since 5 min ago`, `the whole log`. */
export function rangeText(range: LogRange): string {
  if (range.tailLines !== undefined) return `the last ${range.tailLines.toLocaleString('en-US')} lines`;
  if (range.sinceSeconds !== undefined) {
    const s = range.sinceSeconds;
    return `since ${s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`} ago`;
  }
  return 'the whole log';
}
