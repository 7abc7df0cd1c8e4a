import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, describeTime, rec, str, writeAnnotations, writeMap, type Json } from './describe-format';
import { writePodTemplate } from './workload-format';

/** kubectl describe cronjob; its active Jobs link to their descriptions. */
export function describeCronJob(cj: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((cj as Json).spec);
  const status = rec((cj as Json).status);
  const jobSpec = rec(rec(spec.jobTemplate).spec);
  const namespace = cj.metadata.namespace ?? '';
  w.line(0, 'Name:', cj.metadata.name ?? '');
  w.line(0, 'Namespace:', namespace);
  writeMap(w, 0, 'Labels', cj.metadata.labels);
  writeAnnotations(w, cj);
  w.line(0, 'Schedule:', str(spec.schedule));
  if (str(spec.timeZone)) w.line(0, 'Time Zone:', str(spec.timeZone));
  w.line(0, 'Concurrency Policy:', str(spec.concurrencyPolicy) || 'Allow');
  w.line(0, 'Suspend:', spec.suspend === true ? 'True' : 'False');
  w.line(0, 'Successful Job History Limit:', String(typeof spec.successfulJobsHistoryLimit === 'number' ? spec.successfulJobsHistoryLimit : 3));
  w.line(0, 'Failed Job History Limit:', String(typeof spec.failedJobsHistoryLimit === 'number' ? spec.failedJobsHistoryLimit : 1));
  w.line(0, 'Starting Deadline Seconds:', typeof spec.startingDeadlineSeconds === 'number' ? `${spec.startingDeadlineSeconds}s` : '<unset>');
  w.line(0, 'Selector:', '<unset>');
  w.line(0, 'Parallelism:', typeof jobSpec.parallelism === 'number' ? String(jobSpec.parallelism) : '<unset>');
  w.line(0, 'Completions:', typeof jobSpec.completions === 'number' ? String(jobSpec.completions) : '<unset>');
  writePodTemplate(w, jobSpec.template, namespace);
  w.line(0, 'Last Schedule Time:', status.lastScheduleTime ? describeTime(status.lastScheduleTime) : '<unset>');
  const active = arr(status.active);
  if (active.length === 0) w.line(0, 'Active Jobs:', '<none>');
  active.forEach((ref, i) => {
    const name = str(ref.name);
    w.line(0, i === 0 ? 'Active Jobs:' : '', name).link(name, { apiVersion: 'batch/v1', kind: 'Job', namespace: str(ref.namespace) || namespace, name });
  });
  return w;
}
