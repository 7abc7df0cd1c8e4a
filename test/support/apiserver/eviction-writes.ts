/**
 * `POST pods/NAME/eviction` (policy/v1 Eviction), with PodDisruptionBudgets, as kube-apiserver
 * 1.34 answers it (transcript actions-1.34.md):
 * - a Pod that is not Running, or already terminating, is deleted whatever its budgets say;
 * - more than one budget selecting the Pod: 500;
 * - a budget whose status lags its generation: 429 "still being processed" (retry after 10 s);
 * - a budget with no disruption left: 429 "Cannot evict pod as it would violate the pod's
 *   disruption budget." with the budget's numbers;
 * - else the budget's `disruptionsAllowed` goes down by one, the Pod joins its `disruptedPods`
 *   (MODIFIED), and the Pod is deleted as DELETE with the Eviction's deleteOptions would: 201.
 * Here the disruption controller is always current: a budget's status is computed from the Pods
 * when an eviction asks (expected, healthy: Running and Ready, not terminating, not disrupted
 * already), unless the test set `status.observedGeneration` behind the generation on purpose.
 */
import type { KubeObjectJson } from './types';
import type { WriteCall, WriteServerParts } from './writes';
import type { ObjectDeleter } from './object-deleter';
import { deleteRequestFrom } from './delete-writes';
import { objectKey } from './store';
import { qualifiedName } from './resources';
import { kubeTime } from './object-meta';
import { failure } from './status';

const PDBS = 'poddisruptionbudgets.policy';

interface Budget {
  spec?: { minAvailable?: number | string; maxUnavailable?: number | string; selector?: LabelSelectorJson };
  status?: { observedGeneration?: number; disruptedPods?: Record<string, string> };
}

