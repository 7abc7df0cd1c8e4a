import type { KubeObject } from '../informer';
import { toneColor, type Tone } from './tree/tone';

/** How an object is doing, as a tree row shows it. */
export interface ObjectStatus {
  /** A short status, e.g. "Running 1/1", "CrashLoopBackOff 0/1 · 5 restarts", "3/3 available"; '' when the kind has none. */
  text: string;
  /** A codicon id. */
  icon: string;
  /** A theme colour id; absent for kinds without a health (ConfigMaps, Secrets, ...). */
  color?: string;
  tone: Tone;
}

/**
 * The status of an object of `kind` (taken from the resource type; list items may lack their
 * own `kind`). Pods follow kubectl's STATUS column; Deployments, StatefulSets, ReplicaSets and
 * DaemonSets compare available with desired replicas; every other kind, custom resources
 * included, gets a generic reading of `deletionTimestamp`, a `Ready` condition or `status.phase`.
 * Pure, O(size of the object's status), never throws on malformed objects.
 */
export function objectStatus(obj: KubeObject, kind: string | undefined = obj.kind): ObjectStatus {
  switch (kind) {
    case 'Pod':
      return podStatus(obj);
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return replicaStatus(obj, kind);
    case 'DaemonSet':
      return daemonSetStatus(obj);
    default:
      return genericStatus(obj, kind);
  }
}

function status(text: string, icon: string, tone: Tone): ObjectStatus {
  const color = toneColor(tone);
  return color ? { text, icon, color, tone } : { text, icon, tone };
}

// ---- Pod ------------------------------------------------------------------------------------

interface ContainerState {
  waiting?: { reason?: string };
  running?: { startedAt?: string };
  terminated?: { reason?: string; exitCode?: number; signal?: number };
}

interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  state?: ContainerState;
}

const POD_ERRORS = new Set([
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
]);

const POD_PROGRESS = new Set(['Pending', 'ContainerCreating', 'PodInitializing', 'Terminating', 'NotReady']);

