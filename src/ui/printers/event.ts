import type { KubeObject } from '../../informer';
import { humanDuration } from '../age';
import { int, record, str, time } from './cells';
import { row, type PrintedRow } from './printed-row';

/**
 * When an Event was last seen, as kubectl's LAST SEEN reads it: the series' last observation,
 * else `lastTimestamp`, else the first sighting (`firstTimestamp`, else `eventTime`), else the
 * object's creation. Undefined when none parses. What "newest first" sorts by.
 */
export function eventLastSeen(obj: KubeObject): number | undefined {
  const series = record(obj.series);
  if (obj.series !== undefined && obj.series !== null) {
    const t = time(series.lastObservedTime);
    if (t !== undefined) return t;
  }
  return time(obj.lastTimestamp) ?? time(obj.firstTimestamp) ?? time(obj.eventTime) ?? time(obj.metadata.creationTimestamp);
}

/** How many times it happened: the series' count, else `count`, else 1 (singleton events of the new API). */
export function eventCount(obj: KubeObject): number {
  if (obj.series !== undefined && obj.series !== null) return int(record(obj.series).count, 1);
  const count = int(obj.count);
  return count === 0 ? 1 : count;
}

/** `pod/web-1`, or just the kind when the object has no name (kubectl's OBJECT). */
export function eventObject(obj: KubeObject): string {
  const involved = record(obj.involvedObject ?? obj.regarding);
  const kind = str(involved.kind).toLowerCase();
  return str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
}

/**
 * Events: LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE FIRST SEEN COUNT NAME.
 * The label is the reason (an Event's own name is a generated id), and the description reads
 * "Warning ×6 · 12s ago · pod/ledger-6d5f7c8b9-z9w4c · Back-off restarting failed container…".
 */
export function printEvent(obj: KubeObject, now: number): PrintedRow {
  const first = time(obj.firstTimestamp) ?? time(obj.eventTime);
  const last = eventLastSeen(obj);
  const lastSeen = last === undefined ? '<unknown>' : humanDuration(now - last);
  const firstSeen = first === undefined ? lastSeen : humanDuration(now - first);
  const type = str(obj.type) || 'Normal';
  const reason = str(obj.reason);
  const target = eventObject(obj);
  const message = str(obj.message ?? obj.note).trim();
  const count = eventCount(obj);
  const source = record(obj.source);
  const sourceCell = str(source.component)
    ? `${str(source.component)}${str(source.host) ? `, ${str(source.host)}` : ''}`
    : str(obj.reportingController)
      ? `${str(obj.reportingController)}${str(obj.reportingInstance) ? `, ${str(obj.reportingInstance)}` : ''}`
      : '';
  return row(
    [
      ['LAST SEEN', lastSeen],
      ['TYPE', type],
      ['REASON', reason],
      ['OBJECT', target],
      ['MESSAGE', message],
    ],
    {
      label: reason || (obj.metadata.name ?? ''),
      summary: [`${type} ×${count}`, last === undefined ? '' : `${lastSeen} ago`, target, message],
      health: type === 'Warning' ? { icon: 'warning', tone: 'warning' } : { icon: 'info', tone: 'neutral' },
      notes: message ? [message] : [],
    },
    [
      ['SUBOBJECT', str(record(obj.involvedObject ?? obj.regarding).fieldPath)],
      ['SOURCE', sourceCell],
      ['FIRST SEEN', firstSeen],
      ['COUNT', String(count)],
      ['NAME', obj.metadata.name ?? ''],
    ],
  );
}
