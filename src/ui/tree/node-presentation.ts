import type { KubeObject } from '../../informer';
import type { WatchEntry } from '../../manager';
import { objectAge } from '../age';
import { objectStatus } from '../object-status';
import { describeWatchState, shorten } from '../watch-state-text';
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

/** A resource node showing one watch: its state as description and icon. */
export function presentWatch(label: string, entry: WatchEntry, now: number, contextValue: string): NodePresentation {
  const state = describeWatchState(entry, now);
  return {
    label,
    description: state.text,
    icon: { id: state.icon, color: state.color },
    collapsible: 'collapsed',
    contextValue: !entry.informer && entry.error ? `${contextValue}.error` : contextValue,
  };
}

/**
 * A resource node over several watches (one per namespace): "watching 3 namespaces" when all
 * watch, else the most alarming one's text, prefixed with its namespace.
 */
export function presentWatchGroup(label: string, entries: readonly WatchEntry[], now: number): NodePresentation {
  const states = entries.map((entry) => ({ entry, state: describeWatchState(entry, now) }));
  let worst = states[0];
  for (const s of states) if (s.state.tone !== worst.state.tone && worseTone(s.state.tone, worst.state.tone) === s.state.tone) worst = s;
  const allWatching = states.every((s) => s.entry.state.phase === 'watching' && !s.entry.error);
  const anyUnusable = entries.some((e) => !e.informer && e.error);
  if (allWatching) {
    return { label, description: `watching ${entries.length} namespaces`, icon: { id: 'eye' }, collapsible: 'collapsed', contextValue: 'resource' };
  }
  const others = states.filter((s) => s !== worst && s.state.tone === worst.state.tone).length;
  return {
    label,
    description: `${worst.entry.namespace}: ${worst.state.text}${others > 0 ? ` (+${others})` : ''}`,
    icon: { id: worst.state.icon, color: worst.state.color },
    collapsible: 'collapsed',
    contextValue: anyUnusable ? 'resource.error' : 'resource',
  };
}

/** A namespace grouping one watch's objects: the count as description. */
export function presentNamespaceGroup(namespace: string, objects: number): NodePresentation {
  return { label: namespace, description: String(objects), icon: { id: 'symbol-namespace' }, collapsible: 'collapsed', contextValue: 'namespace' };
}

/** The status key of an object: equal keys present the same (the age aside, which follows from time). */
export function objectStatusKey(obj: KubeObject, kind: string | undefined): string {
  const s = objectStatus(obj, kind);
  return `${s.text}\u0000${s.icon}\u0000${s.color ?? ''}`;
}

/** An object: name, "status · age", status icon. */
export function presentObject(obj: KubeObject, name: string, kind: string | undefined, now: number): NodePresentation {
  const s = objectStatus(obj, kind);
  const age = objectAge(obj.metadata.creationTimestamp, now);
  const description = [s.text, age].filter((part) => part !== '').join(' · ');
  return { label: name, description, icon: { id: s.icon, color: s.color }, collapsible: 'none', contextValue: 'object' };
}

/** The tooltip of an object: kind, name, namespace, uid, resourceVersion, creation, status. */
export function objectTooltip(obj: KubeObject, kind: string | undefined, now: number): string {
  const s = objectStatus(obj, kind);
  const m = obj.metadata;
  const rows: [string, string][] = [];
  if (m.namespace) rows.push(['namespace', inlineCode(m.namespace)]);
  if (m.uid) rows.push(['uid', inlineCode(m.uid)]);
  if (m.resourceVersion) rows.push(['resourceVersion', inlineCode(m.resourceVersion)]);
  if (m.creationTimestamp) rows.push(['created', `${escapeMarkdown(m.creationTimestamp)} (${objectAge(m.creationTimestamp, now)} ago)`]);
  if (m.deletionTimestamp) rows.push(['deleting since', escapeMarkdown(m.deletionTimestamp)]);
  if (s.text) rows.push(['status', escapeMarkdown(s.text)]);
  return [`**${escapeMarkdown(kind ?? obj.kind ?? 'Object')}** ${inlineCode(m.name ?? '')}`, '', '| | |', '|:--|:--|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
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
