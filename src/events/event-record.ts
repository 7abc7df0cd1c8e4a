import type { KubeObject } from '../informer';

/** The object an Event is about (core `involvedObject`, events.k8s.io `regarding`). */
export interface EventSubject {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/**
 * One Event as the feed keeps it, the same for core/v1 and events.k8s.io/v1: a small record read
 * once when the Event arrives (never the whole object, so a kept Event costs its words, not its
 * managedFields).
 */
export interface EventRecord {
  /** The Event's own uid (its identity in the store). */
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  /** 'Warning' or 'Normal' (another value as the server gave it). */
  readonly type: string;
  readonly reason: string;
  /** core `message`, events.k8s.io `note`. */
  readonly message: string;
  /** series.count, else count / deprecatedCount, else 1. */
  readonly count: number;
  /** ms: eventTime, else firstTimestamp / deprecatedFirstTimestamp, else creation. */
  readonly firstSeen: number;
  /** ms: series.lastObservedTime, else lastTimestamp / deprecatedLastTimestamp, else firstSeen. */
  readonly lastSeen: number;
  /** reportingController (reportingInstance), else source.component (source.host). */
  readonly reporter: string;
  readonly subject: EventSubject;
  /** Which API the Event was read from. */
  readonly api: 'events.k8s.io/v1' | 'v1';
  /** True once the server deleted it (its TTL ran out): the feed keeps it for the session. */
  readonly deleted?: boolean;
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function time(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

function withDetail(main: string, detail: string): string {
  return main && detail ? `${main}, ${detail}` : main;
}

/**
 * Reads an Event of either API into an EventRecord. `apiVersion` decides which fields are
 * primary; the other API's names are read as fallbacks (a server converts between them, and
 * an events.k8s.io Event carries the core fields as `deprecated*`).
 */
export function readEvent(obj: KubeObject): EventRecord {
  const e = obj as KubeObject & Record<string, unknown>;
  const modern = str(e.apiVersion).startsWith('events.k8s.io/') || (e.regarding !== undefined && e.involvedObject === undefined);
  const series = e.series === undefined || e.series === null ? undefined : rec(e.series);
  const created = time(obj.metadata.creationTimestamp);
  const firstSeen = time(e.eventTime) ?? time(e.firstTimestamp) ?? time(e.deprecatedFirstTimestamp) ?? created ?? 0;
  const lastSeen = (series && time(series.lastObservedTime)) ?? time(e.lastTimestamp) ?? time(e.deprecatedLastTimestamp) ?? firstSeen;
  const count = (series && positive(series.count)) ?? positive(e.count) ?? positive(e.deprecatedCount) ?? 1;
  const source = rec(e.source ?? e.deprecatedSource);
  const reporter = withDetail(str(e.reportingController), str(e.reportingInstance)) || withDetail(str(source.component), str(source.host)) || str(e.reportingComponent);
  const about = rec(modern ? (e.regarding ?? e.involvedObject) : (e.involvedObject ?? e.regarding));
  return {
    uid: obj.metadata.uid ?? `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    type: str(e.type) || 'Normal',
    reason: str(e.reason),
    message: (modern ? str(e.note) || str(e.message) : str(e.message) || str(e.note)).trim(),
    count,
    firstSeen,
    lastSeen: Math.max(lastSeen, firstSeen),
    reporter,
    subject: { kind: str(about.kind), namespace: str(about.namespace), name: str(about.name), uid: str(about.uid) },
    api: modern ? 'events.k8s.io/v1' : 'v1',
  };
}

/** A subject's key: uid when known, else kind/namespace/name. */
export function subjectKey(s: EventSubject): string {
  return s.uid || `${s.kind}/${s.namespace}/${s.name}`;
}

/** Estimated heap bytes of one kept record: its strings (16-byte header, 1 byte a char) and ~200 bytes of object and map slots. */
export function recordBytes(r: EventRecord): number {
  let chars = 0;
  for (const s of [r.uid, r.namespace, r.name, r.type, r.reason, r.message, r.reporter, r.subject.kind, r.subject.namespace, r.subject.name, r.subject.uid]) chars += s.length === 0 ? 0 : 16 + s.length;
  return 200 + chars;
}
