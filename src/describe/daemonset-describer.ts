import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, selectorText, writeAnnotations, writeMap, type Json } from './describe-format';
import { count, writePodTemplate } from './workload-format';

/** kubectl describe daemonset. */
export function describeDaemonSet(d: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((d as Json).spec);
  const status = rec((d as Json).status);
  const template = rec(rec(spec.template).spec);
  w.line(0, 'Name:', d.metadata.name ?? '');
  w.line(0, 'Namespace:', d.metadata.namespace ?? '');
  w.line(0, 'Selector:', selectorText(spec.selector));
  const nodeSelector = Object.entries(rec(template.nodeSelector)).map(([k, v]) => `${k}=${String(v)}`);
  w.line(0, 'Node-Selector:', nodeSelector.length ? nodeSelector.join(',') : '<none>');
  writeMap(w, 0, 'Labels', d.metadata.labels);
  writeAnnotations(w, d);
  w.line(0, 'Desired Number of Nodes Scheduled:', String(count(status, 'desiredNumberScheduled')));
  w.line(0, 'Current Number of Nodes Scheduled:', String(count(status, 'currentNumberScheduled')));
  w.line(0, 'Number of Nodes Scheduled with Up-to-date Pods:', String(count(status, 'updatedNumberScheduled')));
  w.line(0, 'Number of Nodes Scheduled with Available Pods:', String(count(status, 'numberAvailable')));
  w.line(0, 'Number of Nodes Misscheduled:', String(count(status, 'numberMisscheduled')));
  w.line(0, 'Pods Status:', `${count(status, 'numberReady')} Ready / ${count(status, 'numberAvailable')} Available / ${count(status, 'numberUnavailable')} Unavailable`);
  writePodTemplate(w, spec.template, d.metadata.namespace ?? '');
  return w;
}
