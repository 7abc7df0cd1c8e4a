import type { KubeObject } from '../../informer';
import { isWorkloadKind } from '../../logs/workload-pods';
import type { WatchEntry } from '../../manager';
import { objectAge } from '../age';
import { describeRow, kubectlLines, printObject, rowKey, type PrintedRow, type PrinterColumn } from '../printers';
import { describeWatchState, shorten, type WatchStateText } from '../watch-state-text';
import { withCount, type RowCount } from './object-count';
import { podStatusOnly, podTitle } from './short-name';
import { escapeMarkdown, inlineCode } from './markdown';
import { themeColors, toneColor, worseTone, type Tone } from './tone';

/** What a tree row shows: everything a TreeItem needs, VS Code-free. */
export interface NodePresentation {
  label: string;
  description?: string;
  /** A codicon id and an optional theme colour id. */
  icon?: { id: string; color?: string };
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** 'resource' | 'resource.error' | 'namespace' | 'namespace.watch' | 'object' | 'more' | 'message'. */
  contextValue: string;
}

/** What a watch's row adds to its state: how many objects it shows, and whether it is catching up after a resume. */
export interface WatchRowExtras {
  /** "42 pods": after the state's first words; a resource row's count in words or bare (see `withCount`). */
  count?: RowCount | string;
  /** A resource row's label as the view draws it (`pods ("web")`), when it differs from `label`: what the count must fit beside. */
  shownLabel?: string;
  /** "catching up after 59 s away": in place of "watching" until the watch confirmed it is current. */
  catchingUp?: string;
}

/** A resource node showing one watch: its state (and count) as description, and icon. */
export function presentWatch(label: string, entry: WatchEntry, now: number, contextValue: string, extras: WatchRowExtras = {}): NodePresentation {
  const state = catchingUpState(describeWatchState(entry, now), entry, extras.catchingUp);
  const quiet = isNotAllowed(entry);
  return {
    label,
    description: extras.count && !quiet ? withCount(state.text, extras.count, contextValue === 'resource' ? (extras.shownLabel ?? label) : undefined) : state.text,
    icon: { id: state.icon, color: state.color },
    // Not allowed: one quiet row, with nothing (no stale rows, no message) under it.
    collapsible: quiet ? 'none' : 'collapsed',
    contextValue: quiet ? `${contextValue}.notAllowed` : !entry.informer && entry.error ? `${contextValue}.error` : contextValue,
  };
}

/** The user may not list and watch the entry's type there: no informer, and quiet. */
export function isNotAllowed(entry: WatchEntry): boolean {
  return !entry.informer && entry.errorKind === 'not-allowed';
}

/**
 * A resource node over several watches (one per namespace): "watching 3 namespaces" when all
 * watch, else the most alarming one's text, prefixed with its namespace.
 */
export function presentWatchGroup(label: string, entries: readonly WatchEntry[], now: number, extras: { count?: RowCount | string; shownLabel?: string; catchingUp?: (entry: WatchEntry) => string | undefined } = {}): NodePresentation {
  if (entries.every(isNotAllowed)) return presentWatch(label, entries[0], now, 'resource');
  // Namespaces not allowed are said on their own rows; the resource row sums up the others.
  const shown = entries.filter((e) => !isNotAllowed(e));
  if (shown.length < entries.length) return presentWatchGroup(label, shown, now, extras);
  const states = entries.map((entry) => ({ entry, state: catchingUpState(describeWatchState(entry, now), entry, extras.catchingUp?.(entry)) }));
  const counted = (text: string) => (extras.count ? withCount(text, extras.count, extras.shownLabel ?? label) : text);
  let worst = states[0];
  for (const s of states) if (s.state.tone !== worst.state.tone && worseTone(s.state.tone, worst.state.tone) === s.state.tone) worst = s;
  const allWatching = states.every((s) => s.entry.state.phase === 'watching' && !s.entry.error);
  const anyUnusable = entries.some((e) => !e.informer && e.error);
  const catching = states.find((s) => s.state.catchingUp);
  if (allWatching && !catching) {
    return { label, description: counted(`watching ${entries.length} namespace${entries.length === 1 ? '' : 's'}`), icon: { id: 'eye' }, collapsible: 'collapsed', contextValue: 'resource' };
  }
  if (allWatching && catching) worst = catching;
  const others = states.filter((s) => s !== worst && s.state.tone === worst.state.tone).length;
  return {
    label,
    description: counted(`${worst.entry.namespace}: ${worst.state.text}${others > 0 ? ` (+${others})` : ''}`),
    icon: { id: worst.state.icon, color: worst.state.color },
    collapsible: 'collapsed',
    contextValue: anyUnusable ? 'resource.error' : 'resource',
  };
}

