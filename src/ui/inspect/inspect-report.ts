import { protocolName } from '../protocol-name';
import type { ResourceVersionSource } from '../../informer';
import type { WatchEntry } from '../../manager';
import { oneLine } from '../log/log-line';
import { formatDuration, formatInstant, formatInstantWithAge } from '../log/time-text';
import { escapeMarkdown, markdownTable } from '../status/markdown-text';
import type { WatchHistory } from './inspect-history';

/** The Inspect Resource Version report, in the forms the command shows and copies. */
export interface InspectReport {
  /** "kind-dev/pods in default: resourceVersion 48213", or "Resource versions of 12 watches". */
  readonly title: string;
  /** Markdown (tables, headings); every value from outside is escaped. */
  readonly markdown: string;
  /** The same facts as aligned plain text, for the clipboard. Starts with the title line. */
  readonly text: string;
  /** `text` without its title line: for a dialog that shows the title itself. */
  readonly detail: string;
  /** One watch only: its last seen resourceVersion, absent before the first list. */
  readonly resourceVersion?: string;
  readonly watches: number;
}

/** One fact of a watch: a field name and its value as plain text. */
export interface ReportField {
  readonly name: string;
  readonly value: string;
}

export type HistoryLookup = (entryId: string) => WatchHistory | undefined;

const noHistory: HistoryLookup = () => undefined;

/**
 * A report for one watch (`entries` of length 1) or several: the last seen resourceVersion,
 * where it came from (the list, a watch event, a bookmark), when, the last bookmark, and the
 * counters. Times are ISO 8601 UTC with their age at `now`. Nothing in it is a credential: it is
 * built from entry states, statistics and lifecycle facts only.
 */
export function inspectReport(entries: readonly WatchEntry[], now: number, history: HistoryLookup = noHistory): InspectReport {
  if (entries.length === 1) {
    const entry = entries[0];
    const fields = reportFields(entry, now, history(entry.id));
    const rv = entry.stats.resourceVersion;
    // The dialog's font is proportional: padding would not line up, so the detail is unpadded.
    const generated = `Generated ${formatInstant(now)}`;
    const detail = [fields.map((x) => `${x.name}: ${x.value}`).join('\n'), generated].join('\n');
    return {
      title: `${entry.label}: ${rv ? `resourceVersion ${rv}` : 'no resourceVersion yet'}`,
      markdown: [`### ${escapeMarkdown(entry.label)}`, fieldsMarkdown(fields), generatedAt(now)].join('\n\n'),
      text: `${entry.label}\n${fieldsText(fields)}\n${generated}`,
      detail,
      resourceVersion: rv,
      watches: 1,
    };
  }
  const sorted = [...entries].sort((a, b) => a.label.localeCompare(b.label));
  const title = entries.length === 0 ? 'No watches to inspect' : `Resource versions of ${entries.length} watches`;
  const summary = markdownTable(
    ['Watch', 'State', 'resourceVersion', 'From', 'Seen'],
    ['left', 'left', 'right', 'left', 'left'],
    sorted.map((e) => [
      escapeMarkdown(e.label),
      escapeMarkdown(stateWord(e)),
      escapeMarkdown(e.stats.resourceVersion ?? '—'),
      escapeMarkdown(e.stats.resourceVersionSource ? sourceWord(e.stats.resourceVersionSource) : '—'),
      escapeMarkdown(e.stats.resourceVersionAt !== undefined ? formatInstantWithAge(e.stats.resourceVersionAt, now) : '—'),
    ]),
  );
  const markdown = [
    `## ${escapeMarkdown(title)}`,
    entries.length > 0 ? summary : 'Nothing is configured to watch.',
    ...sorted.map((e) => `### ${escapeMarkdown(e.label)}\n\n${fieldsMarkdown(reportFields(e, now, history(e.id)))}`),
    generatedAt(now),
  ].join('\n\n');
  const detail = [`Generated ${formatInstant(now)}`, ...sorted.map((e) => `\n${e.label}\n${fieldsText(reportFields(e, now, history(e.id)))}`)].join('\n');
  return { title, markdown, text: `${title}\n${detail}`, detail, watches: entries.length };
}

