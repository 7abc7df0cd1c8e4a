/**
 * The registry of resource types the fake server serves.
 * Invariant: at most one definition per (group, resource); a group exists exactly while it has
 * at least one resource (so removing the last resource of a group makes the group unknown,
 * which turns its 404s into plain-text "404 page not found", transcript 08).
 */
import type { ResourceDefinition } from './types';

/** Verbs a real built-in type advertises in discovery. */
export const DEFAULT_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** `configmaps` for the core group, `deployments.apps` otherwise: the way kubectl spells it. */
export function qualifiedName(def: Pick<ResourceDefinition, 'group' | 'resource'>): string {
  return def.group ? `${def.resource}.${def.group}` : def.resource;
}

/** `v1` or `apps/v1`. */
export function groupVersionOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

export const PREDEFINED: ResourceDefinition[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  {
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    selectableFields: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, selectableFields: ['type'] },
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], selectableFields: ['status.phase'] },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'] },
  {
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    // The field labels core/v1 Events accept (pkg/registry/core/event/strategy.go ToSelectableFields).
    selectableFields: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'type',
    ],
  },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'] },
];

/**
 * discovery.k8s.io/v1 EndpointSlices, as a real server lists them in discovery (no short
 * name; only metadata.name and metadata.namespace as field selectors). Not predefined: a test
 * or the sandbox defines it, and a server without it stands for one that does not serve the group.
 */
export const ENDPOINT_SLICES: ResourceDefinition = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true };

/** core/v1 Endpoints (short name `ep`), deprecated since 1.33 in favour of EndpointSlices. */
export const ENDPOINTS: ResourceDefinition = { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', namespaced: true, shortNames: ['ep'], singularName: 'endpoints' };

/**
 * events.k8s.io/v1 Events. A real server stores them with core/v1 Events (one object, two
 * shapes); here they are objects of their own, written in the v1 shape by the test. The field
 * labels are the ones that API accepts (pkg/apis/events/v1 AddFieldLabelConversionsForEvent):
 * `regarding.*`, `reportingController`, `reason`, `type`; `involvedObject.uid` is refused with
 * 400 "field label not supported", as there.
 */
export const EVENTS_V1: ResourceDefinition = {
  group: 'events.k8s.io',
  version: 'v1',
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  selectableFields: [
    'regarding.kind',
    'regarding.namespace',
    'regarding.name',
    'regarding.uid',
    'regarding.apiVersion',
    'regarding.resourceVersion',
    'regarding.fieldPath',
    'reportingController',
    'reason',
    'type',
  ],
};

export class ResourceRegistry {
  private readonly defs = new Map<string, ResourceDefinition>();

  constructor(initial: ResourceDefinition[] = PREDEFINED) {
    for (const d of initial) this.define(d);
  }

  /** Adds or replaces the definition of (group, resource). */
  define(def: ResourceDefinition): void {
    this.defs.set(qualifiedName(def), { ...def });
  }

  remove(group: string, resource: string): ResourceDefinition | undefined {
    const key = qualifiedName({ group, resource });
    const def = this.defs.get(key);
    this.defs.delete(key);
    return def;
  }

  /** By `configmaps` / `deployments.apps` / `widgets.example.com`. */
  byName(name: string): ResourceDefinition | undefined {
    return this.defs.get(name);
  }

  /** By the pieces of a request path. */
  byPath(group: string, version: string, resource: string): ResourceDefinition | undefined {
    const def = this.defs.get(qualifiedName({ group, resource }));
    return def && def.version === version ? def : undefined;
  }

  /** True when some resource is served under group/version (core: group ''). */
  hasGroupVersion(group: string, version: string): boolean {
    for (const d of this.defs.values()) if (d.group === group && d.version === version) return true;
    return false;
  }

  all(): ResourceDefinition[] {
    return [...this.defs.values()];
  }
}
