/**
 * Tolerant readers over unvalidated object JSON, and kubectl's cell formats. Nothing here throws
 * on malformed input: a missing or mistyped field reads as absent.
 */
import { labelSelectorText } from '../../cluster/label-selector-text';
import { humanDuration } from '../age';

export type Json = Record<string, unknown>;

export function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function records(value: unknown): Json[] {
  return array(value).map(record);
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function int(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** A timestamp in ms, or undefined when absent or unparsable. */
export function time(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** kubectl's `translateTimestampSince`: `<unknown>` for a missing time, else the human duration since it. */
export function since(timestamp: unknown, now: number): string {
  const t = time(timestamp);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}

/** The AGE cell. */
export function age(obj: { metadata: { creationTimestamp?: string | null } }, now: number): string {
  return since(obj.metadata.creationTimestamp, now);
}

/** The AGE of the description: '' rather than `<unknown>`. */
export function ageField(obj: { metadata: { creationTimestamp?: string | null } }, now: number): string {
  const a = age(obj, now);
  return a === '<unknown>' ? '' : a;
}

/** `<none>` for an empty cell, as kubectl prints it. */
export function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}

/** Labels as `k=v,k2=v2` (sorted by key, like labels.FormatLabels); `<none>` when empty. */
export function formatLabels(value: unknown): string {
  const entries = Object.entries(record(value)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${str(v)}`).join(',');
}

/** The condition of `type` in `status.conditions`, if any. */
export function condition(status: Json, type: string): Json | undefined {
  return records(status.conditions).find((c) => c.type === type);
}

/** "1 thing" / "2 things". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The container names and images of a pod spec, comma-separated (kubectl's CONTAINERS, IMAGES). */
export function containerCells(podSpec: Json): [string, string] {
  const containers = records(podSpec.containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** A label selector (`matchLabels`, `matchExpressions`) as kubectl prints it; `<none>` when empty. */
export function formatSelector(value: unknown): string {
  return labelSelectorText(value) || '<none>';
}
