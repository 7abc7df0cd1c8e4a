import type { Disposable } from '../base';
import type { KubeObject, ResourceType } from '../informer';
import type { AdHocWatch, AdHocWatchRequest } from '../manager';
import type { DescribedWatch } from './service-endpoints-watch';

/** core/v1 Events: the watch of an object's events (`involvedObject.uid=…`). */
export const EVENTS_TYPE: ResourceType = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

/** events.k8s.io/v1 Events: the same events in the newer shape, selected by `regarding.uid=…`. */
export const EVENTS_V1_TYPE: ResourceType = { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

/**
 * Follows the Events of one object (by uid) while its description is open: a watch of core/v1
 * Events with `fieldSelector=involvedObject.uid=UID`, as kubectl describe searches them. Where
 * the server refuses core Events (403: RBAC may grant only events.k8s.io) or does not serve them,
 * a watch of events.k8s.io/v1 Events with `regarding.uid=UID` instead (the field label that API
 * accepts; it refuses `involvedObject.uid`), for the rest of the description's life. Both shapes
 * print the same way (eventsSection reads either).
 * Invariants: at most one watch runs; `dispose()` stops it.
 */
export class ObjectEventsWatch implements Disposable {
  private current: AdHocWatch | undefined;
  private fallback = false;
  private disposed = false;

  constructor(
    private readonly start: (request: AdHocWatchRequest) => AdHocWatch,
    private readonly spec: string,
    /** '' for a cluster-scoped object: its events are in any namespace. */
    private readonly namespace: string,
    private readonly uid: string,
    /** `Pod web-1`, for the banner and the log. */
    private readonly what: string,
  ) {
    this.ensure(true);
  }

  /** True once it watches events.k8s.io/v1 because core Events are refused or not served. */
  get usesEventsV1(): boolean {
    return this.fallback;
  }

  get dependency(): DescribedWatch | undefined {
    return this.current && { id: this.fallback ? 'events-v1' : 'events', what: `the Events of ${this.what}`, watch: this.current };
  }

  /** The events listed so far: [] while the watch waits for its type or its first list. */
  list(): KubeObject[] {
    return this.current?.informer ? this.current.list() : [];
  }

  /** Switches to events.k8s.io/v1 when core Events are refused or not served; with `reaskEnded`, asks again for an ended watch. */
  ensure(reaskEnded = false): void {
    if (this.disposed) return;
    const phase = this.current?.state.phase;
    if (!this.fallback && (phase === 'forbidden' || phase === 'not-found')) {
      this.fallback = true;
      void this.current?.dispose();
      this.current = undefined;
    }
    if (this.current && !(reaskEnded && this.current.ended)) return;
    void this.current?.dispose();
    this.current = this.start({
      spec: this.spec,
      type: this.fallback ? EVENTS_V1_TYPE : EVENTS_TYPE,
      namespace: this.namespace || undefined,
      fieldSelector: this.fallback ? `regarding.uid=${this.uid}` : `involvedObject.uid=${this.uid}`,
      purpose: `the Events of ${this.what}${this.fallback ? ' (events.k8s.io/v1)' : ''}`,
    });
  }

  dispose(): void {
    this.disposed = true;
    void this.current?.dispose();
    this.current = undefined;
  }
}
