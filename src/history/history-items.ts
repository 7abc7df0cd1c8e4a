import { clockTime as formatClockTime } from '../base/time-format';
import { humanDuration } from '../ui/age';
import { arrivalText } from './arrival';
import { summarizeChange, type ChangeSummary, type SummaryOptions } from './change-summary';
import type { ObjectHistory, VersionInfo } from './object-history';

/**
 * What the history quick picks show, VS Code-free: one row per version with its one-line
 * summary, and one row per gone object. Codicon ids are plain names (`edit`, `trash`); the
 * adapter writes them as `$(id)`.
 */

/** One version of one history, as a row. */
export interface VersionRow {
  readonly info: VersionInfo;
  /** Index in the history, oldest first; `index - 1` is the version before, when `index > 0`. */
  readonly index: number;
  readonly icon: string;
  /** What changed, in one line (a picker's detail line: long, so never where it pushes the rest off-screen). */
  readonly label: string;
  /** `rv 1234 · 5m ago`: what tells versions apart at a glance, first in a picker row. */
  readonly heading: string;
  /** `10:04:05 UTC · watch event`. */
  readonly description: string;
  /** Undefined for the first version kept. */
  readonly summary?: ChangeSummary;
}

/** Rows for every version of `history`, newest first, each summarised against the one before. */
export function versionRows(history: ObjectHistory, now: number, options: SummaryOptions = {}): VersionRow[] {
  const infos = history.infos();
  const objects = history.objects();
  const rows: VersionRow[] = [];
  for (let i = infos.length - 1; i >= 0; i--) {
    const summary = i > 0 ? summarizeChange(objects[i - 1], objects[i], options) : undefined;
    rows.push(versionRow(infos[i], i, summary, now));
  }
  return rows;
}

/** The row of one version; `summary` is against the version before (absent for the first kept). */
export function versionRow(info: VersionInfo, index: number, summary: ChangeSummary | undefined, now: number): VersionRow {
  return {
    info,
    index,
    icon: iconOf(info, summary),
    label: labelOf(info, index, summary),
    heading: `rv ${info.resourceVersion} · ${humanDuration(now - info.at)} ago`,
    description: `${clockTime(info.at)} · ${arrivalText(info.arrival)}`,
    summary,
  };
}

function iconOf(info: VersionInfo, summary: ChangeSummary | undefined): string {
  if (info.change === 'deleted') return 'trash';
  if (info.arrival === 'relist' || (info.arrival === 'list' && info.change === 'modified')) return 'sync';
  if (info.change === 'added') return info.arrival === 'list' ? 'circle-outline' : 'add';
  if (summary?.heartbeatOnly) return 'pulse';
  return 'edit';
}

function labelOf(info: VersionInfo, index: number, summary: ChangeSummary | undefined): string {
  const merged = info.heartbeats > 0 ? ` (${info.heartbeats + 1} heartbeats)` : '';
  if (info.change === 'deleted') {
    if (info.arrival === 'synthetic-delete') return 'deleted while the watch was away (final state unknown)';
    const changed = summary && summary.changes.length > 0 ? `: ${summary.text}` : '';
    return `deleted${changed}`;
  }
  if (info.change === 'added') {
    if (info.arrival === 'list') return 'first seen (initial list)';
    if (info.arrival === 'relist') return 'created while the watch was away';
    return 'created';
  }
  if (!summary) return index === 0 ? 'oldest version kept (earlier ones dropped)' : 'changed';
  const text = summary.text + merged;
  if (info.arrival === 'relist') return `changed while the watch was away: ${text}`;
  if (info.arrival === 'list') return `changed while not watched: ${text}`;
  return text;
}

/** `10:04:05 UTC`: the time of day an arrival happened, in the one time format (src/base/time-format.ts). */
export function clockTime(at: number): string {
  return formatClockTime(at);
}

/** `namespace/name`, or `name` for a cluster-scoped object. */
export function objectLabel(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** One object whose history is kept after it left the view. */
export interface GoneRow {
  readonly history: ObjectHistory;
  readonly icon: string;
  /** `namespace/name`. */
  readonly label: string;
  /** `Pod · deleted 3m ago` / `Pod · removed from the view 1m ago (no longer configured)`. */
  readonly description: string;
  /** `4 versions · last change: …`. */
  readonly detail: string;
}

/** The row of a gone history; `kind` from its watch, when known. */
export function goneRow(history: ObjectHistory, now: number, kind?: string): GoneRow {
  const gone = history.gone;
  const ago = gone ? `${humanDuration(now - gone.at)} ago` : '';
  const what = !gone ? 'live' : gone.why === 'deleted' ? `deleted ${ago}` : `removed from the view ${ago}${gone.reason ? ` (${gone.reason})` : ''}`;
  const n = history.size;
  return {
    history,
    icon: gone?.why === 'deleted' ? 'trash' : 'eye-closed',
    label: objectLabel(history.namespace, history.name),
    description: [kind, what].filter(Boolean).join(' · '),
    detail: `${n} version${n === 1 ? '' : 's'} kept · last: ${lastChangeText(history, now)}`,
  };
}

/** The row of an object with changes (the palette's "recently changed" pick). */
export function recentRow(history: ObjectHistory, now: number, kind?: string): GoneRow {
  if (history.gone) return goneRow(history, now, kind);
  const info = history.newestInfo();
  const n = history.size;
  return {
    history,
    icon: 'history',
    label: objectLabel(history.namespace, history.name),
    description: [kind, `changed ${humanDuration(now - info.at)} ago`].filter(Boolean).join(' · '),
    detail: `${n} version${n === 1 ? '' : 's'} kept · last: ${lastChangeText(history, now)}`,
  };
}

/** The label of a history's newest version, summarised against the one before. */
function lastChangeText(history: ObjectHistory, now: number): string {
  const infos = history.infos();
  const i = infos.length - 1;
  let summary: ChangeSummary | undefined;
  if (i > 0) {
    const [before, after] = history.objects(i - 1);
    summary = summarizeChange(before, after);
  }
  return versionRow(infos[i], i, summary, now).label;
}

/** The title of a diff between two versions (or a version and the live object). */
export function diffTitle(name: string, left: VersionInfo | undefined, right: VersionInfo | 'live'): string {
  const l = left ? `rv ${left.resourceVersion} (${clockTime(left.at)})` : 'nothing';
  const r = right === 'live' ? 'live' : `rv ${right.resourceVersion} (${clockTime(right.at)})`;
  return `${name}: ${l} ↔ ${r}`;
}
