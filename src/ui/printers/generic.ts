import type { KubeObject } from '../../informer';
import { age, ageField, condition, record, str } from './cells';
import { row, type Health, type PrintedRow } from './printed-row';

/** Icons for kinds without a printer of their own. */
const KIND_ICONS: Record<string, string> = {
  PersistentVolume: 'database',
  ServiceAccount: 'account',
  CustomResourceDefinition: 'symbol-class',
  Role: 'shield',
  ClusterRole: 'shield',
};

const GOOD_PHASES = new Set(['Active', 'Running', 'Bound', 'Ready', 'Available', 'Healthy', 'Succeeded', 'Complete', 'Completed']);
const BAD_PHASES = new Set(['Failed', 'Error', 'Lost', 'Unhealthy', 'Degraded']);

/**
 * A status read from any object: Terminating; else its `Ready` condition (its reason when not
 * True); else `status.phase`; else none. For kinds without a printer and custom resources.
 */
export function genericStatus(obj: KubeObject, kind: string | undefined): { text: string; health: Health } {
  const plainIcon = (kind && KIND_ICONS[kind]) || 'symbol-object';
  if (typeof obj.metadata.deletionTimestamp === 'string' && obj.metadata.deletionTimestamp) return { text: 'Terminating', health: { icon: 'trash', tone: 'busy' } };
  const st = record(obj.status);
  const ready = condition(st, 'Ready');
  if (ready && typeof ready.status === 'string') {
    if (ready.status === 'True') return { text: 'Ready', health: { icon: 'pass', tone: 'ok' } };
    const why = str(ready.reason) || 'NotReady';
    return { text: why, health: ready.status === 'False' ? { icon: 'error', tone: 'error' } : { icon: 'question', tone: 'warning' } };
  }
  const phase = str(st.phase);
  if (phase) {
    if (GOOD_PHASES.has(phase)) return { text: phase, health: { icon: plainIcon, tone: 'neutral' } };
    if (BAD_PHASES.has(phase)) return { text: phase, health: { icon: 'error', tone: 'error' } };
    return { text: phase, health: { icon: 'clock', tone: 'busy' } };
  }
  return { text: '', health: { icon: plainIcon, tone: 'neutral' } };
}

/**
 * What kubectl prints for a type it has no columns for: NAME AGE. The description still starts
 * with the status read from the object's `Ready` condition or phase, when it has one.
 */
export function printGeneric(obj: KubeObject, kind: string | undefined, now: number): PrintedRow {
  const s = genericStatus(obj, kind);
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['AGE', age(obj, now)],
    ],
    { summary: [s.text, ageField(obj, now)], health: s.health },
  );
}
