import type { ResourceType } from '../informer';
import type { PermissionScope } from '../manager/permission-scope';

/** events.k8s.io/v1 Events: what the feed watches where the group is served. */
export const EVENTS_V1: ResourceType = { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };
/** core/v1 Events: the fallback where events.k8s.io is absent or refused. */
export const CORE_EVENTS: ResourceType = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

/** Where the feed watches: one watch per namespace ('' = cluster wide). */
export interface EventsScope {
  readonly type: ResourceType;
  /** [''] when the user may list and watch Events cluster wide; else the namespaces they may; [] when none. */
  readonly namespaces: readonly string[];
  /** True when the namespaces stand in for the cluster because the user may not list Events cluster wide. */
  readonly limited: boolean;
  /** Why nothing is watched, in words, when `namespaces` is empty. */
  readonly denied?: string;
}

/**
 * Decides the feed's type and namespaces from the permission scope (access reviews before any
 * watch, so a namespace-only user never meets a cluster-wide 403): events.k8s.io/v1 first; core
 * Events when the user may watch events.k8s.io nowhere (RBAC grants the two groups apart) or
 * `preferCore` (the group is not served). `scopeOf` is permissionScope for the context.
 */
export async function decideEventsScope(scopeOf: (type: ResourceType) => Promise<PermissionScope>, preferCore = false): Promise<EventsScope> {
  const order = preferCore ? [CORE_EVENTS] : [EVENTS_V1, CORE_EVENTS];
  let denied: string | undefined;
  for (const type of order) {
    const scope = await scopeOf(type);
    const allowed = scope.namespaces.filter((n) => !n.denied).map((n) => n.namespace);
    if (allowed.length > 0) return { type, namespaces: allowed, limited: scope.limited };
    denied ??= scope.namespaces.find((n) => n.denied)?.denied;
  }
  return { type: order[order.length - 1], namespaces: [], limited: false, denied: denied ?? 'you may not list and watch events' };
}
