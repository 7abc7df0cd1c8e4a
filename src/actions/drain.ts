import type { KubeObject, KubeTransport } from '../informer';
import { fieldManager, watchedOf, type ActionPlan, type PlannedWrite } from './action-plan';
import { objectPath, targetTitle, type ActionTarget } from './action-target';
import { kubectl } from './kubectl-command';
import { planCordon } from './node-actions';

/**
 * `kubectl drain NODE`, as kubectl's drain helper does it (pkg/drain): cordon the node, then
 * evict each of its Pods through `pods/NAME/eviction`, so PodDisruptionBudgets decide (a 429 is
 * retried every 5 s until the budget allows it or the drain is cancelled), then wait until each
 * is gone (GET every second); the run is in drain-run.ts. Which Pods go follows kubectl's filters, in kubectl's words:
 * DaemonSet Pods stop the drain unless ignored (then they stay), mirror Pods stay, Pods with
 * emptyDir data and Pods no controller owns stop it unless allowed; finished Pods always go.
 */

export interface DrainOptions {
  /** `--ignore-daemonsets`: DaemonSet Pods stay (their controller would bring them back anyway). */
  ignoreDaemonSets: boolean;
  /** `--delete-emptydir-data`: Pods with emptyDir volumes go, and their data with them. */
  deleteEmptyDirData: boolean;
  /** `--force`: Pods no controller owns go, and nothing brings them back. */
  force: boolean;
  /** `--grace-period`: seconds each Pod gets; undefined: its own. */
  gracePeriodSeconds?: number;
}

/** One Pod on the node and what the drain does with it. */
export interface DrainPod {
  readonly pod: KubeObject;
  readonly evict: boolean;
  /** kubectl's words when it stays or needs an option ("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"). */
  readonly note?: string;
  /** It stops the drain until an option allows it. */
  readonly blocks: boolean;
}

const DAEMON_SET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const DAEMON_SET_WARNING = 'ignoring DaemonSet-managed Pods';
const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
const UNMANAGED_FATAL = 'cannot delete Pods that declare no controller (use --force to override)';
const UNMANAGED_WARNING = 'deleting Pods that declare no controller';
const MIRROR = 'kubernetes.io/config.mirror';
/** kubectl waits this long before it asks a budget again. */
export const EVICTION_RETRY_MS = 5000;
/** kubectl looks whether an evicted Pod is gone this often. */
export const GONE_POLL_MS = 1000;

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** The Pods on the node (GET /api/v1/pods?fieldSelector=spec.nodeName=NODE, as kubectl lists them). */
export async function podsOnNode(transport: Pick<KubeTransport, 'list'>, node: string, signal: AbortSignal): Promise<KubeObject[]> {
  const list = await transport.list('/api/v1/pods', { fieldSelector: `spec.nodeName=${node}` }, signal);
  return (list.items ?? []) as KubeObject[];
}

/**
 * kubectl's filters, in its order: DaemonSet, mirror, local storage, unreplicated. `daemonSetExists`
 * answers whether a Pod's DaemonSet is still there (kubectl GETs it).
 */
export async function drainFilter(pods: readonly KubeObject[], options: DrainOptions, daemonSetExists: (namespace: string, name: string) => Promise<boolean>): Promise<DrainPod[]> {
  const out: DrainPod[] = [];
  for (const pod of pods) {
    const phase = rec(pod.status).phase;
    const finished = phase === 'Succeeded' || phase === 'Failed';
    const controller = ((pod.metadata.ownerReferences as { kind?: string; name?: string; controller?: boolean }[] | undefined) ?? []).find((r) => r.controller);
    let result: DrainPod = { pod, evict: true, blocks: false };
    if (controller?.kind === 'DaemonSet' && !finished) {
      const exists = await daemonSetExists(pod.metadata.namespace ?? '', controller.name ?? '');
      if (!exists) result = options.force ? { pod, evict: true, blocks: false, note: `daemonsets.apps "${controller.name}" not found` } : { pod, evict: false, blocks: true, note: `daemonsets.apps "${controller.name}" not found` };
      else result = options.ignoreDaemonSets ? { pod, evict: false, blocks: false, note: DAEMON_SET_WARNING } : { pod, evict: false, blocks: true, note: DAEMON_SET_FATAL };
      out.push(result);
      continue;
    }
    if (pod.metadata.annotations?.[MIRROR] !== undefined) {
      out.push({ pod, evict: false, blocks: false, note: 'a mirror Pod (its kubelet owns it)' });
      continue;
    }
    const emptyDir = ((rec(pod.spec).volumes as { emptyDir?: unknown }[] | undefined) ?? []).some((v) => v.emptyDir !== undefined);
    if (emptyDir && !finished) {
      if (!options.deleteEmptyDirData) {
        out.push({ pod, evict: false, blocks: true, note: LOCAL_STORAGE_FATAL });
        continue;
      }
      result = { pod, evict: true, blocks: false, note: LOCAL_STORAGE_WARNING };
    }
    if (!finished && !controller) {
      out.push(options.force ? { pod, evict: true, blocks: false, note: UNMANAGED_WARNING } : { pod, evict: false, blocks: true, note: UNMANAGED_FATAL });
      continue;
    }
    out.push(result);
  }
  return out;
}

