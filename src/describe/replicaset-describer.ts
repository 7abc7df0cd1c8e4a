import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, selectorText, writeAnnotations, writeConditions, writeControlledBy, writeMap, type Json } from './describe-format';
import { count, writePodTemplate } from './workload-format';

/** kubectl describe replicaset (its Pods Status from the status counts: the Pods themselves are not listed here). */
export function describeReplicaSet(rs: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((rs as Json).spec);
  const status = rec((rs as Json).status);
  w.line(0, 'Name:', rs.metadata.name ?? '');
  w.line(0, 'Namespace:', rs.metadata.namespace ?? '');
  w.line(0, 'Selector:', selectorText(spec.selector));
  writeMap(w, 0, 'Labels', rs.metadata.labels);
  writeAnnotations(w, rs);
  writeControlledBy(w, rs);
  const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
  w.line(0, 'Replicas:', `${count(status, 'replicas')} current / ${desired} desired`);
  w.line(0, 'Pods Status:', `${count(status, 'readyReplicas')} Ready / ${count(status, 'availableReplicas')} Available`);
  writePodTemplate(w, spec.template, rs.metadata.namespace ?? '');
  writeConditions(w, status.conditions);
  return w;
}
