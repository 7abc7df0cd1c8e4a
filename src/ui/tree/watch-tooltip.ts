import { protocolName } from '../protocol-name';
import { groupVersion, resourceTypeName } from '../../informer';
import type { WatchEntry } from '../../manager';
import { secondsUntil, timeAndAgo } from '../age';
import { describeWatchState } from '../watch-state-text';
import { escapeMarkdown, inlineCode } from './markdown';

const SOURCE_WORDS = { list: 'a list', event: 'an event', bookmark: 'a bookmark' } as const;

/**
 * The statistics of one watch as Markdown: what it watches, its state, and a table of the last
 * resourceVersion (with its source and time), last event, last bookmark, lists and relists,
 * watches opened, expiries, errors, objects, and the reason or error. Codicons (`$(eye)`) need
 * a MarkdownString with `supportThemeIcons`.
 */
export function watchTooltip(entry: WatchEntry, now: number): string {
  const { stats, state } = entry;
  const type = entry.type ? `${resourceTypeName(entry.type)} (${groupVersion(entry.type)}, ${entry.type.kind})` : entry.resource;
  const where = entry.type?.namespaced === false ? 'cluster-scoped' : entry.namespace ? `in ${inlineCode(entry.namespace)}` : 'in all namespaces';
  const context = entry.context ? `context ${inlineCode(entry.context)}` : 'the current context';
  const shown = describeWatchState(entry, now);
  const rv = stats.resourceVersion
    ? `${inlineCode(stats.resourceVersion)} from ${stats.resourceVersionSource ? SOURCE_WORDS[stats.resourceVersionSource] : '?'}, ${timeAndAgo(stats.resourceVersionAt, now)}`
    : 'none yet';
  const rows: [string, string][] = [
    ['resourceVersion', rv],
    ['last event', timeAndAgo(stats.lastEventAt, now)],
    ['last bookmark', timeAndAgo(stats.lastBookmarkAt, now)],
    ['lists', `${stats.lists} (${stats.relists} relist${stats.relists === 1 ? '' : 's'})`],
    ['watches opened', String(stats.watches)],
    ['expiries', String(stats.expiries)],
    ['errors', String(stats.errors)],
    ['objects', String(entry.informer?.store.size ?? stats.objects)],
    [`${state.phase} since`, timeAndAgo(state.since, now)],
  ];
  if (state.nextRetryAt !== undefined) rows.push(['next attempt', `in ${secondsUntil(state.nextRetryAt, now)} s`]);
  if (state.reason) rows.push(['reason', escapeMarkdown(state.reason)]);
  if (entry.protocol) rows.push(['connection', protocolName(entry.protocol)]);
  if (entry.error) rows.push([entry.errorKind ? `error (${entry.errorKind})` : 'error', escapeMarkdown(entry.error)]);
  return [
    `**${escapeMarkdown(type)}** ${where} · ${context}`,
    '',
    `$(${shown.icon.replace(/~spin$/, '')}) ${escapeMarkdown(shown.text)}${state.synced ? '' : ' (not synced yet)'}`,
    '',
    '| | |',
    '|:--|:--|',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  ].join('\n');
}
