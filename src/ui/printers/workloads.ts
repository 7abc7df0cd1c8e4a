import type { KubeObject } from '../../informer';
import { age, ageField, condition, containerCells, formatLabels, formatSelector, int, record, str, type Json } from './cells';
import { row, type Health, type PrintedRow } from './printed-row';

function deleting(obj: KubeObject): boolean {
  return typeof obj.metadata.deletionTimestamp === 'string' && obj.metadata.deletionTimestamp !== '';
}

/** `Progressing=False ProgressDeadlineExceeded: message`, for the tooltip. */
function conditionNote(c: Json | undefined): string[] {
  if (!c) return [];
  const why = [str(c.reason), str(c.message)].filter((s) => s !== '').join(': ');
  return [`${str(c.type)}=${str(c.status)}${why ? ` ${why}` : ''}`];
}

export interface DeploymentReading {
  /** '' when the Deployment is where it should be; else Terminating, Stuck, ReplicaFailure, Paused, Progressing. */
  status: string;
  health: Health;
  notes: string[];
}

/**
 * Where a Deployment is: stuck once its controller gave up (`Progressing=False`, reason
 * ProgressDeadlineExceeded, set when `progressDeadlineSeconds` passed without progress), failing
 * when a ReplicaSet cannot create Pods, paused, progressing while a rollout is under way (replicas
 * not all updated, the newest spec not yet observed, or the controller says so), degraded
 * (yellow, no status word) when rolled out with replicas not ready, else settled.
 */
export function readDeployment(obj: KubeObject): DeploymentReading {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const desired = int(spec.replicas, 1);
  const progressing = condition(st, 'Progressing');
  const failure = condition(st, 'ReplicaFailure');
  if (deleting(obj)) return { status: 'Terminating', health: { icon: 'trash', tone: 'busy' }, notes: [] };
  if (progressing?.status === 'False') {
    const stuck = progressing.reason === 'ProgressDeadlineExceeded';
    return { status: stuck ? 'Stuck' : str(progressing.reason) || 'Failed', health: { icon: 'error', tone: 'error' }, notes: conditionNote(progressing) };
  }
  if (failure?.status === 'True') return { status: 'ReplicaFailure', health: { icon: 'error', tone: 'error' }, notes: conditionNote(failure) };
  if (spec.paused === true) return { status: 'Paused', health: { icon: 'stop-circle', tone: 'idle' }, notes: [] };
  const observed = int(st.observedGeneration, int(obj.metadata.generation)) >= int(obj.metadata.generation);
  const rolling = !observed || int(st.updatedReplicas) < desired || ROLLING_REASONS.has(str(progressing?.reason));
  const ready = int(st.readyReplicas) >= desired && int(st.availableReplicas) >= desired;
  if (ready && !rolling) return { status: '', health: desired === 0 ? { icon: 'circle-slash', tone: 'idle' } : { icon: 'pass', tone: 'ok' }, notes: [] };
  if (rolling) return { status: 'Progressing', health: { icon: 'clock', tone: 'busy' }, notes: conditionNote(progressing) };
  // Rolled out, but some replicas are not ready (a readiness probe failing): degraded, not progressing.
  return { status: '', health: { icon: 'warning', tone: 'warning' }, notes: conditionNote(condition(st, 'Available')) };
}

/** Progressing=True reasons of a rollout under way (the controller's NewReplicaSetAvailable means done). */
const ROLLING_REASONS = new Set(['NewReplicaSetCreated', 'FoundNewReplicaSet', 'ReplicaSetUpdated']);

/** Deployments: NAME READY UP-TO-DATE AVAILABLE AGE. Description: "Stuck 1/2 ready · 1 up-to-date · 1 available · 12m". */
export function printDeployment(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const ready = `${int(st.readyReplicas)}/${int(spec.replicas, 1)}`;
  const d = readDeployment(obj);
  const [containers, images] = containerCells(record(record(spec.template).spec));
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['READY', ready],
      ['UP-TO-DATE', String(int(st.updatedReplicas))],
      ['AVAILABLE', String(int(st.availableReplicas))],
      ['AGE', age(obj, now)],
    ],
    {
      summary: [`${d.status ? `${d.status} ` : ''}${ready} ready`, `${int(st.updatedReplicas)} up-to-date`, `${int(st.availableReplicas)} available`, ageField(obj, now)],
      health: d.health,
      notes: d.notes,
    },
    [
      ['CONTAINERS', containers],
      ['IMAGES', images],
      ['SELECTOR', formatSelector(spec.selector)],
    ],
  );
}

