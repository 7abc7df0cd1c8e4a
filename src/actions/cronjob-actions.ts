import { fieldManager, metadataPreconditions, plannedOn, watchedOf, type ActionPlan } from './action-plan';
import { accessOf, collectionOf, kubectlObject, objectPath, targetTitle, type ActionTarget } from './action-target';
import { kubectl } from './kubectl-command';

/**
 * A CronJob's actions: suspend and resume (a merge patch of `spec.suspend`, what `kubectl patch
 * cronjob/NAME -p '{"spec":{"suspend":true}}'` does), and a Job made from it now, exactly as
 * `kubectl create job NAME --from=cronjob/CRONJOB` makes it (cmd/create/create_job.go): the job
 * template's labels and spec, its annotations plus `cronjob.kubernetes.io/instantiate: manual`,
 * and the CronJob as controlling owner (without blockOwnerDeletion). Suspend and resume carry the
 * CronJob's uid and the resourceVersion the plan was made on in the patch's metadata (W02, W09).
 */

export function isCronJob(target: Pick<ActionTarget, 'type'>): boolean {
  return target.type.group === 'batch' && target.type.resource === 'cronjobs';
}

export function isSuspended(target: Pick<ActionTarget, 'object'>): boolean {
  return (target.object.spec as { suspend?: unknown } | undefined)?.suspend === true;
}

export function planSuspend(target: ActionTarget, suspend: boolean): ActionPlan {
  const title = targetTitle(target);
  const patch = JSON.stringify({ spec: { suspend } });
  const body = JSON.stringify({ ...metadataPreconditions(plannedOn(target)), spec: { suspend } });
  const schedule = (target.object.spec as { schedule?: string } | undefined)?.schedule;
  return {
    action: suspend ? 'suspend' : 'resume',
    target,
    title: `${suspend ? 'Suspend' : 'Resume'} ${title}?`,
    detail: suspend
      ? `Sets spec.suspend of ${title} to true: it starts no new Job${schedule ? ` on its schedule (${schedule})` : ''}; Jobs already running go on. Resume it to undo.`
      : `Sets spec.suspend of ${title} to false: it starts Jobs on its schedule${schedule ? ` (${schedule})` : ''} again. Runs missed while suspended may start now, within its startingDeadlineSeconds.`,
    button: suspend ? 'Suspend' : 'Resume',
    reversible: true,
    kubectl: kubectl(target, 'patch', kubectlObject(target), '--type=merge', '-p', patch),
    verb: suspend ? 'suspend' : 'resume',
    summary: '',
    writes: [
      {
        request: { method: 'PATCH', path: objectPath(target), query: { fieldManager: fieldManager() }, body, contentType: 'application/merge-patch+json' },
        access: accessOf(target, 'patch'),
        watched: watchedOf(target),
        plannedOn: plannedOn(target),
      },
    ],
  };
}

/** A name for a manual run: `CRONJOB-manual-xxxxx`, short enough for the `job-name` label (63). */
export function manualJobName(cronJob: string, random: () => number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[Math.floor(random() * alphabet.length) % alphabet.length];
  return `${cronJob.slice(0, 63 - '-manual-'.length - suffix.length)}-manual-${suffix}`;
}

/** Why `name` cannot name a Job (a DNS-1123 subdomain that fits the `job-name` label), or undefined. */
export function jobNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a name is required';
  if (name.length > 63) return 'at most 63 characters (the job-name label holds it)';
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) return "lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";
  return undefined;
}

/** The Job `kubectl create job NAME --from=cronjob/CRONJOB` creates. */
export function jobFromCronJob(target: ActionTarget, name: string): Record<string, unknown> {
  const template = ((target.object.spec as { jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown } } | undefined)?.jobTemplate) ?? {};
  const annotations: Record<string, string> = { 'cronjob.kubernetes.io/instantiate': 'manual', ...(template.metadata?.annotations ?? {}) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: target.namespace,
      annotations,
      ...(template.metadata?.labels ? { labels: template.metadata.labels } : {}),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: target.name, uid: target.object.metadata.uid, controller: true }],
    },
    spec: template.spec ?? {},
  };
}

export function planCreateJob(target: ActionTarget, name: string): ActionPlan {
  const title = targetTitle(target);
  const job = jobFromCronJob(target, name);
  const jobs = { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true };
  return {
    action: 'createJob',
    target,
    title: `Create Job ${target.namespace}/${name} from ${title}?`,
    detail: `Creates Job ${name} in ${target.namespace} from the job template of ${title}, as kubectl create job --from does: it runs now, once, whatever the schedule and even while the CronJob is suspended. The CronJob owns it (its history limits and deletion apply to it).`,
    button: 'Create Job',
    reversible: false,
    kubectl: kubectl(target, 'create', 'job', name, `--from=${kubectlObject(target)}`),
    verb: 'create',
    summary: `job ${name}`,
    writes: [
      {
        request: { method: 'POST', path: collectionOf(jobs, target.namespace), query: { fieldManager: fieldManager() }, body: JSON.stringify(job) },
        access: { verb: 'create', group: 'batch', resource: 'jobs', namespace: target.namespace },
        watched: { context: target.context, group: 'batch', resource: 'jobs', namespace: target.namespace, name },
      },
    ],
  };
}