interface LabelSelectorJson {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function evictionWrites(deleter: ObjectDeleter): (call: WriteCall, server: WriteServerParts) => boolean {
  return (call, server) => {
    const { route, def } = call;
    if (route.subresource !== 'eviction' || !def || def.group !== '' || def.resource !== 'pods' || call.method !== 'POST') return false;
    if (route.namespace === undefined || route.name === undefined) return false;
    let eviction: { metadata?: { name?: string }; deleteOptions?: Record<string, unknown> };
    try {
      eviction = JSON.parse(call.body.toString('utf8') || '{}') as typeof eviction;
    } catch {
      call.reply(400, failure(400, 'BadRequest', 'the body of the request was in an unknown format'));
      return true;
    }
    if (eviction.metadata?.name !== undefined && eviction.metadata.name !== route.name) {
      call.reply(400, failure(400, 'BadRequest', 'name in URL does not match name in Eviction object'));
      return true;
    }
    const pod = server.store.peek(qualifiedName(def), objectKey(route.namespace, route.name));
    if (!pod) {
      call.reply(404, failure(404, 'NotFound', `pods "${route.name}" not found`, { name: route.name, kind: 'pods' }));
      return true;
    }
    const options = deleteRequestFrom(eviction.deleteOptions ?? {});
    if ('refused' in options) {
      call.reply(options.refused.code, options.refused);
      return true;
    }
    if (!pod.metadata.deletionTimestamp && isRunning(pod)) {
      const budgets = budgetsOf(server, pod);
      if (budgets.length > 1) {
        call.reply(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
        return true;
      }
      if (budgets.length === 1) {
        const refused = takeDisruption(server, budgets[0], pod);
        if (refused) {
          call.reply(429, refused);
          return true;
        }
      }
    }
    const outcome = deleter.delete(server, def, route.namespace, route.name, options);
    if (outcome.status !== 200) call.reply(outcome.status, outcome.body);
    else call.reply(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    return true;
  };
}

function isRunning(pod: KubeObjectJson): boolean {
  return (pod.status as { phase?: string } | undefined)?.phase === 'Running';
}

function isHealthy(pod: KubeObjectJson): boolean {
  const status = pod.status as { phase?: string; conditions?: { type: string; status: string }[] } | undefined;
  return !pod.metadata.deletionTimestamp && status?.phase === 'Running' && (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The budgets in the Pod's namespace whose selector matches it (none when the type is not served). */
function budgetsOf(server: WriteServerParts, pod: KubeObjectJson): { key: string; obj: KubeObjectJson }[] {
  const out: { key: string; obj: KubeObjectJson }[] = [];
  for (const [key, obj] of server.store.currentObjects(PDBS)) {
    if (obj.metadata.namespace !== pod.metadata.namespace) continue;
    const selector = (obj as Budget).spec?.selector;
    if (selector && selects(selector, pod.metadata.labels ?? {})) out.push({ key, obj });
  }
  return out;
}

function selects(selector: LabelSelectorJson, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const ok =
      e.operator === 'In' ? has && (e.values ?? []).includes(labels[e.key]) :
      e.operator === 'NotIn' ? !has || !(e.values ?? []).includes(labels[e.key]) :
      e.operator === 'Exists' ? has :
      e.operator === 'DoesNotExist' ? !has : false;
    if (!ok) return false;
  }
  return true;
}

/** An int or a percentage of `total`, as intstr.GetScaledValueFromIntOrPercent rounds it (up). */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const percent = Number(value.replace(/%$/, ''));
  return Math.ceil((percent * total) / 100);
}

/** Counts the budget's Pods now, and takes one disruption (MODIFIED) or says why not (the 429's Status). */
function takeDisruption(server: WriteServerParts, budget: { key: string; obj: KubeObjectJson }, pod: KubeObjectJson) {
  const b = budget.obj as KubeObjectJson & Budget;
  const generation = typeof b.metadata.generation === 'number' ? b.metadata.generation : 1;
  const name = b.metadata.name;
  const message = "Cannot evict pod as it would violate the pod's disruption budget.";
  if (b.status?.observedGeneration !== undefined && b.status.observedGeneration < generation) {
    return failure(429, 'TooManyRequests', message, { causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` }], retryAfterSeconds: 10 });
  }
  const disrupted = { ...(b.status?.disruptedPods ?? {}) };
  const pods = [...server.store.currentObjects('pods').values()].filter((p) => p.metadata.namespace === pod.metadata.namespace && selects(b.spec?.selector ?? {}, p.metadata.labels ?? {}));
  for (const podName of Object.keys(disrupted)) if (!pods.some((p) => p.metadata.name === podName && !p.metadata.deletionTimestamp)) delete disrupted[podName];
  const expected = pods.length;
  const healthy = pods.filter((p) => isHealthy(p) && !Object.hasOwn(disrupted, p.metadata.name)).length;
  const desired = b.spec?.minAvailable !== undefined ? scaled(b.spec.minAvailable, expected) : b.spec?.maxUnavailable !== undefined ? Math.max(0, expected - scaled(b.spec.maxUnavailable, expected)) : expected;
  const allowed = Math.max(0, healthy - desired);
  if (allowed < 1) {
    writeStatus(server, budget, { observedGeneration: generation, disruptionsAllowed: 0, currentHealthy: healthy, desiredHealthy: desired, expectedPods: expected, disruptedPods: disrupted });
    return failure(429, 'TooManyRequests', message, { causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} needs ${desired} healthy pods and has ${healthy} currently` }] });
  }
  disrupted[pod.metadata.name] = kubeTime();
  writeStatus(server, budget, { observedGeneration: generation, disruptionsAllowed: allowed - 1, currentHealthy: healthy, desiredHealthy: desired, expectedPods: expected, disruptedPods: disrupted });
  return undefined;
}

function writeStatus(server: WriteServerParts, budget: { key: string; obj: KubeObjectJson }, status: Record<string, unknown>): void {
  const current = server.store.peek(PDBS, budget.key);
  if (!current) return;
  const allowed = (status.disruptionsAllowed as number) > 0;
  const condition = { type: 'DisruptionAllowed', status: allowed ? 'True' : 'False', reason: allowed ? 'SufficientPods' : 'InsufficientPods', message: '', observedGeneration: status.observedGeneration, lastTransitionTime: kubeTime() };
  const next = structuredClone(current);
  const disruptedPods = status.disruptedPods as Record<string, string>;
  next.status = { ...status, ...(Object.keys(disruptedPods).length === 0 ? { disruptedPods: undefined } : {}), conditions: [condition] };
  if (JSON.stringify({ ...(current.status as object), conditions: undefined }) === JSON.stringify({ ...(next.status as object), conditions: undefined })) return;
  const rv = server.store.nextRv();
  next.metadata.resourceVersion = String(rv);
  server.store.commit({ rv, resource: PDBS, key: budget.key, type: 'MODIFIED', object: next, prev: current });
}