/** A namespace grouping one watch's objects: the count in words as description ("5 pods"). */
export function presentNamespaceGroup(namespace: string, count: string): NodePresentation {
  return { label: namespace, description: count, icon: { id: 'symbol-namespace' }, collapsible: 'collapsed', contextValue: 'namespace' };
}

/**
 * A namespace of a first list in progress: its count so far, "listing", and a muted icon, never
 * the healthy look (a partial list is not the cluster's state).
 */
export function presentListingNamespace(namespace: string, count: string): NodePresentation {
  return { label: namespace, description: `listing · ${count} so far`, icon: { id: 'symbol-namespace', color: themeColors.grey }, collapsible: 'collapsed', contextValue: 'namespace.listing' };
}

/** An object received so far by a first list in progress: "listing" first, muted, and no actions (it is not in the cache yet). */
export function listingRow(row: NodePresentation): NodePresentation {
  return { ...row, description: row.description ? `listing · ${row.description}` : 'listing', icon: row.icon && { id: row.icon.id, color: themeColors.grey }, contextValue: 'listing' };
}

/** A watch that watches but has not confirmed since a resume that it is current: "catching up after 59 s away". */
function catchingUpState(state: WatchStateText, entry: WatchEntry, catchingUp: string | undefined): WatchStateText & { catchingUp?: boolean } {
  if (!catchingUp || entry.state.phase !== 'watching' || entry.error) return state;
  return { text: catchingUp, icon: 'history', color: themeColors.yellow, tone: 'busy', catchingUp: true };
}

/**
 * The key of what an object's row shows: equal keys present the same. Ages are left out (they
 * follow from time): the row is printed at time 0 for the key.
 */
export function objectStatusKey(obj: KubeObject, kind: string | undefined, columns?: readonly PrinterColumn[]): string {
  return rowKey(printObject(obj, kind, 0, columns));
}

/**
 * An object: its name (an Event: its reason), the kubectl fields that matter most as the
 * description (status first, see src/ui/printers), the status icon.
 */
export function presentObject(obj: KubeObject, name: string, kind: string | undefined, now: number, columns?: readonly PrinterColumn[]): NodePresentation {
  const row = printObject(obj, kind, now, columns);
  // A Pod: the generated parts of its name left out, and its status whole at the default width (V27).
  const title = row.label || (kind === 'Pod' && !columns ? podTitle(obj) : name);
  const statusOnly = kind === 'Pod' && !columns && !row.label && podStatusOnly(title, row.summary[0] ?? '');
  return {
    label: title,
    description: statusOnly ? row.summary[0] : describeRow(row),
    icon: { id: row.health.icon, color: toneColor(row.health.tone) },
    collapsible: 'none',
    // 'object.pod' and 'object.workload' offer Follow Logs, 'object.service' Port Forward; every object row matches /^object/.
    contextValue: kind === 'Pod' ? 'object.pod' : isWorkloadKind(kind) ? 'object.workload' : kind === 'Service' ? 'object.service' : 'object',
  };
}

