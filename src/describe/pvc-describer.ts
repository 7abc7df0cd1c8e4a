import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, str, writeAnnotations, writeMap, type Json } from './describe-format';

/** kubectl describe persistentvolumeclaim; its bound volume links to the PersistentVolume's description. */
export function describePersistentVolumeClaim(pvc: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((pvc as Json).spec);
  const status = rec((pvc as Json).status);
  w.line(0, 'Name:', pvc.metadata.name ?? '');
  w.line(0, 'Namespace:', pvc.metadata.namespace ?? '');
  w.line(0, 'StorageClass:', str(spec.storageClassName));
  w.line(0, 'Status:', pvc.metadata.deletionTimestamp ? 'Terminating' : str(status.phase));
  const volume = str(spec.volumeName);
  w.line(0, 'Volume:', volume);
  if (volume) w.link(volume, { apiVersion: 'v1', kind: 'PersistentVolume', namespace: '', name: volume });
  writeMap(w, 0, 'Labels', pvc.metadata.labels);
  writeAnnotations(w, pvc);
  const finalizers = Array.isArray(pvc.metadata.finalizers) ? pvc.metadata.finalizers.map(String) : [];
  w.line(0, 'Finalizers:', `[${finalizers.join(' ')}]`);
  w.line(0, 'Capacity:', str(rec(status.capacity).storage));
  const modes = Array.isArray(status.accessModes) ? (status.accessModes as unknown[]).map(str) : [];
  w.line(0, 'Access Modes:', modes.map((m) => ACCESS_MODES[m] ?? m).join(','));
  w.line(0, 'VolumeMode:', str(spec.volumeMode) || 'Filesystem');
  const source = rec(spec.dataSource);
  if (str(source.kind)) {
    w.line(0, 'DataSource:');
    w.line(1, 'Kind:', str(source.kind));
    w.line(1, 'Name:', str(source.name));
  }
  return w;
}

/** kubectl's short access modes. */
const ACCESS_MODES: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