/** The drain as a plan for its confirmation: the cordon, then the evictions; `blocked` when an option is missing. */
export function planDrain(target: ActionTarget, pods: readonly DrainPod[], options: DrainOptions): ActionPlan & { blocked: string[] } {
  const evicted = pods.filter((p) => p.evict);
  // kubectl's errors(): one line per reason, "cannot delete" once.
  const blocked = [...new Set(pods.filter((p) => p.blocks).map((p) => p.note ?? ''))].map((note) => {
    const which = pods.filter((p) => p.blocks && p.note === note).map((p) => podLabel(p.pod)).join(', ');
    return note.toLowerCase().startsWith('cannot delete') ? `${note}: ${which}` : `cannot delete ${note}: ${which}`;
  });
  const staying = pods.filter((p) => !p.evict && !p.blocks);
  const flags = [options.ignoreDaemonSets ? '--ignore-daemonsets' : '', options.deleteEmptyDirData ? '--delete-emptydir-data' : '', options.force ? '--force' : '', options.gracePeriodSeconds !== undefined ? `--grace-period=${options.gracePeriodSeconds}` : ''].filter(Boolean);
  const lines = [
    `Cordons node ${target.name} (no new Pod is placed on it), then evicts ${evicted.length} Pod${evicted.length === 1 ? '' : 's'} through the eviction API, so PodDisruptionBudgets decide: an eviction a budget refuses is retried every 5 s until it allows it or you cancel. Pods placed on it meanwhile are evicted too.`,
    evicted.length > 0 ? `Evicted: ${evicted.map((p) => podLabel(p.pod) + (p.note ? ` (${p.note})` : '')).join(', ')}.` : 'No Pod needs to go.',
    staying.length > 0 ? `Staying: ${staying.map((p) => `${podLabel(p.pod)} (${p.note ?? ''})`).join(', ')}.` : '',
    blocked.length > 0 ? `The drain cannot go on: ${blocked.join('; ')}.` : 'The node stays cordoned afterwards: uncordon it when it is back in service.',
  ].filter(Boolean);
  return {
    action: 'drain',
    target,
    title: `Drain node ${target.name}?`,
    detail: lines.join(' '),
    button: 'Drain',
    reversible: false,
    kubectl: kubectl(undefined, 'drain', target.name, ...flags, ...(target.context ? ['--context', target.context] : [])),
    verb: 'drain',
    summary: `${evicted.length} pods`,
    // The run reads the Node fresh and cordons it unless that read says it is cordoned (W08).
    writes: planCordon(target, true).writes,
    blocked,
  };
}

function podLabel(pod: KubeObject): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/**
 * The eviction of one Pod (policy/v1) with its uid as precondition (W02: a Pod re-created under
 * the name is not evicted: 409), journaled as a write confirmed by the Pod going.
 */
export function evictionWrite(target: ActionTarget, pod: KubeObject, options: DrainOptions): PlannedWrite {
  const namespace = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  const pods = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
  const uid = pod.metadata.uid;
  const deleteOptions = { ...(options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {}), ...(uid ? { preconditions: { uid } } : {}) };
  const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, ...(Object.keys(deleteOptions).length > 0 ? { deleteOptions } : {}) };
  const podTarget = { type: pods, namespace, name };
  return {
    request: { method: 'POST', path: objectPath({ type: pods, namespace, name }, 'eviction'), query: { fieldManager: fieldManager() }, body: JSON.stringify(body) },
    access: { verb: 'create', group: '', resource: 'pods', subresource: 'eviction', namespace, name },
    watched: { ...watchedOf(target), group: '', resource: 'pods', namespace, name, uid },
    confirm: 'deletion',
    plannedOn: { uid, title: targetTitle(podTarget), path: objectPath(podTarget) },
  };
}
