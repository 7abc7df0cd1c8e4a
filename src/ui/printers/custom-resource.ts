import type { KubeObject } from '../../informer';
import { genericStatus } from './generic';
import { columnCell, type PrinterColumn } from './printer-columns';
import { row, type Health, type PrintedRow } from './printed-row';

/** Column names that say how the object is doing: shown first in the description. */
const STATUS_LIKE = /^(status|state|phase|ready|health|conditions?|synced|available)$/i;

const GOOD = new Set(['true', 'ready', 'running', 'active', 'available', 'healthy', 'bound', 'succeeded', 'complete', 'completed', 'synced']);
const BAD = new Set(['false', 'failed', 'error', 'degraded', 'unhealthy', 'lost']);

/**
 * A custom resource with its CRD's printer columns: NAME then the columns (priority 0 first,
 * the wide ones after). Description: the status-like columns first (Status, Ready, Phase, ...),
 * then the other priority-0 columns in the CRD's order, dates as ages, other values prefixed
 * with their column's name ("size 3"). The icon follows the first status-like value, else the
 * object's `Ready` condition or phase.
 */
export function printCustomResource(obj: KubeObject, kind: string | undefined, columns: readonly PrinterColumn[], now: number): PrintedRow {
  const cells = columns.map((c) => ({ column: c, cell: columnCell(obj, c, now) }));
  const visible = cells.filter((c) => c.column.priority === 0);
  const wide = cells.filter((c) => c.column.priority !== 0);
  const statusCells = visible.filter((c) => STATUS_LIKE.test(c.column.name));
  const others = visible.filter((c) => !STATUS_LIKE.test(c.column.name));
  const field = (c: { column: PrinterColumn; cell: string }, named: boolean) =>
    c.cell === '<none>' ? '' : c.column.type === 'date' || !named ? c.cell : `${c.column.name.toLowerCase()} ${c.cell}`;
  const summary = [...statusCells.map((c) => field(c, false)), ...others.map((c) => field(c, true))];
  return row(
    [['NAME', obj.metadata.name ?? ''], ...visible.map((c): [string, string] => [c.column.name.toUpperCase(), c.cell])],
    { summary, health: healthOf(obj, kind, statusCells[0]?.cell) },
    wide.map((c): [string, string] => [c.column.name.toUpperCase(), c.cell]),
  );
}

function healthOf(obj: KubeObject, kind: string | undefined, status: string | undefined): Health {
  const generic = genericStatus(obj, kind).health;
  if (status === undefined || status === '<none>') return generic;
  const s = status.toLowerCase();
  if (GOOD.has(s)) return { icon: 'pass', tone: 'ok' };
  if (BAD.has(s)) return { icon: 'error', tone: 'error' };
  return generic.tone === 'neutral' ? { icon: 'clock', tone: 'busy' } : generic;
}
