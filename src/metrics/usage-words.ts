import { formatAge } from './format-age';
import { availabilityText } from './metrics-availability';
import type { UsageSample } from './metrics-wire';
import type { UsageReading } from './usage-reading';

/** How fresh a sample is: `sampled 12s ago over 15s (2026-11-28T10:00:00Z)`. */
export function freshnessText(sample: UsageSample, now: number): string {
  const window = sample.windowMs ? ` over ${formatAge(sample.windowMs)}` : '';
  return `sampled ${formatAge(Math.max(0, now - sample.timestamp))} ago${window} (${new Date(sample.timestamp).toISOString()})`;
}

/** Why a reading has no value, in one calm phrase; undefined for a value. */
export function noValueText<F>(reading: UsageReading<F>): string | undefined {
  switch (reading.kind) {
    case 'value':
      return undefined;
    case 'stale':
      return `stale: no sample for ${formatAge(reading.ageMs)}`;
    case 'not-running':
      return reading.why;
    case 'no-sample':
      return 'no sample yet (metrics-server samples every 15 s)';
    case 'unavailable':
      return availabilityText(reading.availability);
  }
}

/** The short word a narrow cell shows instead of a number. */
export function noValueWord<F>(reading: UsageReading<F>): string {
  switch (reading.kind) {
    case 'value':
      return '';
    case 'stale':
      return 'stale';
    case 'not-running':
      return '—';
    case 'no-sample':
      return '…';
    case 'unavailable':
      return reading.availability.kind === 'no-api' ? 'no metrics' : reading.availability.kind === 'forbidden' ? 'forbidden' : reading.availability.kind === 'waiting' ? '…' : 'unavailable';
  }
}

const BARS = '▁▂▃▄▅▆▇█';

/** A sparkline of values (a compact chart in text), scaled to their own maximum. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(...values, 0);
  if (values.length === 0) return '';
  return values.map((v) => (max <= 0 ? BARS[0] : BARS[Math.min(BARS.length - 1, Math.floor((v / max) * (BARS.length - 1) + 1e-9))])).join('');
}
