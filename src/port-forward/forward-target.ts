/**
 * What a port-forward points at, and how a port of it becomes a port of a pod: pure functions
 * of the objects, as kubectl's `port-forward` resolves them (`TYPE/NAME PORT`): a Service's port
 * (by number or name) becomes its `targetPort`, which may name a container port that each pod
 * resolves for itself; a workload's pods come from its selector, kept to those it owns.
 */
import type { KubeObject } from '../informer';
import { labelSelectorOf } from '../logs/workload-pods';

export const FORWARD_KINDS = ['Pod', 'Service', 'Deployment', 'StatefulSet', 'ReplicaSet'] as const;
export type ForwardKind = (typeof FORWARD_KINDS)[number];

export function isForwardKind(kind: string | undefined): kind is ForwardKind {
  return (FORWARD_KINDS as readonly string[]).includes(kind ?? '');
}

/** What the user asked to forward: an object and one of its ports. */
export interface ForwardSpec {
  readonly kind: ForwardKind;
  readonly namespace: string;
  readonly name: string;
  /** The port asked for: a Service port (number or name), else a container port (number or name). */
  readonly port: number | string;
  /** The local port asked for; default the remote port's number. */
  readonly localPort?: number;
  /** The local port must be exactly `localPort` (the user typed it): in use is an error, not a reason to pick another. */
  readonly exactLocalPort?: boolean;
  /** The address to listen on; default 127.0.0.1. */
  readonly address?: string;
}

/** The target resolved from its object: how to find its pods and which port of them to reach. */
export interface ResolvedTarget {
  readonly spec: ForwardSpec;
  readonly uid: string;
  /** Pods are found by this label selector (a Pod target: undefined, the pod itself). */
  readonly selector?: string;
  /** The port on the pod: a number, or a container port's name each pod resolves. */
  readonly podPort: number | string;
  /** The number a local port defaults to (the Service's or the pod's port). */
  readonly suggestedLocalPort: number;
  /** For a Service: its name, to read its EndpointSlices (`kubernetes.io/service-name`). */
  readonly service?: string;
}

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `web-7f9c/80`, `svc/web 80 → http`: how a target reads in messages. */
export function describeSpec(spec: ForwardSpec): string {
  const short = { Pod: 'pod', Service: 'svc', Deployment: 'deploy', StatefulSet: 'sts', ReplicaSet: 'rs' }[spec.kind];
  return `${short}/${spec.name} ${spec.port}`;
}

/** A pod's container ports as `80/http, 9090` (for messages). */
function portsText(pod: KubeObject): string {
  const ports = containerPorts(pod);
  return ports.length ? ports.map((p) => (p.name ? `${p.port}/${p.name}` : String(p.port))).join(', ') : 'none declared';
}

function containerPorts(pod: KubeObject): Array<{ port: number; name?: string }> {
  const out: Array<{ port: number; name?: string }> = [];
  for (const c of arr(rec(pod.spec).containers)) {
    for (const p of arr(rec(c).ports)) {
      const port = rec(p).containerPort;
      const name = rec(p).name;
      if (typeof port === 'number') out.push({ port, ...(typeof name === 'string' && name ? { name } : {}) });
    }
  }
  return out;
}

/**
 * The port `podPort` names on `pod`: a number stays itself (checked against the declared ports
 * when the pod declares any), a name is looked up; a one-line reason when the pod has no such port.
 */
export function podPortOn(pod: KubeObject, podPort: number | string): number | string {
  const ports = containerPorts(pod);
  const name = pod.metadata.name ?? '';
  if (typeof podPort === 'number') {
    if (ports.length > 0 && !ports.some((p) => p.port === podPort)) return `pod ${name} declares no port ${podPort} (its ports: ${portsText(pod)})`;
    return podPort;
  }
  const found = ports.find((p) => p.name === podPort);
  return found ? found.port : `pod ${name} has no port named "${podPort}" (its ports: ${portsText(pod)})`;
}

/** A Service's port entry for `requested` (its `port` number or its `name`), as kubectl looks it up. */
function servicePort(service: KubeObject, requested: number | string): Json | undefined {
  const ports = arr(rec(service.spec).ports).map(rec);
  return ports.find((p) => (typeof requested === 'number' ? p.port === requested : p.name === requested));
}

/** Resolves a target from its object, or says in one line why it cannot be forwarded. */
export function resolveTarget(spec: ForwardSpec, obj: KubeObject): ResolvedTarget | string {
  const uid = obj.metadata.uid ?? '';
  const label = `${spec.kind} ${spec.namespace}/${spec.name}`;
  if (spec.kind === 'Pod') {
    const port = podPortOn(obj, spec.port);
    if (typeof port === 'string') return port;
    return { spec, uid, podPort: port, suggestedLocalPort: port };
  }
  if (spec.kind === 'Service') {
    const s = rec(obj.spec);
    const selector = labelSelectorOf({ matchLabels: s.selector });
    if (!selector) return `${label} has no selector, so no pod can be chosen for it (kubectl port-forward refuses it too); forward to a pod instead`;
    const entry = servicePort(obj, spec.port);
    if (!entry) {
      const ports = arr(s.ports).map(rec).map((p) => `${String(p.port)}${p.name ? `/${String(p.name)}` : ''}`);
      return `${label} has no port ${spec.port} (its ports: ${ports.join(', ') || 'none'})`;
    }
    if (entry.protocol !== undefined && entry.protocol !== 'TCP') return `${label} port ${spec.port} is ${String(entry.protocol)}; only TCP can be forwarded`;
    const target = entry.targetPort ?? entry.port;
    const podPort = typeof target === 'number' || typeof target === 'string' ? (typeof target === 'string' && /^\d+$/.test(target) ? Number(target) : target) : Number(entry.port);
    return { spec, uid, selector, podPort, suggestedLocalPort: Number(entry.port), service: spec.name };
  }
  const selector = labelSelectorOf(rec(obj.spec).selector);
  if (!selector) return `${label} has no pod selector`;
  const podPort = typeof spec.port === 'string' && /^\d+$/.test(spec.port) ? Number(spec.port) : spec.port;
  return { spec, uid, selector, podPort, suggestedLocalPort: typeof podPort === 'number' ? podPort : 0 };
}

/** The API path of the target object (its GET). */
export function targetPath(spec: ForwardSpec): string {
  const ns = encodeURIComponent(spec.namespace);
  const name = encodeURIComponent(spec.name);
  if (spec.kind === 'Pod') return `/api/v1/namespaces/${ns}/pods/${name}`;
  if (spec.kind === 'Service') return `/api/v1/namespaces/${ns}/services/${name}`;
  const plural = { Deployment: 'deployments', StatefulSet: 'statefulsets', ReplicaSet: 'replicasets' }[spec.kind];
  return `/apis/apps/v1/namespaces/${ns}/${plural}/${name}`;
}
