import { clockTime } from '../../base/time-format';
import type { EventRecord, EventsScope, FeedStatus, WatchGap } from '../../events';
import { humanDuration } from '../age';
import type { EventsFilter, EventsRowView, EventsSnapshot, EventsSubjectFilter, EventView } from './events-messages';

/** What the view model reads (an EventsFeed is one). */
export interface EventsModelSource {
  readonly store: { records(): EventRecord[]; readonly dropped: number; readonly size: number };
  gaps(): WatchGap[];
  status(): FeedStatus;
}

/** Workload kinds whose ReplicaSets, Jobs and Pods "Show Events" includes. */
const OWNER_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']);
const OWNED_KINDS = new Set(['ReplicaSet', 'Pod', 'Job']);

export function defaultFilter(): EventsFilter {
  return { text: '', namespace: '', warningsOnly: false };
}

/** A "Show Events" filter for a row's object; workloads include what they own. */
export function subjectFilter(kind: string, namespace: string, name: string): EventsSubjectFilter {
  return { kind, namespace, name, withOwned: OWNER_KINDS.has(kind) };
}

/** True when `r` is about the subject (or, for a workload, about an object named after it). */
export function aboutSubject(r: EventRecord, s: EventsSubjectFilter): boolean {
  const about = r.subject;
  if (about.namespace !== s.namespace && !(s.namespace === '' && about.namespace === '')) return false;
  if (about.kind === s.kind && about.name === s.name) return true;
  return s.withOwned && OWNED_KINDS.has(about.kind) && about.name.startsWith(`${s.name}-`);
}

function matches(r: EventRecord, f: EventsFilter, s: EventsSubjectFilter | undefined): boolean {
  if (f.warningsOnly && r.type !== 'Warning') return false;
  if (f.namespace && r.namespace !== f.namespace) return false;
  if (s && !aboutSubject(r, s)) return false;
  if (!f.text) return true;
  const needle = f.text.toLowerCase();
  return [r.reason, r.message, r.subject.kind, r.subject.name, r.namespace, r.reporter].some((v) => v.toLowerCase().includes(needle));
}

/** `14:05:10 (2m ago)`. */
function seen(at: number, now: number): string {
  return at > 0 ? `${clockTime(at, false)} (${humanDuration(now - at)} ago)` : 'unknown';
}

/** "no data: watch down 14:02:10–14:05:30 (connection refused)"; an open gap reads "since 14:02:10". */
export function gapText(gap: WatchGap): string {
  const what = gap.kind === 'down' ? 'watch down' : gap.kind === 'suspended' ? 'process suspended' : 'catching up after a resume';
  const when = gap.end === undefined ? `since ${clockTime(gap.start, false)}` : `${clockTime(gap.start, false)}–${clockTime(gap.end, false)}`;
  return `no data: ${what} ${when}${gap.reason ? ` (${gap.reason})` : ''}`;
}

export function scopeText(scope: EventsScope | undefined, status: FeedStatus): string {
  if (status.deciding && !scope) return 'deciding where you may list events…';
  if (!scope) return status.problem ?? 'not watching';
  if (scope.namespaces.length === 0) return 'not watching events';
  const api = scope.type.group ? 'events.k8s.io/v1' : 'core v1';
  if (scope.namespaces.length === 1 && scope.namespaces[0] === '') return `cluster wide (${api})`;
  const where = `in ${scope.namespaces.join(', ')}`;
  return scope.limited ? `${where} only: you may not list events cluster wide (${api})` : `${where} (${api})`;
}

interface Group {
  key: string;
  object: string;
  events: EventRecord[];
  warnings: number;
  count: number;
  lastSeen: number;
}

function groupsOf(records: EventRecord[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const r of records) {
    const s = r.subject;
    const key = `${s.kind}/${s.namespace}/${s.name}`;
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { key, object: `${s.kind || 'object'} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`, events: [], warnings: 0, count: 0, lastSeen: 0 }));
    g.events.push(r);
    g.count += r.count;
    if (r.type === 'Warning') g.warnings += r.count;
    g.lastSeen = Math.max(g.lastSeen, r.lastSeen);
  }
  for (const g of byKey.values()) g.events.sort((a, b) => b.lastSeen - a.lastSeen);
  return [...byKey.values()];
}

