import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, since, str, num } from './describe-format';

/**
 * When an Event was last seen, in ms: lastTimestamp (events.k8s.io/v1: deprecatedLastTimestamp),
 * else series.lastObservedTime, eventTime, firstTimestamp (deprecatedFirstTimestamp), creation.
 */
export function lastSeen(event: KubeObject): number {
  const e = event as KubeObject & Record<string, unknown>;
  for (const v of [e.lastTimestamp, e.deprecatedLastTimestamp, rec(e.series).lastObservedTime, e.eventTime, e.firstTimestamp, e.deprecatedFirstTimestamp, event.metadata.creationTimestamp]) {
    const t = typeof v === 'string' ? Date.parse(v) : NaN;
    if (!Number.isNaN(t)) return t;
  }
  return 0;
}

/**
 * kubectl describe's Events section: `Events:  <none>`, or a table Type, Reason, Age, From,
 * Message, oldest first (newest LAST), the age of a repeated event as `12s (x6 over 5m)`.
 * Works for core/v1 Events and events.k8s.io/v1 ones (note, reportingController, series).
 */
export function eventsSection(events: readonly KubeObject[], now: number): DescribeWriter {
  const w = new DescribeWriter();
  if (events.length === 0) {
    w.line(0, 'Events:', '<none>');
    return w;
  }
  // Ties (one second holds many events) in the order the server stored them.
  const sorted = [...events].sort((a, b) => lastSeen(a) - lastSeen(b) || Number(a.metadata.resourceVersion ?? 0) - Number(b.metadata.resourceVersion ?? 0));
  w.line(0, 'Events:');
  w.line(1, 'Type', 'Reason', 'Age', 'From', 'Message');
  w.line(1, '----', '------', '----', '----', '-------');
  for (const event of sorted) {
    const e = event as KubeObject & Record<string, unknown>;
    const first = e.eventTime ? since(e.eventTime, now) : since(e.firstTimestamp ?? e.deprecatedFirstTimestamp ?? event.metadata.creationTimestamp, now);
    const series = rec(e.series);
    const count = num(e.count) ?? num(e.deprecatedCount) ?? 1;
    let age: string;
    if (num(series.count) !== undefined) age = `${since(series.lastObservedTime, now)} (x${num(series.count)} over ${first})`;
    else if (count > 1) age = `${since(e.lastTimestamp ?? e.deprecatedLastTimestamp, now)} (x${count} over ${first})`;
    else age = first;
    const from = str(rec(e.source).component) || str(rec(e.deprecatedSource).component) || str(e.reportingController) || str(e.reportingComponent);
    const message = (str(e.message) || str(e.note)).trim();
    w.line(1, str(e.type), str(e.reason), age, from, message);
  }
  return w;
}