/** Every fact the report states about one watch, in reading order. */
export function reportFields(entry: WatchEntry, now: number, history: WatchHistory | undefined): ReportField[] {
  const { stats, state } = entry;
  const f: ReportField[] = [];
  const add = (name: string, value: string) => f.push({ name, value });
  add('State', `${stateWord(entry)}${state.reason ? `: ${oneLine(state.reason, 300)}` : ''}, since ${formatInstantWithAge(state.since, now)}${state.synced ? '' : ' (not synced yet)'}`);
  if (state.nextRetryAt !== undefined && state.phase !== 'watching') add('Next attempt', formatInstantWithAge(state.nextRetryAt, now));
  if (entry.error) add('Problem', oneLine(entry.error, 300));
  if (entry.protocol) add('Connection', `${protocolName(entry.protocol)} to the cluster`);
  add('Last seen resourceVersion', stats.resourceVersion ?? 'none yet (no list has completed)');
  if (stats.resourceVersion !== undefined) {
    add('Came from', stats.resourceVersionSource ? sourceText(stats.resourceVersionSource, history) : 'unknown');
    if (stats.resourceVersionAt !== undefined) add('Seen at', formatInstantWithAge(stats.resourceVersionAt, now));
  }
  if (history?.bookmark) add('Last bookmark', `resourceVersion ${history.bookmark.resourceVersion}, ${formatInstantWithAge(history.bookmark.at, now)}`);
  else add('Last bookmark', stats.lastBookmarkAt !== undefined ? formatInstantWithAge(stats.lastBookmarkAt, now) : 'none yet');
  add('Last event', stats.lastEventAt !== undefined ? formatInstantWithAge(stats.lastEventAt, now) : 'none yet');
  if (history?.watch && state.phase === 'watching') {
    add('Watch', `opened at resourceVersion ${history.watch.resourceVersion || '(none)'}, ${formatInstantWithAge(history.watch.at, now)}, timeoutSeconds ${history.watch.timeoutSeconds}`);
  }
  if (history?.list) {
    const l = history.list;
    add(l.relist ? 'Last relist' : 'Last list', `resourceVersion ${l.resourceVersion}, ${count(l.items, 'object')} in ${count(l.pages, 'page')}, ${formatDuration(l.durationMs)}, ${formatInstantWithAge(l.at, now)}`);
  }
  if (history?.relist) add('Last relist reason', `${oneLine(history.relist.reason, 300)}, ${formatInstantWithAge(history.relist.at, now)}`);
  if (history?.expired) {
    const x = history.expired;
    add('Last expiry', `resourceVersion ${x.resourceVersion ?? '(none)'} too old, ${formatInstantWithAge(x.at, now)}: ${oneLine(x.message, 300)}`);
  }
  if (history?.restart) add('Last restart', `${oneLine(history.restart.reason, 300)}, ${formatInstantWithAge(history.restart.at, now)}`);
  add('Objects', stats.objects.toLocaleString('en-US'));
  add('Lists', `${stats.lists.toLocaleString('en-US')} (${count(stats.relists, 'relist')})`);
  add('Watches opened', stats.watches.toLocaleString('en-US'));
  add('Expiries', stats.expiries.toLocaleString('en-US'));
  add('Errors', stats.errors.toLocaleString('en-US'));
  add('Events delivered', stats.events.toLocaleString('en-US'));
  return f;
}

function stateWord(entry: WatchEntry): string {
  return entry.state.phase === 'not-found' ? 'not found' : entry.state.phase;
}

function sourceWord(source: ResourceVersionSource): string {
  switch (source) {
    case 'list':
      return 'list';
    case 'event':
      return 'watch event';
    case 'bookmark':
      return 'bookmark';
  }
}

function sourceText(source: ResourceVersionSource, history: WatchHistory | undefined): string {
  switch (source) {
    case 'list':
      return history?.list ? `the ${history.list.relist ? 'relist' : 'list'} (${count(history.list.items, 'object')})` : 'a list';
    case 'event':
      return 'a watch event (an add, update or delete)';
    case 'bookmark':
      return 'a bookmark (the server confirmed progress without a change)';
  }
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

function fieldsMarkdown(fields: readonly ReportField[]): string {
  return markdownTable(['', ''], ['left', 'left'], fields.map((x) => [`**${escapeMarkdown(x.name)}**`, escapeMarkdown(x.value)]));
}

function fieldsText(fields: readonly ReportField[]): string {
  const width = Math.max(...fields.map((x) => x.name.length)) + 1;
  return fields.map((x) => `  ${`${x.name}:`.padEnd(width + 1)} ${x.value}`).join('\n');
}

function generatedAt(now: number): string {
  return `_Generated ${escapeMarkdown(formatInstant(now))}_`;
}
