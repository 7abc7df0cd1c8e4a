import type { KubeObject, TimedLifecycleEvent } from '../informer';

/**
 * The CLI's output records, one JSON object per line. Pure functions: they never read the
 * clock or the environment, and they copy only identities, resourceVersions, counts and reasons
 * (server Status messages, network error descriptions) out of what they are given, so no
 * object body and no credential reaches the output.
 */

/** Who an object is: namespace (absent for cluster-scoped objects), name, uid, resourceVersion. */
export interface ObjectIdentityLine {
  namespace?: string;
  name: string;
  uid: string;
  resourceVersion: string;
}

export type ObjectEventKind = 'add' | 'update' | 'delete';

export interface ObjectEventLine extends Partial<ObjectIdentityLine> {
  event: ObjectEventKind;
  /** The type: its plural, qualified with its group (`deployments.apps`). */
  resource: string;
  finalStateUnknown?: true;
}

/** `lifecycle` is a state's phase (connecting, watching, ...) or an event's type (synced, backoff, ...). */
export interface LifecycleLine {
  lifecycle: string;
  /** The type the line is about (as `ObjectEventLine.resource`, or as spelled before discovery answered). */
  resource?: string;
  resourceVersion?: string;
  reason?: string;
  at: string;
  [extra: string]: string | number | boolean | undefined;
}

export function identityOf(obj: KubeObject): ObjectIdentityLine {
  const m = obj.metadata;
  const out: ObjectIdentityLine = { name: m.name ?? '', uid: m.uid ?? '', resourceVersion: m.resourceVersion ?? '' };
  return m.namespace ? { namespace: m.namespace, ...out } : out;
}

export function objectEventLine(resource: string, kind: ObjectEventKind, obj: KubeObject, finalStateUnknown = false): ObjectEventLine {
  const line: ObjectEventLine = { event: kind, resource, ...identityOf(obj) };
  if (finalStateUnknown) line.finalStateUnknown = true;
  return line;
}

/**
 * One lifecycle event of `resource`'s watch as a line. `currentResourceVersion` (the
 * informer's) is used when the event carries none of its own. Undefined fields are left out by
 * JSON.stringify.
 */
export function lifecycleLine(resource: string, e: TimedLifecycleEvent, currentResourceVersion: string): LifecycleLine {
  const { lifecycle, ...rest } = eventLine(e, currentResourceVersion);
  return { lifecycle, resource, ...rest };
}

function eventLine(e: TimedLifecycleEvent, currentResourceVersion: string): LifecycleLine {
  const at = new Date(e.at).toISOString();
  const rv = (own?: string) => own || currentResourceVersion || undefined;
  switch (e.type) {
    case 'state':
      return {
        lifecycle: e.state.phase,
        resourceVersion: rv(),
        reason: e.state.reason,
        at,
        nextRetryAt: e.state.nextRetryAt === undefined ? undefined : new Date(e.state.nextRetryAt).toISOString(),
        synced: e.state.synced,
      };
    case 'list-started':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), at, relist: e.relist, streaming: e.streaming };
    case 'list-page':
      return { lifecycle: e.type, resourceVersion: rv(), at, page: e.page, items: e.items };
    case 'list-done':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), at, items: e.items, pages: e.pages, durationMs: e.durationMs, streaming: e.streaming };
    case 'list-restarted':
    case 'streaming-list-fallback':
    case 'relist':
    case 'restart':
      return { lifecycle: e.type, resourceVersion: rv(), reason: e.reason, at };
    case 'synced':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), at, objects: e.objects };
    case 'watch-opened':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), at, timeoutSeconds: e.timeoutSeconds, protocol: e.protocol };
    case 'watch-closed':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), reason: e.reason, at, events: e.events, durationMs: e.durationMs };
    case 'bookmark':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), at };
    case 'expired':
      return { lifecycle: e.type, resourceVersion: rv(e.resourceVersion), reason: e.message, at };
    case 'backoff':
      return {
        lifecycle: e.type,
        resourceVersion: rv(),
        reason: e.cause,
        at,
        attempt: e.attempt,
        delayMs: e.delayMs,
        retryAt: new Date(e.retryAt).toISOString(),
      };
    case 'warning':
      return { lifecycle: e.type, resourceVersion: rv(), reason: e.message, at, eventType: e.eventType };
    case 'handler-error':
      return { lifecycle: e.type, resourceVersion: rv(), reason: e.message, at, handler: e.handler };
    case 'stopped':
      return { lifecycle: e.type, resourceVersion: rv(), at };
    case 'resumed':
      return { lifecycle: e.type, resourceVersion: rv(), at, awaySeconds: Math.round(e.awayMs / 1000) };
    case 'reachability':
      return { lifecycle: e.type, resourceVersion: rv(), at, reachable: e.reachable, reason: e.detail };
  }
}

/** The whole cache of one type, sorted by namespace then name. */
export function snapshotLine(resource: string, objects: Iterable<KubeObject>): { resource: string; snapshot: ObjectIdentityLine[] } {
  const snapshot = [...objects].map(identityOf);
  snapshot.sort((a, b) => compare(a.namespace ?? '', b.namespace ?? '') || compare(a.name, b.name));
  return { resource, snapshot };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
