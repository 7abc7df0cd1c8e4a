import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, describeTime, rec, selectorText, str, writeAnnotations, writeConditions, writeMap, type Json } from './describe-format';
import { count, writePodTemplate } from './workload-format';

/** kubectl describe statefulset. */
export function describeStatefulSet(s: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((s as Json).spec);
  const status = rec((s as Json).status);
  w.line(0, 'Name:', s.metadata.name ?? '');
  w.line(0, 'Namespace:', s.metadata.namespace ?? '');
  w.line(0, 'CreationTimestamp:', describeTime(s.metadata.creationTimestamp));
  w.line(0, 'Selector:', selectorText(spec.selector));
  writeMap(w, 0, 'Labels', s.metadata.labels);
  writeAnnotations(w, s);
  const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
  w.line(0, 'Replicas:', `${desired} desired | ${count(status, 'replicas')} total`);
  const strategy = rec(spec.updateStrategy);
  w.line(0, 'Update Strategy:', str(strategy.type) || 'RollingUpdate');
  const partition = rec(strategy.rollingUpdate).partition;
  if (typeof partition === 'number') w.line(1, 'Partition:', String(partition));
  w.line(0, 'Pods Status:', `${count(status, 'readyReplicas')} Ready / ${count(status, 'currentReplicas')} Current / ${count(status, 'updatedReplicas')} Updated`);
  writePodTemplate(w, spec.template, s.metadata.namespace ?? '');
  const claims = arr(spec.volumeClaimTemplates);
  if (claims.length === 0) w.line(0, 'Volume Claims:', '<none>');
  else {
    w.line(0, 'Volume Claims:');
    for (const c of claims) {
      const cs = rec(c.spec);
      w.line(1, 'Name:', str(rec(c.metadata).name));
      w.line(1, 'StorageClass:', str(cs.storageClassName));
      w.line(1, 'Capacity:', str(rec(rec(cs.resources).requests).storage));
      w.line(1, 'Access Modes:', (Array.isArray(cs.accessModes) ? (cs.accessModes as unknown[]).map(str) : []).join(', '));
    }
  }
  writeConditions(w, status.conditions);
  return w;
}
