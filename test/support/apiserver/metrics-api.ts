/**
 * `metrics.k8s.io/v1beta1` as metrics-server serves it: PodMetrics of running pods (per container,
 * `timestamp`, `window`) and NodeMetrics, listed per namespace, for every namespace, or by name;
 * advertised in discovery with the verbs get and list. Samples are plausible and change: each
 * object's usage moves with the sample time (a new sample every `resolutionMs`, 15 s by default),
 * derived from its name so that a test can predict nothing but that it changes.
 *
 * `mode`: 'absent' (the default of a bare server: no APIService, the group is not in discovery, its
 * paths answer 404 as the aggregator does), 'served' (the simulated cluster's default) or
 * 'forbidden' (RBAC's 403 for the user on this group).
 */
import type * as http from 'node:http';
import type { ResourceDefinition, KubeObjectJson, RequestRecord } from './types';
import type { Route } from './router';
import { sendJson, sendPlainNotFound } from './responses';
import { failure } from './status';
import type { AccessPolicy } from './access-policy';

export const METRICS_GROUP = 'metrics.k8s.io';
export const POD_METRICS: ResourceDefinition = { group: METRICS_GROUP, version: 'v1beta1', resource: 'pods', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list'], singularName: '' };
export const NODE_METRICS: ResourceDefinition = { group: METRICS_GROUP, version: 'v1beta1', resource: 'nodes', kind: 'NodeMetrics', namespaced: false, verbs: ['get', 'list'], singularName: '' };

/** One PodMetrics or NodeMetrics as served. */
interface MetricsItem {
  metadata: { name: string; namespace?: string; creationTimestamp: string; labels: Record<string, string> };
  timestamp: string;
  window: string;
  containers?: { name: string; usage: { cpu: string; memory: string } }[];
  usage?: { cpu: string; memory: string };
}

export type MetricsMode = 'served' | 'absent' | 'forbidden';

export interface MetricsSource {
  list(resource: string, namespace?: string): KubeObjectJson[];
  now(): number;
}

/** A small, stable number from a name (FNV-1a). */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class MetricsApi {
  mode: MetricsMode = 'absent';
  /** How often a new sample is taken (metrics-server's `--metric-resolution`). */
  resolutionMs = 15_000;
  /** The time samples are taken at (default the server's wall clock); a test ties it to its own clock. */
  now: () => number = () => this.source.now();

  constructor(
    private readonly source: MetricsSource,
    private readonly access: AccessPolicy,
  ) {}

  /** Whether discovery lists the group now. */
  get advertised(): boolean {
    return this.mode !== 'absent';
  }

  /** Answers a request on the metrics group; false when the route is not one. */
  serve(req: http.IncomingMessage, res: http.ServerResponse, route: Extract<Route, { kind: 'resource' }>, record: RequestRecord): boolean {
    if (route.group !== METRICS_GROUP) return false;
    const { query } = record;
    if (this.mode === 'absent' || route.version !== 'v1beta1' || (route.resource !== 'pods' && route.resource !== 'nodes')) {
      sendPlainNotFound(res);
      return true;
    }
    const verb = route.name !== undefined ? 'get' : 'list';
    if (this.mode === 'forbidden') {
      sendJson(req, res, query, 403, this.access.forbidden({ verb, group: METRICS_GROUP, resource: route.resource, namespace: route.namespace, name: route.name }));
      return true;
    }
    if (req.method !== 'GET' || query.watch === 'true' || query.watch === '1') {
      sendJson(req, res, query, 405, failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
      return true;
    }
    const items = route.resource === 'pods' ? this.podItems(route.namespace) : this.nodeItems();
    if (route.name !== undefined) {
      const one = items.find((i) => i.metadata.name === route.name);
      if (!one) sendJson(req, res, query, 404, failure(404, 'NotFound', `${route.resource}.metrics.k8s.io "${route.name}" not found`, { name: route.name, group: METRICS_GROUP, kind: route.resource }));
      else sendJson(req, res, query, 200, one);
      return true;
    }
    const kind = route.resource === 'pods' ? 'PodMetricsList' : 'NodeMetricsList';
    sendJson(req, res, query, 200, { kind, apiVersion: `${METRICS_GROUP}/v1beta1`, metadata: {}, items });
    return true;
  }

  /** The sample time now: the start of the current resolution step. */
  private sampleTime(): number {
    const now = this.now();
    return now - (now % this.resolutionMs);
  }

  /** CPU in nanocores and memory in KiB of one container at one sample time. */
  private usage(key: string, at: number): { cpu: string; memory: string } {
    const h = hash(key);
    const step = Math.floor(at / this.resolutionMs);
    const wobble = (hash(`${key}@${step}`) % 1000) / 1000; // [0, 1)
    const cpuMilli = 2 + (h % 120) * (0.7 + 0.6 * wobble);
    const memKi = (16 + (h % 180)) * 1024 * (0.95 + 0.1 * wobble);
    return { cpu: `${Math.round(cpuMilli * 1e6)}n`, memory: `${Math.round(memKi)}Ki` };
  }

  private podItems(namespace: string | undefined): MetricsItem[] {
    const at = this.sampleTime();
    const out: MetricsItem[] = [];
    for (const pod of this.source.list('pods', namespace)) {
      const status = pod.status as { phase?: string; containerStatuses?: { name: string; state?: { running?: unknown } }[] } | undefined;
      if (status?.phase !== 'Running' || pod.metadata.deletionTimestamp) continue;
      const running = (status.containerStatuses ?? []).filter((c) => c.state?.running);
      if (running.length === 0) continue;
      const { namespace: ns, name } = pod.metadata;
      out.push({
        metadata: { name, namespace: ns, creationTimestamp: rfc3339(this.now()), labels: pod.metadata.labels ?? {} },
        timestamp: rfc3339(at),
        window: '15.012s',
        containers: running.map((c) => ({ name: c.name, usage: this.usage(`${ns}/${name}/${c.name}`, at) })),
      });
    }
    return out;
  }

  private nodeItems(): MetricsItem[] {
    const at = this.sampleTime();
    return this.source.list('nodes').map((node) => {
      const name = node.metadata.name;
      const base = this.usage(`node/${name}`, at);
      return {
        metadata: { name, creationTimestamp: rfc3339(this.now()), labels: node.metadata.labels ?? {} },
        timestamp: rfc3339(at),
        window: '20.05s',
        usage: { cpu: `${Number.parseInt(base.cpu, 10) * 8}n`, memory: `${Number.parseInt(base.memory, 10) * 12}Ki` },
      };
    });
  }
}