/** kubectl's pod STATUS (printers.printPod, without sidecar subtleties), READY and RESTARTS. */
function podStatus(obj: KubeObject): ObjectStatus {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const containers = array(spec.containers);
  const initContainers = array(spec.initContainers);
  // Each element read as a record, so a malformed status never throws.
  const statuses: ContainerStatus[] = array(st.containerStatuses).map(record);
  const initStatuses: ContainerStatus[] = array(st.initContainerStatuses).map(record);
  const phase = typeof st.phase === 'string' ? st.phase : '';
  let reason = (typeof st.reason === 'string' && st.reason) || phase || 'Pending';
  let restarts = 0;
  let ready = 0;
  const total = containers.length || statuses.length;

  let initializing = false;
  for (let i = 0; i < initStatuses.length; i++) {
    const s = initStatuses[i];
    restarts += s.restartCount ?? 0;
    const t = s.state?.terminated;
    if (t && t.exitCode === 0) continue;
    initializing = true;
    if (t) reason = `Init:${t.reason || (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? '?'}`)}`;
    else if (s.state?.waiting?.reason && s.state.waiting.reason !== 'PodInitializing') reason = `Init:${s.state.waiting.reason}`;
    else reason = `Init:${i}/${initContainers.length || initStatuses.length}`;
    break;
  }

  if (!initializing) {
    let hasRunning = false;
    for (let i = statuses.length - 1; i >= 0; i--) {
      const s = statuses[i];
      restarts += s.restartCount ?? 0;
      const state = s.state ?? {};
      if (state.waiting?.reason) reason = state.waiting.reason;
      else if (state.terminated?.reason) reason = state.terminated.reason;
      else if (state.terminated) reason = state.terminated.signal ? `Signal:${state.terminated.signal}` : `ExitCode:${state.terminated.exitCode ?? '?'}`;
      else if (s.ready && state.running) {
        hasRunning = true;
        ready++;
      } else if (state.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = podReady(st) ? 'Running' : 'NotReady';
  }

  if (typeof obj.metadata.deletionTimestamp === 'string' && obj.metadata.deletionTimestamp) {
    reason = st.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  }

  const counts = total > 0 ? ` ${ready}/${total}` : '';
  const text = `${reason}${counts}${restarts > 0 ? ` · ${restarts} restart${restarts === 1 ? '' : 's'}` : ''}`;
  if (reason === 'Running') return total > 0 && ready < total ? status(text, 'warning', 'warning') : status(text, 'pass', 'ok');
  if (reason === 'Completed' || reason === 'Succeeded') return status(text, 'pass', 'idle');
  if (reason === 'Terminating') return status(text, 'trash', 'busy');
  const initFailure = reason.startsWith('Init:') && /Error|BackOff|ExitCode|Signal|Err/.test(reason);
  if (POD_ERRORS.has(reason) || initFailure || reason.startsWith('Signal:') || reason.startsWith('ExitCode:')) {
    return status(text, 'error', 'error');
  }
  if (POD_PROGRESS.has(reason) || reason.startsWith('Init:')) return status(text, 'clock', 'busy');
  return status(text, 'warning', 'warning');
}

function podReady(st: Record<string, unknown>): boolean {
  return array(st.conditions).some((c) => record(c).type === 'Ready' && record(c).status === 'True');
}

// ---- workloads ------------------------------------------------------------------------------

/** Deployment, StatefulSet, ReplicaSet: available (or ready) against desired replicas. */
function replicaStatus(obj: KubeObject, kind: string): ObjectStatus {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const desired = num(spec.replicas, 1);
  const available = kind === 'StatefulSet' ? num(st.availableReplicas, num(st.readyReplicas, 0)) : num(st.availableReplicas, 0);
  const updated = kind === 'ReplicaSet' ? desired : num(st.updatedReplicas, available);
  const text = `${available}/${desired} available`;
  if (obj.metadata.deletionTimestamp) return status(`Terminating · ${text}`, 'trash', 'busy');
  const failed = array(st.conditions).some((c) => {
    const cond = record(c);
    return (cond.type === 'Progressing' && cond.status === 'False') || (cond.type === 'ReplicaFailure' && cond.status === 'True');
  });
  if (failed) return status(text, 'error', 'error');
  if (desired === 0) return status('scaled to 0', 'circle-slash', 'idle');
  const generation = num(obj.metadata.generation, 0);
  const observed = num(st.observedGeneration, generation);
  if (available >= desired && updated >= desired && observed >= generation) return status(text, 'pass', 'ok');
  return status(text, 'clock', 'busy');
}

function daemonSetStatus(obj: KubeObject): ObjectStatus {
  const st = record(obj.status);
  const desired = num(st.desiredNumberScheduled, 0);
  const available = num(st.numberAvailable, 0);
  const text = `${available}/${desired} available`;
  if (obj.metadata.deletionTimestamp) return status(`Terminating · ${text}`, 'trash', 'busy');
  if (available >= desired) return status(text, 'pass', desired === 0 ? 'idle' : 'ok');
  return status(text, 'clock', 'busy');
}

// ---- everything else ------------------------------------------------------------------------

/** Icons for kinds without a health of their own. */
const KIND_ICONS: Record<string, string> = {
  ConfigMap: 'symbol-file',
  Secret: 'key',
  Service: 'plug',
  Namespace: 'symbol-namespace',
  Node: 'server',
  Event: 'bell',
  Ingress: 'globe',
  PersistentVolumeClaim: 'database',
  PersistentVolume: 'database',
  ServiceAccount: 'account',
  CustomResourceDefinition: 'symbol-class',
};

const GOOD_PHASES = new Set(['Active', 'Running', 'Bound', 'Ready', 'Available', 'Healthy', 'Succeeded', 'Complete', 'Completed']);
const BAD_PHASES = new Set(['Failed', 'Error', 'Lost', 'Unhealthy', 'Degraded']);

/** Terminating; else a `Ready` condition; else `status.phase`; else the kind's plain icon. */
function genericStatus(obj: KubeObject, kind: string | undefined): ObjectStatus {
  const plainIcon = (kind && KIND_ICONS[kind]) || 'symbol-object';
  if (obj.metadata.deletionTimestamp) return status('Terminating', 'trash', 'busy');
  const st = record(obj.status);
  if (kind === 'Event') {
    const type = (obj as { type?: unknown }).type;
    return type === 'Warning' ? status('Warning', 'bell', 'warning') : status('', 'bell', 'neutral');
  }
  const ready = array(st.conditions).map(record).find((c) => c.type === 'Ready');
  if (ready && typeof ready.status === 'string') {
    if (ready.status === 'True') return status('Ready', 'pass', 'ok');
    const why = typeof ready.reason === 'string' && ready.reason ? ready.reason : 'NotReady';
    return status(why, ready.status === 'False' ? 'error' : 'question', ready.status === 'False' ? 'error' : 'warning');
  }
  if (typeof st.phase === 'string' && st.phase) {
    if (GOOD_PHASES.has(st.phase)) return status(st.phase, plainIcon, 'neutral');
    if (BAD_PHASES.has(st.phase)) return status(st.phase, 'error', 'error');
    return status(st.phase, 'clock', 'busy');
  }
  return status('', plainIcon, 'neutral');
}

// ---- tolerant readers -----------------------------------------------------------------------

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
