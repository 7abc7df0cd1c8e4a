import type { KubeObject } from '../../informer';
import { humanDuration } from '../age';
import { age, ageField, condition, orNone, plural, record, records, str, int, time, type Json } from './cells';
import { row, type Health, type PrintedRow } from './printed-row';

/** Reasons kubectl's STATUS shows for a pod that is broken until something changes. */
const BROKEN = new Set([
  'Failed',
  'Error',
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'OOMKilled',
  'ContainerCannotRun',
  'DeadlineExceeded',
  'Evicted',
  'ContainerStatusUnknown',
  'Unknown',
  'NodeLost',
  'UnexpectedAdmissionError',
  'StartError',
]);

/** Reasons of a pod on its way to running. */
const ON_THE_WAY = new Set(['Pending', 'ContainerCreating', 'PodInitializing', 'SchedulingGated', 'NotReady']);

export interface PodReading {
  /** kubectl's STATUS. */
  reason: string;
  ready: number;
  total: number;
  restarts: number;
  /** When the last restart's container terminated, if known. */
  lastRestart?: number;
}

/**
 * kubectl's READY, STATUS and RESTARTS of a pod (printPod in pkg/printers/internalversion):
 * the phase or `status.reason`, overridden by init containers still running or failed
 * (`Init:1/2`, `Init:CrashLoopBackOff`), then by the containers' waiting or terminated reasons
 * (the first container's wins), "Completed" turned back into Running/NotReady while a container
 * runs, and Terminating (or Unknown on a lost node) once deleted. Sidecars (restartable init
 * containers) count in READY, and only their restarts count while the pod initialises.
 */