function eventView(r: EventRecord, now: number): EventView {
  return { type: r.type, reason: r.reason, message: r.message, count: r.count, lastSeen: seen(r.lastSeen, now), reporter: r.reporter, deleted: r.deleted === true };
}

/**
 * Groups newest first, with the gaps placed by time: a gap goes before the first group last
 * seen when or before the gap began, so a silence the watch could not see never reads as a
 * quiet period. A group last seen inside a gap (delivered when the watch came back, or stamped
 * to the second by the server) stays above it: it was seen, the gap says what may be missing.
 */
function interleave(groups: Group[], gaps: WatchGap[], now: number): EventsRowView[] {
  const rows: EventsRowView[] = [];
  const pending = [...gaps].sort((a, b) => b.start - a.start);
  let i = 0;
  for (const g of groups) {
    while (i < pending.length && pending[i].start >= g.lastSeen) rows.push(gapRow(pending[i++]));
    rows.push({ kind: 'group', key: g.key, object: g.object, warnings: g.warnings, count: g.count, lastSeen: seen(g.lastSeen, now), latest: `${g.events[0].reason}: ${g.events[0].message}`, events: g.events.map((e) => eventView(e, now)) });
  }
  while (i < pending.length) rows.push(gapRow(pending[i++]));
  return rows;
}

function gapRow(gap: WatchGap): EventsRowView {
  return { kind: 'gap', text: gapText(gap), open: gap.end === undefined };
}

function bytesText(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${Math.round(n / 1024)} KiB`;
}

/**
 * The Events panel's snapshot: warnings first (objects with a warning, newest first), then the
 * rest; each object once, with its events' counts summed and when it was last seen; the
 * watch's gaps between them by time; the filter applied. Pure.
 */
export function eventsSnapshot(source: EventsModelSource, options: { title: string; now: number; filter: EventsFilter; subject?: EventsSubjectFilter; maxBytes: number }): EventsSnapshot {
  const { now, filter, subject } = options;
  const all = source.store.records();
  const shown = all.filter((r) => matches(r, filter, subject));
  const groups = groupsOf(shown).sort((a, b) => b.lastSeen - a.lastSeen);
  const warned = groups.filter((g) => g.warnings > 0);
  const calm = groups.filter((g) => g.warnings === 0);
  const gaps = source.gaps();
  const rows: EventsRowView[] = [];
  if (warned.length > 0) rows.push({ kind: 'section', label: `Warnings (${warned.length} object${warned.length === 1 ? '' : 's'})` }, ...interleave(warned, gaps, now));
  if (calm.length > 0 || warned.length === 0) rows.push({ kind: 'section', label: warned.length > 0 ? 'Other events' : 'Events' }, ...interleave(calm, gaps, now));
  const status = source.status();
  const dropped = source.store.dropped;
  const memory = `${source.store.size} event${source.store.size === 1 ? '' : 's'} kept for this session${dropped > 0 ? ` · ${dropped} oldest dropped to stay within ${bytesText(options.maxBytes)} (kubeWatch.events.maxBytes)` : ''}`;
  return {
    type: 'snapshot',
    title: options.title,
    scope: scopeText(status.scope, status),
    ...(status.problem ? { problem: status.problem } : {}),
    memory,
    dropped,
    warnings: warningCount(all),
    filter,
    ...(subject ? { subject } : {}),
    namespaces: [...new Set(all.map((r) => r.namespace))].filter(Boolean).sort(),
    rows,
  };
}

/** How many warnings the feed holds, repeats counted (as the groups count them): the tree row's description. */
export function warningCount(records: readonly EventRecord[]): number {
  return records.reduce((n, r) => (r.type === 'Warning' ? n + r.count : n), 0);
}
