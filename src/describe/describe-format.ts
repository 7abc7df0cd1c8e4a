import { labelSelectorText } from '../cluster/label-selector-text';
import type { KubeObject } from '../informer';
import { humanDuration } from '../ui/age';
import type { DescribeWriter, ObjectTarget } from './describe-writer';

/** A loose JSON record: describers read objects whose shape the API server decides. */
export type Json = Record<string, unknown>;

export function rec(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

export function arr(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(rec) : [];
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** kubectl's RFC 1123 time with numeric zone (`Mon, 02 Jan 2006 15:04:05 +0000`), in UTC. */
export function describeTime(value: unknown): string {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) return '<unknown>';
  const d = new Date(t);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** kubectl's translateTimestampSince: a human duration since `value`, `<unknown>` when absent. */
export function since(value: unknown, now: number): string {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** `Title:\tk=v` then one `\tk=v` line per further key, sorted; `<none>` when empty (printLabelsMultiline). */
export function writeMap(w: DescribeWriter, level: number, title: string, map: unknown, skip: (key: string) => boolean = () => false, separator = '='): void {
  const entries = Object.entries(rec(map))
    .filter(([k]) => !skip(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) {
    w.line(level, `${title}:`, '<none>');
    return;
  }
  entries.forEach(([k, v], i) => w.line(level, i === 0 ? `${title}:` : '', `${k}${separator}${shorten(str(v))}`));
}

/** Annotations are cut at 140 characters, as kubectl does, so one huge value cannot flood the page. */
function shorten(value: string): string {
  return value.length > 140 ? `${value.slice(0, 137)}...` : value;
}

/** Name, Namespace, Labels, Annotations: the head of most descriptions. */
export function writeMeta(w: DescribeWriter, obj: KubeObject, opts: { namespace?: boolean } = {}): void {
  w.line(0, 'Name:', obj.metadata.name ?? '');
  if (opts.namespace !== false && obj.metadata.namespace !== undefined) w.line(0, 'Namespace:', obj.metadata.namespace);
  writeMap(w, 0, 'Labels', obj.metadata.labels);
  writeAnnotations(w, obj);
}

/** Annotations as kubectl prints them (`key: value`), without the last applied configuration. */
export function writeAnnotations(w: DescribeWriter, obj: KubeObject, level = 0): void {
  writeMap(w, level, 'Annotations', obj.metadata.annotations, (k) => k === 'kubectl.kubernetes.io/last-applied-configuration', ': ');
}

/** The controller owner reference, as a link target. */
export function controllerOf(obj: KubeObject): ObjectTarget | undefined {
  const refs = arr(rec(obj.metadata).ownerReferences);
  const ref = refs.find((r) => r.controller === true) ?? undefined;
  if (!ref) return undefined;
  return { apiVersion: str(ref.apiVersion), kind: str(ref.kind), namespace: obj.metadata.namespace ?? '', name: str(ref.name) };
}

/** `Controlled By:  ReplicaSet/web-7d9f8b6c4`, linked to the owner's description. */
export function writeControlledBy(w: DescribeWriter, obj: KubeObject): void {
  const owner = controllerOf(obj);
  if (!owner) return;
  const text = `${owner.kind}/${owner.name}`;
  w.line(0, 'Controlled By:', text).link(text, owner);
}

/** A label selector (`matchLabels` and `matchExpressions`) the way kubectl prints it: `app=web,tier in (a,b)`; `<none>` when empty. */
export function selectorText(selector: unknown): string {
  return labelSelectorText(selector) || '<none>';
}

/** The `Conditions:` table (`Type  Status  Reason` for workloads). */
export function writeConditions(w: DescribeWriter, conditions: unknown, columns: ('Status' | 'Reason' | 'Message')[] = ['Status', 'Reason']): void {
  const list = arr(conditions);
  if (list.length === 0) return;
  w.line(0, 'Conditions:');
  w.line(1, 'Type', ...columns);
  w.line(1, '----', ...columns.map((c) => '-'.repeat(c.length)));
  for (const c of list) w.line(1, str(c.type), ...columns.map((col) => str(c[col.toLowerCase()]) || ''));
}
