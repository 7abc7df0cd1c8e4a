import type { KubeObject } from '../../informer';
import { humanDuration } from '../age';
import { array, age, ageField, containerCells, formatSelector, int, record, records, since, str, time, type Json } from './cells';
import { row, type Health, type PrintedRow } from './printed-row';

function jobCondition(st: Json, type: string): boolean {
  const c = records(st.conditions).find((x) => x.type === type);
  return c?.status === 'True';
}

/**
 * Jobs: NAME STATUS COMPLETIONS DURATION AGE, wide CONTAINERS IMAGES SELECTOR.
 * STATUS is kubectl's: Complete, Failed, Terminating, Suspended, FailureTarget, else Running.
 * Description: "Complete 1/1 · took 12s · 5m".
 */
export function printJob(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const succeeded = int(st.succeeded);
  let completions: string;
  if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
  else {
    const parallelism = int(spec.parallelism);
    completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  }
  const start = time(st.startTime);
  const end = time(st.completionTime);
  const duration = start === undefined ? '' : humanDuration((end ?? now) - start);
  let status: string;
  let health: Health;
  if (jobCondition(st, 'Complete')) [status, health] = ['Complete', { icon: 'pass', tone: 'idle' }];
  else if (jobCondition(st, 'Failed')) [status, health] = ['Failed', { icon: 'error', tone: 'error' }];
  else if (typeof obj.metadata.deletionTimestamp === 'string' && obj.metadata.deletionTimestamp) [status, health] = ['Terminating', { icon: 'trash', tone: 'busy' }];
  else if (jobCondition(st, 'Suspended')) [status, health] = ['Suspended', { icon: 'stop-circle', tone: 'idle' }];
  else if (jobCondition(st, 'FailureTarget')) [status, health] = ['FailureTarget', { icon: 'error', tone: 'error' }];
  else [status, health] = ['Running', { icon: 'clock', tone: 'busy' }];
  const [containers, images] = containerCells(record(record(spec.template).spec));
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['STATUS', status],
      ['COMPLETIONS', completions],
      ['DURATION', duration],
      ['AGE', age(obj, now)],
    ],
    { summary: [`${status} ${completions}`, duration && (end !== undefined ? `took ${duration}` : `running ${duration}`), ageField(obj, now)], health },
    [
      ['CONTAINERS', containers],
      ['IMAGES', images],
      ['SELECTOR', formatSelector(spec.selector)],
    ],
  );
}

/**
 * CronJobs: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, wide CONTAINERS IMAGES SELECTOR.
 * Description: "*\/5 * * * * · 1 active · last 2m ago · 30d" ("Suspended" first when suspended).
 */
export function printCronJob(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const last = st.lastScheduleTime === undefined ? '<none>' : since(st.lastScheduleTime, now);
  const suspend = typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>';
  const active = array(st.active).length;
  const jobSpec = record(record(spec.jobTemplate).spec);
  const [containers, images] = containerCells(record(record(jobSpec.template).spec));
  const suspended = spec.suspend === true;
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['SCHEDULE', str(spec.schedule)],
      ['TIMEZONE', str(spec.timeZone) || '<none>'],
      ['SUSPEND', suspend],
      ['ACTIVE', String(active)],
      ['LAST SCHEDULE', last],
      ['AGE', age(obj, now)],
    ],
    {
      summary: [suspended ? 'Suspended' : '', str(spec.schedule), active > 0 ? `${active} active` : '', last === '<none>' ? 'never run' : `last ${last} ago`, ageField(obj, now)],
      health: suspended ? { icon: 'stop-circle', tone: 'idle' } : active > 0 ? { icon: 'sync', tone: 'busy' } : { icon: 'watch', tone: 'neutral' },
    },
    [
      ['CONTAINERS', containers],
      ['IMAGES', images],
      ['SELECTOR', formatSelector(jobSpec.selector)],
    ],
  );
}
