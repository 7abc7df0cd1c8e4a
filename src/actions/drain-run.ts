import { AbortedError, ApiError, sleep, systemClock, type Clock } from '../base';
import type { KubeObject, KubeTransport } from '../informer';
import type { ActionPlan } from './action-plan';
import { sendWrite, type ActionSession, type WriteResult } from './action-runner';
import { objectPath, type ActionTarget } from './action-target';
import { EVICTION_RETRY_MS, GONE_POLL_MS, drainFilter, evictionWrite, podsOnNode, type DrainOptions, type DrainPod } from './drain';
import { isCordoned, planCordon } from './node-actions';

/**
 * Running a drain so that it acts on the node as it is, not as the cache showed it (W08): the
 * Node is read fresh and cordoned unless that read says it is (a cached "cordoned" never skips
 * it); only then are its Pods listed fresh (fieldSelector spec.nodeName) and evicted; then they
 * are listed again, and Pods placed on it meanwhile are evicted too, for a bounded number of
 * rounds. The node is "drained" only when a fresh list holds no Pod the options let go and none
 * that stops the drain; whatever is left is named.
 */

/** What a drain did, for the words the user reads. */
export interface DrainResult {
  /** A fresh list of the node's Pods, after the evictions, holds nothing that had to go. */
  readonly drained: boolean;
  /** The cordon: sent now, or the fresh read showed the node cordoned already; absent when it failed. */
  readonly cordon?: 'sent' | 'already';
  /** `ns/name` of each Pod evicted and gone. */
  readonly evicted: string[];
  /** `ns/name: words` of each eviction or step that failed. */
  readonly failures: string[];
  /** Pods still on the node that had to go or stop the drain, with why (`ns/name (placed on it during the drain; …)`). */
  readonly remaining: string[];
}

export interface DrainProgress {
  readonly pod: string;
  readonly state: 'cordoned' | 'listed' | 'evicting' | 'blocked' | 'terminating' | 'gone' | 'failed';
  readonly words: string;
}

export interface DrainSession extends ActionSession {
  /** Fresh reads: the Node, the Pods on it, a DaemonSet, an evicted Pod until it is gone. */
  readonly reader: Pick<KubeTransport, 'getJson' | 'list'>;
}

/** Rounds of list-then-evict before the drain names what keeps arriving instead of evicting it. */
export const DRAIN_ROUNDS = 5;
/** Tries at the cordon when the Node moves between its read and the patch. */
const CORDON_TRIES = 3;

/**
 * Runs a drain: the cordon against a fresh read, then rounds of a fresh list and every eviction
 * at once (each retried on 429 until the budget allows it, then waited for until gone), until a
 * fresh list holds nothing to evict. Rejects with AbortedError when cancelled (the node stays
 * cordoned, as with kubectl).
 */
export async function runDrain(plan: ActionPlan, options: DrainOptions, session: DrainSession, signal: AbortSignal, progress: (p: DrainProgress) => void, clock: Clock = systemClock, rounds = DRAIN_ROUNDS): Promise<DrainResult> {
  const cordon = await cordonFresh(plan.target, session, signal);
  if (cordon.failure) return { drained: false, evicted: [], failures: [`cordon: ${cordon.failure}`], remaining: [] };
  progress({ pod: '', state: 'cordoned', words: cordon.state === 'already' ? `node ${plan.target.name} is cordoned already` : `node ${plan.target.name} cordoned` });
  const evicted: string[] = [];
  const failures: string[] = [];
  const firstSeen = new Set<string>();
  for (let round = 1; ; round++) {
    const pods = await listFiltered(plan.target.name, options, session.reader, signal);
    if (round === 1) for (const p of pods) firstSeen.add(p.pod.metadata.uid ?? '');
    const toEvict = pods.filter((p) => p.evict);
    const blocking = pods.filter((p) => p.blocks);
    progress({ pod: '', state: 'listed', words: `${toEvict.length} Pod${toEvict.length === 1 ? '' : 's'} to evict on node ${plan.target.name}${round > 1 ? ` (round ${round})` : ''}` });
    if (toEvict.length === 0 || failures.length > 0 || round > rounds) {
      const remaining = [...toEvict, ...blocking].map((p) => remainingWords(p, firstSeen, failures.length === 0 && round > rounds));
      return { drained: remaining.length === 0 && failures.length === 0, cordon: cordon.state, evicted, failures, remaining };
    }
    await Promise.all(
      toEvict.map(async (p) => {
        const failed = await evictAndWait(plan, p.pod, options, session, signal, progress, clock);
        if (failed) failures.push(failed);
        else evicted.push(podLabel(p.pod));
      }),
    );
  }
}

