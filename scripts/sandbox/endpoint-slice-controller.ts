/**
 * The simulated cluster's EndpointSlice controller: keeps one discovery.k8s.io/v1 EndpointSlice
 * per Service that has a selector, current with the Pods it selects, the way kube-controller-
 * manager's does (labels `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by`,
 * owned by the Service, named `<service>-<5 random>`; one endpoint per selected Pod that is not
 * finished, `ready`/`serving` from its Ready condition, `targetRef` to the Pod, its node; the
 * Service's ports with the target port, as the slice carries the port the Pod listens on).
 *
 * Sandbox Pods carry no `status.podIP`; an endpoint then gets a stable address derived from the
 * Pod's namespace and name (10.244.x.y), so that a Pod keeps its address while it lives.
 *
 * Invariants: reconciles once per burst of Pod or Service changes (deferred: the server calls
 * back inside a change, and a real controller is asynchronous too); writes only what differs;
 * after `stop()` no timer or subscription is left.
 */
import type { FakeApiServer, KubeObjectJson, ObjectChange } from '../../test/support/apiserver';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
const SLICES = 'endpointslices.discovery.k8s.io';

type Json = Record<string, unknown>;

export class EndpointSliceController {
  private unsubscribe: (() => void) | undefined;
  private pending: NodeJS.Immediate | undefined;

  constructor(private readonly server: FakeApiServer) {}

  /** Reconciles now, then after every change of a Pod or Service. */
  start(): void {
    this.stop();
    this.unsubscribe = this.server.onChange((change: ObjectChange) => {
      if (change.resource === 'pods' || change.resource === 'services') this.schedule();
    });
    this.reconcile();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
  }

  /** One pass: every managed slice made to match its Service's Pods; slices of gone Services deleted. */
  reconcile(): void {
    const services = this.server.list('services').filter((s) => Object.keys(rec(rec(s.spec).selector)).length > 0);
    const wanted = new Set(services.map((s) => `${s.metadata.namespace}/${s.metadata.name}`));
    const managed = this.server.list(SLICES).filter((s) => s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY);
    for (const slice of managed) {
      const service = slice.metadata.labels?.[SERVICE_NAME_LABEL];
      if (!wanted.has(`${slice.metadata.namespace}/${service}`)) this.server.delete(SLICES, slice.metadata.namespace, slice.metadata.name);
    }
    for (const svc of services) this.reconcileService(svc, managed);
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = setImmediate(() => {
      this.pending = undefined;
      try {
        this.reconcile();
      } catch {
        // The server is going down (stop() in progress): the next change reconciles again.
      }
    });
  }

  private reconcileService(svc: KubeObjectJson, managed: readonly KubeObjectJson[]): void {
    const namespace = svc.metadata.namespace!;
    const name = svc.metadata.name;
    const [slice, ...extra] = managed.filter((s) => s.metadata.namespace === namespace && s.metadata.labels?.[SERVICE_NAME_LABEL] === name);
    for (const e of extra) this.server.delete(SLICES, namespace, e.metadata.name);
    const pods = this.server.list('pods', namespace).filter((p) => selects(rec(rec(svc.spec).selector), p.metadata.labels ?? {}));
    const body = { addressType: 'IPv4', endpoints: pods.filter(active).map(endpointOf), ports: portsOf(svc) };
    if (!slice) {
      this.server.create(SLICES, {
        metadata: {
          namespace,
          generateName: `${name}-`,
          labels: { [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MANAGED_BY },
          ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }],
        },
        ...body,
      });
      return;
    }
    const current = { addressType: slice.addressType, endpoints: slice.endpoints, ports: slice.ports };
    if (JSON.stringify(current) !== JSON.stringify(body)) this.server.update(SLICES, { ...slice, ...body });
  }
}

function rec(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function selects(selector: Json, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Finished Pods (Succeeded, Failed) have no endpoint, as in the real controller. */
function active(pod: KubeObjectJson): boolean {
  const phase = rec(pod.status).phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

function endpointOf(pod: KubeObjectJson): Json {
  const status = rec(pod.status);
  const ready = Array.isArray(status.conditions) && status.conditions.some((c) => rec(c).type === 'Ready' && rec(c).status === 'True');
  const nodeName = rec(pod.spec).nodeName;
  return {
    addresses: [typeof status.podIP === 'string' && status.podIP ? status.podIP : addressOf(`${pod.metadata.namespace}/${pod.metadata.name}`)],
    conditions: { ready, serving: ready, terminating: false },
    ...(typeof nodeName === 'string' ? { nodeName } : {}),
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
}

/** The Service's ports as the slice carries them: name ('' when unnamed), the target port, protocol. */
function portsOf(svc: KubeObjectJson): Json[] {
  const ports = Array.isArray(rec(svc.spec).ports) ? (rec(svc.spec).ports as unknown[]).map(rec) : [];
  return ports.map((p) => ({ name: typeof p.name === 'string' ? p.name : '', port: typeof p.targetPort === 'number' ? p.targetPort : p.port, protocol: typeof p.protocol === 'string' ? p.protocol : 'TCP' }));
}

/** A stable pod-network address for a Pod without `status.podIP`. */
function addressOf(key: string): string {
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `10.244.${(h >>> 8) % 256}.${(h % 254) + 1}`;
}
