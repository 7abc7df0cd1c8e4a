/**
 * One line of a pod log read with `timestamps=true`: the kubelet prefixes every line with an
 * RFC3339Nano timestamp and one space (Kubernetes API reference, PodLogOptions.timestamps).
 */
export interface TimestampedLine {
  /** The timestamp exactly as the server wrote it (RFC3339Nano), or undefined when the line had none. */
  readonly timestamp: string | undefined;
  /** Milliseconds since the epoch of `timestamp`; NaN when there is none. */
  readonly at: number;
  /** The line without its timestamp prefix and without the trailing newline. */
  readonly text: string;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) /;

/** Splits `raw` (one line, newline already removed) into its timestamp and text. Never throws. */
export function parseTimestampedLine(raw: string): TimestampedLine {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const m = RFC3339.exec(line);
  if (!m) return { timestamp: undefined, at: Number.NaN, text: line };
  const at = Date.parse(m[1]);
  if (Number.isNaN(at)) return { timestamp: undefined, at: Number.NaN, text: line };
  return { timestamp: m[1], at, text: line.slice(m[0].length) };
}

/**
 * The `sinceTime` to resume after a line seen at `at`: RFC3339 in whole seconds, rounded down,
 * since the server compares at second precision (so the resumed stream repeats that second).
 */
export function sinceTimeFor(at: number): string {
  return new Date(Math.floor(at / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
