import { DescribeWriter } from './describe-writer';
import { arr, rec, str, writeMap, type Json } from './describe-format';
import { writeContainers, writeVolumes } from './pod-describer';

/** kubectl's DescribePodTemplate: `Pod Template:` with its labels, annotations, service account, containers and volumes. */
export function writePodTemplate(w: DescribeWriter, template: unknown, namespace: string): void {
  const t = rec(template);
  const meta = rec(t.metadata);
  const spec = rec(t.spec);
  w.line(0, 'Pod Template:');
  writeMap(w, 1, 'Labels', meta.labels);
  if (Object.keys(rec(meta.annotations)).length > 0) writeMap(w, 1, 'Annotations', meta.annotations, () => false, ': ');
  if (str(spec.serviceAccountName)) w.line(1, 'Service Account:', str(spec.serviceAccountName));
  const init = arr(spec.initContainers);
  if (init.length > 0) {
    w.line(1, 'Init Containers:');
    writeContainers(w, init, [], true);
  }
  w.line(1, 'Containers:');
  writeContainers(w, arr(spec.containers), [], true);
  writeVolumes(w, arr(spec.volumes), namespace, 1);
  if (Object.keys(rec(spec.nodeSelector)).length > 0) writeMap(w, 1, 'Node-Selectors', spec.nodeSelector);
}

/** A status number, 0 when absent. */
export function count(status: Json, key: string): number {
  const v = status[key];
  return typeof v === 'number' ? v : 0;
}