export function readPod(obj: KubeObject): PodReading {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const phase = str(st.phase);
  let reason = str(st.reason) || phase;
  for (const c of records(st.conditions)) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';

  const initSpecs = records(spec.initContainers);
  const sidecars = new Set(initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)));
  const total = records(spec.containers).length + sidecars.size;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;
  const later = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));

  let initializing = false;
  const initStatuses = records(st.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    const state = record(c.state);
    const terminated = state.terminated === undefined ? undefined : record(state.terminated);
    const waiting = state.waiting === undefined ? undefined : record(state.waiting);
    const finished = time(record(record(c.lastState).terminated).finishedAt);
    restarts += int(c.restartCount);
    lastRestart = later(lastRestart, finished);
    const sidecar = sidecars.has(str(c.name));
    if (sidecar) {
      sidecarRestarts += int(c.restartCount);
      lastSidecarRestart = later(lastSidecarRestart, finished);
    }
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated) {
      reason = str(terminated.reason)
        ? `Init:${str(terminated.reason)}`
        : int(terminated.signal) !== 0
          ? `Init:Signal:${int(terminated.signal)}`
          : `Init:ExitCode:${int(terminated.exitCode)}`;
    } else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || condition(st, 'Initialized')?.status === 'True') {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = records(st.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      const state = record(c.state);
      const terminated = state.terminated === undefined ? undefined : record(state.terminated);
      const waiting = state.waiting === undefined ? undefined : record(state.waiting);
      restarts += int(c.restartCount);
      lastRestart = later(lastRestart, time(record(record(c.lastState).terminated).finishedAt));
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated && str(terminated.reason)) reason = str(terminated.reason);
      else if (terminated) reason = int(terminated.signal) !== 0 ? `Signal:${int(terminated.signal)}` : `ExitCode:${int(terminated.exitCode)}`;
      else if (c.ready === true && state.running !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = condition(st, 'Ready')?.status === 'True' ? 'Running' : 'NotReady';
  }

  const deleted = typeof obj.metadata.deletionTimestamp === 'string' && obj.metadata.deletionTimestamp !== '';
  if (deleted && st.reason === 'NodeLost') reason = 'Unknown';
  else if (deleted && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  return { reason, ready, total, restarts, lastRestart };
}

/** kubectl's RESTARTS cell: `3`, or `3 (5m ago)` when the last restart's time is known. */
export function restartsCell(r: PodReading, now: number): string {
  return r.restarts !== 0 && r.lastRestart !== undefined ? `${r.restarts} (${humanDuration(now - r.lastRestart)} ago)` : String(r.restarts);
}

export function podHealth(r: PodReading): Health {
  const { reason } = r;
  if (reason === 'Running') return r.ready < r.total ? { icon: 'warning', tone: 'warning' } : { icon: 'pass', tone: 'ok' };
  if (reason === 'Completed' || reason === 'Succeeded') return { icon: 'pass', tone: 'idle' };
  if (reason === 'Terminating') return { icon: 'trash', tone: 'busy' };
  const initFailure = reason.startsWith('Init:') && /Error|BackOff|ExitCode|Signal|Err|OOMKilled/.test(reason);
  if (BROKEN.has(reason) || initFailure || reason.startsWith('Signal:') || reason.startsWith('ExitCode:')) return { icon: 'error', tone: 'error' };
  if (ON_THE_WAY.has(reason) || reason.startsWith('Init:')) return { icon: 'clock', tone: 'busy' };
  return { icon: 'warning', tone: 'warning' };
}

/** kubectl's columns of a pod: the default ones, then the wide ones. */
function podColumns(obj: KubeObject, r: PodReading, now: number): { columns: [string, string][]; wide: [string, string][] } {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const ip = str(record(records(st.podIPs)[0]).ip) || str(st.podIP);
  const gates = records(spec.readinessGates);
  const gatesCell = gates.length === 0 ? '<none>' : `${gates.filter((g) => condition(st, str(g.conditionType))?.status === 'True').length}/${gates.length}`;
  return {
    columns: [
      ['NAME', obj.metadata.name ?? ''],
      ['READY', `${r.ready}/${r.total}`],
      ['STATUS', r.reason],
      ['RESTARTS', restartsCell(r, now)],
      ['AGE', age(obj, now)],
    ],
    wide: [
      ['IP', orNone(ip)],
      ['NODE', orNone(str(spec.nodeName))],
      ['NOMINATED NODE', orNone(str(st.nominatedNodeName))],
      ['READINESS GATES', gatesCell],
    ],
  };
}

/**
 * A pod's cells alone, as `printPod` prints them (wide ones included), without the tree's
 * summary, health and notes: the table prints 100,000 pods and reads only these (PERF B15).
 */
export function podCells(obj: KubeObject, now: number): string[] {
  const { columns, wide } = podColumns(obj, readPod(obj), now);
  return [...columns, ...wide].map(([, text]) => text);
}

/**
 * Pods: NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES.
 * Description: "CrashLoopBackOff 0/1 · 6 restarts (2m ago) · 3d" (restarts only when some).
 */
export function printPod(obj: KubeObject, now: number): PrintedRow {
  const r = readPod(obj);
  const spec = record(obj.spec);
  const st = record(obj.status);
  const { columns, wide } = podColumns(obj, r, now);
  const restartField =
    r.restarts === 0 ? '' : `${plural(r.restarts, 'restart')}${r.lastRestart !== undefined ? ` (${humanDuration(now - r.lastRestart)} ago)` : ''}`;
  return row(columns, { summary: [r.reason, `${r.ready}/${r.total}`, restartField, ageField(obj, now)], health: podHealth(r), notes: [...podNotes(st), ...ephemeralNotes(spec, st)] }, wide);
}

/** The pod's own message (an eviction's, say), and the first waiting or terminated container's. */
function podNotes(st: Json): string[] {
  const notes: string[] = [];
  if (str(st.message)) notes.push(str(st.message));
  for (const c of [...records(st.initContainerStatuses), ...records(st.containerStatuses)]) {
    const state = record(c.state);
    const detail = record(state.waiting ?? state.terminated);
    if (str(detail.message)) {
      notes.push(`${str(c.name)}: ${str(detail.message)}`);
      break;
    }
  }
  return notes;
}

/**
 * One line per ephemeral container (a Debug Pod… session's, `kubectl debug`'s), as kubectl
 * describe lists them under "Ephemeral Containers": its image, its target, and its state from
 * `status.ephemeralContainerStatuses` (`not started yet` while the kubelet has not reported it).
 * They never count in READY, so the tooltip is where the row says they are there.
 */
export function ephemeralNotes(spec: Json, st: Json): string[] {
  const statuses = records(st.ephemeralContainerStatuses);
  return records(spec.ephemeralContainers).map((c) => {
    const name = str(c.name);
    const about = [str(c.image) && `image ${str(c.image)}`, str(c.targetContainerName) && `target ${str(c.targetContainerName)}`].filter(Boolean).join(', ');
    const status = statuses.find((s) => str(s.name) === name);
    return `ephemeral container ${name}${about ? ` (${about})` : ''}: ${status ? containerStateText(record(status.state)) : 'not started yet'}`;
  });
}

/** A container's state as kubectl describe words it: `Running since …`, `Waiting (ContainerCreating)`, `Terminated (Completed, exit code 0)`. */
function containerStateText(state: Json): string {
  if (state.running !== undefined) {
    const started = str(record(state.running).startedAt);
    return started ? `Running since ${started}` : 'Running';
  }
  if (state.terminated !== undefined) {
    const t = record(state.terminated);
    return `Terminated (${[str(t.reason), `exit code ${int(t.exitCode)}`].filter(Boolean).join(', ')})`;
  }
  if (state.waiting !== undefined) {
    const w = record(state.waiting);
    return str(w.reason) ? `Waiting (${str(w.reason)})` : 'Waiting';
  }
  return 'state not reported';
}