/** GET the Node; patch it unschedulable (its uid and the read's resourceVersion as preconditions) unless the read says it is. */
async function cordonFresh(target: ActionTarget, session: DrainSession, signal: AbortSignal): Promise<{ state?: 'sent' | 'already'; failure?: string }> {
  for (let attempt = 1; ; attempt++) {
    let node: KubeObject;
    try {
      node = await session.reader.getJson<KubeObject>(objectPath(target), {}, signal);
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      return { failure: err instanceof ApiError && err.code === 404 ? `node ${target.name} is no longer on the server` : `node ${target.name} could not be read: ${err instanceof Error ? err.message : String(err)}` };
    }
    const seenUid = target.object.metadata.uid;
    if (seenUid && node.metadata.uid !== seenUid) return { failure: `node ${target.name} was deleted and re-created since it was shown (uid ${seenUid} → ${node.metadata.uid ?? '?'}): nothing was written` };
    const fresh: ActionTarget = { ...target, object: node };
    if (isCordoned(fresh)) return { state: 'already' };
    const result: WriteResult = await sendWrite(planCordon(fresh, true).writes[0], { verb: 'cordon', summary: '' }, session, signal);
    if (result.ok) return { state: 'sent' };
    if (!result.moved || attempt >= CORDON_TRIES) return { failure: result.words };
  }
}

async function listFiltered(node: string, options: DrainOptions, reader: DrainSession['reader'], signal: AbortSignal): Promise<DrainPod[]> {
  return drainFilter(await podsOnNode(reader, node, signal), options, daemonSetExistsOn(reader, signal));
}

/** Whether a DaemonSet exists, read fresh (kubectl's drain keeps a Pod whose DaemonSet is gone from the DaemonSet rule). */
export function daemonSetExistsOn(reader: DrainSession['reader'], signal: AbortSignal): (namespace: string, name: string) => Promise<boolean> {
  return async (namespace, name) => {
    try {
      await reader.getJson(`/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/daemonsets/${encodeURIComponent(name)}`, {}, signal);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  };
}

/** One Pod: evicted (429 retried every 5 s), then polled until gone; the failure in words, or undefined. */
async function evictAndWait(plan: ActionPlan, pod: KubeObject, options: DrainOptions, session: DrainSession, signal: AbortSignal, progress: (p: DrainProgress) => void, clock: Clock): Promise<string | undefined> {
  const label = podLabel(pod);
  const write = evictionWrite(plan.target, pod, options);
  for (;;) {
    if (signal.aborted) throw new AbortedError('drain cancelled');
    progress({ pod: label, state: 'evicting', words: `evicting pod ${label}` });
    const result = await sendWrite(write, { verb: 'evict', summary: `drain ${plan.target.name}` }, session, signal);
    // Gone, or re-created under its name (uid precondition): the next fresh list shows the new one.
    if (result.ok || result.code === 404 || result.moved) break;
    if (result.code === 429) {
      progress({ pod: label, state: 'blocked', words: `${result.words} Retrying in 5 s.` });
      await sleep(clock, EVICTION_RETRY_MS, signal);
      continue;
    }
    progress({ pod: label, state: 'failed', words: result.words });
    return `${label}: ${result.words}`;
  }
  progress({ pod: label, state: 'terminating', words: `pod ${label} evicted, waiting until it is gone` });
  await waitGone(session.reader, pod, signal, clock);
  progress({ pod: label, state: 'gone', words: `pod ${label} is gone` });
  return undefined;
}

/** Polls the Pod until it is gone or another Pod has its name (kubectl's waitForDelete). */
async function waitGone(reader: Pick<KubeTransport, 'getJson'>, pod: KubeObject, signal: AbortSignal, clock: Clock): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace ?? '')}/pods/${encodeURIComponent(pod.metadata.name ?? '')}`;
  for (;;) {
    try {
      const now = await reader.getJson<KubeObject>(path, {}, signal);
      if (now.metadata.uid !== pod.metadata.uid) return;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      if (err instanceof AbortedError) throw err;
    }
    await sleep(clock, GONE_POLL_MS, signal);
  }
}

/** The result as the user reads it: "Node n1 is drained: …" or "Node n1 is not drained: …". */
export function drainResultWords(node: string, result: DrainResult): string {
  const count = (n: number) => `${n} Pod${n === 1 ? '' : 's'}`;
  const cordon = result.cordon === 'already' ? 'it was cordoned already' : result.cordon === 'sent' ? 'it was cordoned first' : 'it could not be cordoned';
  if (result.drained) return `Node ${node} is drained: ${count(result.evicted.length)} evicted (${cordon}), and a fresh list of its Pods shows none left to evict. It stays cordoned until you uncordon it.`;
  const parts = [`Node ${node} is not drained (${cordon}).`];
  if (result.evicted.length > 0) parts.push(`Evicted: ${result.evicted.join(', ')}.`);
  if (result.failures.length > 0) parts.push(`Failed: ${result.failures.join('; ')}.`);
  if (result.remaining.length > 0) parts.push(`Still on it: ${result.remaining.join(', ')}.`);
  return parts.join(' ');
}

function remainingWords(p: DrainPod, firstSeen: ReadonlySet<string>, keptArriving: boolean): string {
  const why = [firstSeen.has(p.pod.metadata.uid ?? '') ? '' : 'placed on it during the drain', p.blocks ? (p.note ?? '') : keptArriving ? 'Pods kept arriving faster than the drain evicted them' : 'not evicted'].filter(Boolean);
  return `${podLabel(p.pod)} (${why.join('; ')})`;
}

function podLabel(pod: KubeObject): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}
