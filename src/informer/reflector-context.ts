import type { Backoff } from '../base/backoff';
import type { Clock } from '../base/clock';
import type { InformerPhase, InformerStats } from './informer-state';
import type { LifecycleEvent } from './lifecycle-event';
import type { ListPreview } from './list-preview';
import { collectionPath, type ResourceType } from './resource-type';
import type { Store } from './store';
import type { StreamingListMemory, StreamingListMode } from './streaming-list-memory';
import { dropManagedFields, type Transform } from './transform';
import type { KubeTransport, ParseHints } from './transport';

/** What a reflector needs from the informer that owns it. */
export interface ReflectorHost {
  readonly store: Store;
  readonly stats: InformerStats;
  setPhase(phase: InformerPhase, reason?: string, nextRetryAt?: number): void;
  markSynced(resourceVersion: string): void;
  emit(event: LifecycleEvent): void;
  /** A list began whose buffer may be shown as the list's preview (only if the informer never synced and holds nothing). */
  beginListPreview(preview: ListPreview): void;
  /** The list's buffer grew. */
  listGrew(): void;
  /** The list completed (after markSynced) or failed: its preview is gone. */
  endListPreview(): void;
}

export interface ReflectorOptions {
  transport: KubeTransport;
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per list page; 0 disables pagination. */
  pageSize: number;
  /** Fixed watch timeoutSeconds; when undefined it is drawn from [min, 2·min) for every watch. */
  timeoutSeconds?: number;
  minWatchTimeoutSeconds: number;
  /** How far past the watch's timeoutSeconds a silent stream is considered half-open. */
  noDataGraceMs: number;
  /** Deadline for a list page or for a watch's response headers. */
  requestTimeoutMs: number;
  /** Upper bound on a server's Retry-After. */
  maxRetryAfterMs: number;
  transform: Transform;
  clock: Clock;
  backoff: Backoff;
  /** How the list is made: streaming (WatchList) with fallback, streaming only, or paginated LIST only. */
  streamingList: StreamingListMode;
  /** The cluster's memory of group/versions without the streaming list (shared by its informers). */
  streamingListMemory: StreamingListMemory;
  /** Time without any event before the initial-events-end bookmark after which the streaming list is given up. */
  watchListProgressMs: number;
  /** Only the objects' metadata travels (PartialObjectMetadata, see ParseHints.metadataOnly). */
  metadataOnly?: boolean;
}

/**
 * What the parts of a reflector (the run loop, the list, one watch request, the failure policy)
 * share: its host, its options, and the position it owns.
 * - `resourceVersion`: after a complete list, the list's; while watching, the last event's or
 *   bookmark's delivered. Only the list and the watch request move it.
 * - `needList`: a complete list is needed before the next watch (cleared when one is published).
 */
export class ReflectorContext {
  resourceVersion = '';
  needList = true;
  relistReason: string | undefined;
  /** The last resourceVersion is expired or too large: the next streaming list starts from scratch (''). */
  resourceVersionUnavailable = false;
  /** Whether the current loop iteration's watch got its response headers (it was open). */
  watchOpened = false;
  /** Whether the current loop iteration's watch failed with a transport error right after opening. */
  watchFailedAtOnce = false;
  /** Streaming lists in a row that opened but ended or were cut before their bookmark (F47). */
  incompleteStreamingLists = 0;
  /** Whether the last attempt (list or watch) failed; survives a restart. */
  lastAttemptFailed = false;
  /** Set by the open (non-streaming) watch: ends it so that the loop re-opens it at once from the same resourceVersion. */
  rewatch: ((why: string) => void) | undefined;
  /** With the default transform, the transport need not build managedFields at all; metadata-only asks for metadata only. */
  readonly hints: ParseHints | undefined;

  constructor(
    readonly host: ReflectorHost,
    readonly o: ReflectorOptions,
  ) {
    const hints: ParseHints = {};
    if (o.transform === dropManagedFields) hints.dropManagedFields = true;
    if (o.metadataOnly) hints.metadataOnly = true;
    this.hints = hints.dropManagedFields || hints.metadataOnly ? hints : undefined;
  }

  get path(): string {
    return collectionPath(this.o.type, this.o.namespace);
  }

  /** The request's query: the selectors, then `extra`. */
  query(extra: Record<string, string>): Record<string, string> {
    const q: Record<string, string> = {};
    if (this.o.labelSelector) q.labelSelector = this.o.labelSelector;
    if (this.o.fieldSelector) q.fieldSelector = this.o.fieldSelector;
    return Object.assign(q, extra);
  }

  setResourceVersion(rv: string, source: 'list' | 'event' | 'bookmark'): void {
    this.resourceVersion = rv;
    const stats = this.host.stats;
    stats.resourceVersion = rv;
    stats.resourceVersionSource = source;
    stats.resourceVersionAt = this.o.clock.now();
  }
}

/** A request or stream exceeded its deadline. */
export class DeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlineError';
  }
}

/**
 * The owner asked for the open watch to be re-opened from its resourceVersion (after a resume:
 * a watch accepted again from where it was has the server send every change since, so it is
 * current at once, where the open one proves nothing until its next event or bookmark).
 */
export class RewatchRequestedError extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'RewatchRequestedError';
  }
}

/** The server closed a watch early without sending anything. */
export class ShortWatchError extends Error {
  constructor() {
    super('the server closed the watch at once without sending any event');
    this.name = 'ShortWatchError';
  }
}

export function truncate(s: string): string {
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
