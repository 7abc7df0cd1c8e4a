import type { Disposable } from '../base';
import type { KubeObject, ResourceType } from '../informer';
import type { AdHocWatch, AdHocWatchRequest } from '../manager';
import type { RelatedObjects } from './related-objects';

/** discovery.k8s.io/v1 EndpointSlices: a Service's are labelled `kubernetes.io/service-name=NAME`. */
export const ENDPOINT_SLICES_TYPE: ResourceType = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true };

/** core/v1 Endpoints: the same name as its Service; only where EndpointSlices are not served. */
export const ENDPOINTS_TYPE: ResourceType = { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', namespaced: true };

/** The label the EndpointSlice controller puts on a Service's slices. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** One watch a description depends on, with what it is for ("the EndpointSlices of Service web"). */
export interface DescribedWatch {
  /** Stable within the description: 'object', 'events', 'endpoints'. */
  readonly id: string;
  readonly what: string;
  readonly watch: AdHocWatch;
}

/**
 * Follows a Service's endpoints while its description is open: a watch of its EndpointSlices
 * (`labelSelector=kubernetes.io/service-name=NAME` in its namespace), as kubectl describe reads
 * them since 1.33. Where the server does not serve discovery.k8s.io/v1 (the watch is "not
 * found") or refuses it (forbidden), it watches the core Endpoints object of the same name
 * instead, for the rest of the description's life.
 * Invariants: at most one watch runs; `dispose()` stops it; what it last listed stays known
 * while its watch is down or ended (the description shows it under the stale banner).
 */
export class ServiceEndpointsWatch implements Disposable {
  private current: AdHocWatch | undefined;
  private fallback = false;
  private lastSlices: readonly KubeObject[] | undefined;
  private lastEndpoints: KubeObject | null | undefined;
  private disposed = false;

  constructor(
    private readonly start: (request: AdHocWatchRequest) => AdHocWatch,
    private readonly spec: string,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.ensure(true);
  }

  /** True once it follows the core Endpoints because EndpointSlices are not served or refused. */
  get usesEndpoints(): boolean {
    return this.fallback;
  }

  /** The watch it runs now, for the description's staleness and counts. */
  get dependency(): DescribedWatch | undefined {
    if (!this.current) return undefined;
    const what = this.fallback ? `the Endpoints of Service ${this.name}` : `the EndpointSlices of Service ${this.name}`;
    return { id: this.fallback ? 'endpoints-object' : 'endpoint-slices', what, watch: this.current };
  }

  /** What the Service describer prints its Endpoints lines from. */
  related(): RelatedObjects {
    const w = this.current;
    if (w?.informer?.state.synced) {
      if (this.fallback) this.lastEndpoints = w.list().find((o) => o.metadata.name === this.name) ?? null;
      else this.lastSlices = w.list();
    }
    return this.fallback ? { endpoints: this.lastEndpoints } : { endpointSlices: this.lastSlices };
  }

  /** Switches to the Endpoints when the slices are not served or refused; with `reaskEnded`, asks again for an ended watch. */
  ensure(reaskEnded = false): void {
    if (this.disposed) return;
    const phase = this.current?.state.phase;
    if (!this.fallback && (phase === 'not-found' || phase === 'forbidden')) {
      this.fallback = true;
      void this.current?.dispose();
      this.current = undefined;
    }
    if (this.current && !(reaskEnded && this.current.ended)) return;
    void this.current?.dispose();
    this.current = this.fallback
      ? this.start({ spec: this.spec, type: ENDPOINTS_TYPE, namespace: this.namespace, fieldSelector: `metadata.name=${this.name}`, purpose: `the Endpoints of Service ${this.namespace}/${this.name}` })
      : this.start({ spec: this.spec, type: ENDPOINT_SLICES_TYPE, namespace: this.namespace, labelSelector: `${SERVICE_NAME_LABEL}=${this.name}`, purpose: `the EndpointSlices of Service ${this.namespace}/${this.name}` });
  }

  dispose(): void {
    this.disposed = true;
    void this.current?.dispose();
    this.current = undefined;
  }
}
