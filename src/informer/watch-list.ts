import { ApiError } from '../base/api-error';
import type { KubeObject } from './kube-object';
import type { ListPreview } from './list-preview';

/**
 * The streaming list (WatchList, `sendInitialEvents=true`), as client-go's reflector does it:
 * one watch request whose first events are the current objects (ADDED), ended by a BOOKMARK
 * annotated `k8s.io/initial-events-end: "true"` whose resourceVersion is the list's; the same
 * request then goes on as the watch.
 */

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** Default time without any event, before the initial-events-end bookmark, after which the server is taken not to support it. */
export const WATCH_LIST_PROGRESS_MS = 10_000;

/** The query of a streaming list; `resourceVersion` '' asks for a consistent read. */
export function watchListQuery(resourceVersion: string, timeoutSeconds: number): Record<string, string> {
  const q: Record<string, string> = {
    sendInitialEvents: 'true',
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: 'true',
    timeoutSeconds: String(timeoutSeconds),
  };
  if (resourceVersion !== '') q.resourceVersion = resourceVersion;
  return q;
}

/** Whether a BOOKMARK's object carries the initial-events-end annotation. */
export function isInitialEventsEnd(object: unknown): boolean {
  const annotations = (object as { metadata?: { annotations?: Record<string, unknown> } } | undefined)?.metadata?.annotations;
  return annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true';
}

/**
 * Whether a refusal means "this server has no streaming list": a 422 whose causes name
 * `sendInitialEvents` or `resourceVersionMatch` (1.26: resourceVersionMatch forbidden for watch;
 * 1.33: sendInitialEvents forbidden unless the WatchList gate is on). A 422 about anything else
 * (a bad selector) is not.
 */
export function refusesStreamingList(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.code !== 422) return false;
  const causes = err.status.details?.causes ?? [];
  if (causes.some((c) => c.field === 'sendInitialEvents' || c.field === 'resourceVersionMatch')) return true;
  return causes.length === 0 && /sendInitialEvents|resourceVersionMatch/.test(err.message);
}

/** The server cannot serve the streaming list: the reflector falls back to the paginated LIST. */
export class StreamingListUnsupportedError extends Error {
  constructor(readonly why: string) {
    super(`the server does not support streaming lists (WatchList): ${why}`);
    this.name = 'StreamingListUnsupportedError';
  }
}

/** The streaming list ended (cleanly) before its initial-events-end bookmark: nothing is published. */
export class StreamingListIncompleteError extends Error {
  constructor() {
    super('the server ended the streaming list before its initial-events-end bookmark');
    this.name = 'StreamingListIncompleteError';
  }
}

/**
 * The objects of a streaming list as they arrive, kept apart from the informer's store until
 * the initial-events-end bookmark, so that a partial stream is never published.
 * Held per namespace by name, as the store holds them (no key string per object); later events
 * for an object replace earlier ones. It is also the list's preview (list-preview.ts), read in place.
 */
export class InitialEvents implements ListPreview {
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  upsert(obj: KubeObject): void {
    const ns = obj.metadata.namespace ?? '';
    let names = this.byNamespace.get(ns);
    if (!names) this.byNamespace.set(ns, (names = new Map()));
    const name = obj.metadata.name ?? '';
    if (!names.has(name)) this.count++;
    names.set(name, obj);
  }

  remove(obj: KubeObject): void {
    const names = this.byNamespace.get(obj.metadata.namespace ?? '');
    if (names?.delete(obj.metadata.name ?? '')) this.count--;
  }

  *namespaces(): IterableIterator<[string, number]> {
    for (const [ns, names] of this.byNamespace) if (names.size > 0) yield [ns, names.size];
  }

  objectsIn(namespace: string): IterableIterator<KubeObject> {
    return (this.byNamespace.get(namespace) ?? new Map<string, KubeObject>()).values();
  }

  /** Hands the objects over (for Store.replace) and forgets them. */
  take(): KubeObject[] {
    const items: KubeObject[] = new Array(this.count);
    let i = 0;
    for (const names of this.byNamespace.values()) for (const obj of names.values()) items[i++] = obj;
    this.byNamespace.clear();
    this.count = 0;
    return items;
  }
}
