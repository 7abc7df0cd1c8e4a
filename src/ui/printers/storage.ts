import type { KubeObject } from '../../informer';
import { age, ageField, array, record, str } from './cells';
import { row, type PrintedRow } from './printed-row';

const ACCESS_MODES: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** `RWO,RWX`, in kubectl's fixed order. */
export function accessModes(modes: unknown): string {
  const set = new Set(array(modes).map(str));
  return ACCESS_MODES.filter(([m]) => set.has(m))
    .map(([, short]) => short)
    .join(',');
}

/**
 * PersistentVolumeClaims: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS
 * AGE, wide VOLUMEMODE. Capacity and access modes only once bound to a volume.
 * Description: "Bound · 10Gi · RWO · standard · 3d".
 */
export function printPersistentVolumeClaim(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const deleting = typeof obj.metadata.deletionTimestamp === 'string' && obj.metadata.deletionTimestamp !== '';
  const phase = deleting ? 'Terminating' : str(st.phase);
  const volume = str(spec.volumeName);
  const capacity = volume ? str(record(st.capacity).storage) : '';
  const modes = volume ? accessModes(st.accessModes) : '';
  const storageClass = str(spec.storageClassName) || str(obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class']);
  const health =
    phase === 'Bound'
      ? { icon: 'database', tone: 'ok' as const }
      : phase === 'Lost'
        ? { icon: 'error', tone: 'error' as const }
        : phase === 'Terminating'
          ? { icon: 'trash', tone: 'busy' as const }
          : { icon: 'clock', tone: 'busy' as const };
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['STATUS', phase],
      ['VOLUME', volume],
      ['CAPACITY', capacity],
      ['ACCESS MODES', modes],
      ['STORAGECLASS', storageClass],
      ['VOLUMEATTRIBUTESCLASS', str(spec.volumeAttributesClassName) || '<unset>'],
      ['AGE', age(obj, now)],
    ],
    { summary: [phase || 'Pending', capacity, modes, storageClass, ageField(obj, now)], health },
    [['VOLUMEMODE', str(spec.volumeMode)]],
  );
}