/**
 * The tooltip of an object: kind and name, its `kubectl get` row as kubectl prints it (headers
 * over values, in a code block), what the printer noted (a condition's message), then the
 * columns `-o wide` adds as a table of column and value, namespace, uid, resourceVersion, creation.
 */
export function objectTooltip(obj: KubeObject, kind: string | undefined, now: number, columns?: readonly PrinterColumn[]): string {
  const printed = printObject(obj, kind, now, columns);
  const m = obj.metadata;
  const rows: [string, string][] = kubectlRows(printed);
  if (m.namespace) rows.push(['namespace', inlineCode(m.namespace)]);
  if (m.uid) rows.push(['uid', inlineCode(m.uid)]);
  if (m.resourceVersion) rows.push(['resourceVersion', inlineCode(m.resourceVersion)]);
  if (m.creationTimestamp) rows.push(['created', `${escapeMarkdown(m.creationTimestamp)} (${objectAge(m.creationTimestamp, now)} ago)`]);
  if (m.deletionTimestamp) rows.push(['deleting since', escapeMarkdown(m.deletionTimestamp)]);
  // One quoted paragraph per note (consecutive `>` lines would run together as one).
  const notes = (printed.notes ?? []).flatMap((n, i) => [...(i > 0 ? ['>'] : []), `> ${escapeMarkdown(n)}`]);
  return [
    `**${escapeMarkdown(kind ?? obj.kind ?? 'Object')}** ${inlineCode(m.name ?? '')}`,
    '',
    ...codeBlock(kubectlLines(printed)),
    '',
    ...(notes.length > 0 ? [...notes, ''] : []),
    '| | |',
    '|:--|:--|',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  ].join('\n');
}

/** Lines in a fenced code block whose fence no line can close. */
function codeBlock(lines: readonly string[]): string[] {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}text`, ...lines, fence];
}

/** kubectl's `-o wide` columns (the others are in the code block above) as table rows, values escaped. */
function kubectlRows(printed: PrintedRow): [string, string][] {
  return printed.columns.slice(printed.wideFrom).map((c, i) => [c, escapeMarkdown(printed.cells[printed.wideFrom + i] ?? '') || ' '] as [string, string]);
}

/** "N more…", which loads the next page when clicked. */
export function presentMore(remaining: number, pageSize: number): NodePresentation {
  return {
    label: `${remaining} more…`,
    description: remaining > pageSize ? `show the next ${pageSize}` : undefined,
    icon: { id: 'ellipsis' },
    collapsible: 'none',
    contextValue: 'more',
  };
}

/** What stands in for the children of a watch with no objects: why, or that there are none. */
export function emptyWatchMessage(entry: WatchEntry | undefined): { text: string; tone: Tone } {
  if (!entry) return { text: 'no longer watched', tone: 'idle' };
  if (!entry.informer && entry.error) return { text: entry.error, tone: 'error' };
  const { state } = entry;
  if (state.synced) return { text: 'no objects', tone: 'neutral' };
  switch (state.phase) {
    case 'connecting':
      return { text: state.reason === 'resolving the resource type' ? 'resolving the resource type…' : 'connecting…', tone: 'busy' };
    case 'listing':
      return { text: 'listing…', tone: 'busy' };
    case 'watching':
      return { text: 'no objects', tone: 'neutral' };
    case 'stopped':
      return { text: state.reason ? shorten(state.reason, 200) : 'stopped', tone: 'idle' };
    default:
      return { text: state.reason ? shorten(state.reason, 200) : state.phase, tone: state.phase === 'backing-off' ? 'warning' : 'error' };
  }
}

export function presentMessage(text: string, tone: Tone): NodePresentation {
  const icon = tone === 'error' ? 'error' : tone === 'warning' ? 'warning' : tone === 'busy' ? 'loading~spin' : 'info';
  const color = tone === 'error' || tone === 'warning' ? toneColor(tone) : tone === 'idle' ? themeColors.grey : undefined;
  return { label: text, icon: { id: icon, color }, collapsible: 'none', contextValue: 'message' };
}
