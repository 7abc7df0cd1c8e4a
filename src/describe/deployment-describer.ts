import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, describeTime, rec, selectorText, str, writeAnnotations, writeConditions, writeMap, type Json } from './describe-format';
import { count, writePodTemplate } from './workload-format';

/** kubectl describe deployment; the new ReplicaSet (named in the Progressing condition) links to its description. */
export function describeDeployment(d: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((d as Json).spec);
  const status = rec((d as Json).status);
  const namespace = d.metadata.namespace ?? '';
  w.line(0, 'Name:', d.metadata.name ?? '');
  w.line(0, 'Namespace:', namespace);
  w.line(0, 'CreationTimestamp:', describeTime(d.metadata.creationTimestamp));
  writeMap(w, 0, 'Labels', d.metadata.labels);
  writeAnnotations(w, d);
  w.line(0, 'Selector:', selectorText(spec.selector));
  const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
  w.line(0, 'Replicas:', `${desired} desired | ${count(status, 'updatedReplicas')} updated | ${count(status, 'replicas')} total | ${count(status, 'availableReplicas')} available | ${count(status, 'unavailableReplicas')} unavailable`);
  const strategy = rec(spec.strategy);
  w.line(0, 'StrategyType:', str(strategy.type) || 'RollingUpdate');
  w.line(0, 'MinReadySeconds:', String(typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0));
  if ((str(strategy.type) || 'RollingUpdate') === 'RollingUpdate') {
    const ru = rec(strategy.rollingUpdate);
    w.line(0, 'RollingUpdateStrategy:', `${str(ru.maxUnavailable) || '25%'} max unavailable, ${str(ru.maxSurge) || '25%'} max surge`);
  }
  writePodTemplate(w, spec.template, namespace);
  writeConditions(w, status.conditions);
  const progressing = arr(status.conditions).find((c) => str(c.type) === 'Progressing');
  const newRs = /ReplicaSet "([^"]+)"/.exec(str(progressing?.message))?.[1];
  w.line(0, 'OldReplicaSets:', '<none>');
  if (newRs) w.line(0, 'NewReplicaSet:', `${newRs} (${count(status, 'updatedReplicas')}/${desired} replicas created)`).link(newRs, { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace, name: newRs });
  else w.line(0, 'NewReplicaSet:', '<none>');
  return w;
}
