import type { KubeObject } from '../informer';
import { humanDuration } from '../ui/age';
import { DescribeWriter } from './describe-writer';
import { describeTime, rec, selectorText, str, writeAnnotations, writeConditions, writeControlledBy, writeMap, type Json } from './describe-format';
import { count, writePodTemplate } from './workload-format';

/** kubectl describe job; a Job of a CronJob links to it (Controlled By). */
export function describeJob(job: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((job as Json).spec);
  const status = rec((job as Json).status);
  w.line(0, 'Name:', job.metadata.name ?? '');
  w.line(0, 'Namespace:', job.metadata.namespace ?? '');
  w.line(0, 'Selector:', selectorText(spec.selector));
  writeMap(w, 0, 'Labels', job.metadata.labels);
  writeAnnotations(w, job);
  writeControlledBy(w, job);
  w.line(0, 'Parallelism:', String(typeof spec.parallelism === 'number' ? spec.parallelism : 1));
  w.line(0, 'Completions:', typeof spec.completions === 'number' ? String(spec.completions) : '<unset>');
  w.line(0, 'Completion Mode:', str(spec.completionMode) || 'NonIndexed');
  if (typeof spec.suspend === 'boolean') w.line(0, 'Suspend:', String(spec.suspend));
  if (typeof spec.backoffLimit === 'number') w.line(0, 'Backoff Limit:', String(spec.backoffLimit));
  if (status.startTime) w.line(0, 'Start Time:', describeTime(status.startTime));
  if (status.completionTime) {
    w.line(0, 'Completed At:', describeTime(status.completionTime));
    const ms = Date.parse(str(status.completionTime)) - Date.parse(str(status.startTime));
    if (!Number.isNaN(ms)) w.line(0, 'Duration:', humanDuration(ms));
  }
  if (typeof spec.activeDeadlineSeconds === 'number') w.line(0, 'Active Deadline Seconds:', `${spec.activeDeadlineSeconds}s`);
  w.line(0, 'Pods Statuses:', `${count(status, 'active')} Active (${count(status, 'ready')} Ready) / ${count(status, 'succeeded')} Succeeded / ${count(status, 'failed')} Failed`);
  writePodTemplate(w, spec.template, job.metadata.namespace ?? '');
  writeConditions(w, status.conditions);
  return w;
}
