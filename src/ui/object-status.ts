import type { KubeObject } from '../informer';
import { printObject } from './printers';
import { toneColor, type Tone } from './tree/tone';

/** How an object is doing, in one short phrase with its icon: the first field of its tree row. */
export interface ObjectStatus {
  /** The status field of the row, e.g. "Running", "Stuck 1/2 ready", "Warning ×3"; '' when the kind has none. */
  text: string;
  /** A codicon id. */
  icon: string;
  /** A theme colour id; absent for kinds without a health (ConfigMaps, Secrets, ...). */
  color?: string;
  tone: Tone;
}

/**
 * The status of an object of `kind` (taken from the resource type; list items may lack their
 * own `kind`): the first field of its printed row (src/ui/printers), which follows kubectl's
 * printers. Pure, never throws on malformed objects.
 */
export function objectStatus(obj: KubeObject, kind: string | undefined = obj.kind, now = Date.now()): ObjectStatus {
  const row = printObject(obj, kind, now);
  const text = row.summary[0] ?? '';
  const color = toneColor(row.health.tone);
  return color ? { text, icon: row.health.icon, color, tone: row.health.tone } : { text, icon: row.health.icon, tone: row.health.tone };
}