/** Ready against desired: settled, scaled to 0, or on the way; Terminating once deleted. */
function replicaHealth(obj: KubeObject, ready: number, desired: number, failed?: Json): { status: string; health: Health; notes: string[] } {
  if (deleting(obj)) return { status: 'Terminating', health: { icon: 'trash', tone: 'busy' }, notes: [] };
  if (failed?.status === 'True') return { status: 'ReplicaFailure', health: { icon: 'error', tone: 'error' }, notes: conditionNote(failed) };
  if (desired === 0) return { status: '', health: { icon: 'circle-slash', tone: 'idle' }, notes: [] };
  if (ready >= desired) return { status: '', health: { icon: 'pass', tone: 'ok' }, notes: [] };
  return { status: '', health: { icon: 'clock', tone: 'busy' }, notes: [] };
}

/** ReplicaSets: NAME DESIRED CURRENT READY AGE. Description: "1/2 ready · 2 current · 5m". */
export function printReplicaSet(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const desired = int(spec.replicas, 1);
  const ready = int(st.readyReplicas);
  const h = replicaHealth(obj, ready, desired, condition(st, 'ReplicaFailure'));
  const [containers, images] = containerCells(record(record(spec.template).spec));
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['DESIRED', String(desired)],
      ['CURRENT', String(int(st.replicas))],
      ['READY', String(ready)],
      ['AGE', age(obj, now)],
    ],
    { summary: [`${h.status ? `${h.status} ` : ''}${ready}/${desired} ready`, `${int(st.replicas)} current`, ageField(obj, now)], health: h.health, notes: h.notes },
    [
      ['CONTAINERS', containers],
      ['IMAGES', images],
      ['SELECTOR', formatSelector(spec.selector)],
    ],
  );
}

/** StatefulSets: NAME READY AGE. Description: "2/3 ready · 4d". */
export function printStatefulSet(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const desired = int(spec.replicas, 1);
  const ready = int(st.readyReplicas);
  const h = replicaHealth(obj, ready, desired);
  const [containers, images] = containerCells(record(record(spec.template).spec));
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['READY', `${ready}/${desired}`],
      ['AGE', age(obj, now)],
    ],
    { summary: [`${h.status ? `${h.status} ` : ''}${ready}/${desired} ready`, ageField(obj, now)], health: h.health, notes: h.notes },
    [
      ['CONTAINERS', containers],
      ['IMAGES', images],
    ],
  );
}

/** DaemonSets: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE. Description: "3/3 ready · 3 up-to-date · 3 available · 9d". */
export function printDaemonSet(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const desired = int(st.desiredNumberScheduled);
  const ready = int(st.numberReady);
  const h = replicaHealth(obj, Math.min(ready, int(st.numberAvailable)), desired);
  const podSpec = record(record(spec.template).spec);
  const [containers, images] = containerCells(podSpec);
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['DESIRED', String(desired)],
      ['CURRENT', String(int(st.currentNumberScheduled))],
      ['READY', String(ready)],
      ['UP-TO-DATE', String(int(st.updatedNumberScheduled))],
      ['AVAILABLE', String(int(st.numberAvailable))],
      ['NODE SELECTOR', formatLabels(podSpec.nodeSelector)],
      ['AGE', age(obj, now)],
    ],
    {
      summary: [`${h.status ? `${h.status} ` : ''}${ready}/${desired} ready`, `${int(st.updatedNumberScheduled)} up-to-date`, `${int(st.numberAvailable)} available`, ageField(obj, now)],
      health: h.health,
      notes: h.notes,
    },
    [
      ['CONTAINERS', containers],
      ['IMAGES', images],
      ['SELECTOR', formatSelector(spec.selector)],
    ],
  );
}
