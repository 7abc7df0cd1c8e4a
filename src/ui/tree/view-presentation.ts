import { countText } from './object-count';
import { plural } from '../printers/cells';
import { resourceTypeName, type ResourceType } from '../../informer';
import type { CatalogState } from '../../catalog';
import type { WatchEntry } from '../../manager';
import { describeWatchState } from '../watch-state-text';
import { isNotAllowed, presentMessage, type NodePresentation } from './node-presentation';
import { worseTone, type Tone } from './tone';

/**
 * A context's top row (several contexts watched): its name, and its own health in a few words,
 * "5/5 watching" when all is well, else the count and the most alarming watch's state, drawn in
 * that state's icon and colour. Types the user may not watch are left out of the count.
 */
export function presentContext(name: string, entries: readonly WatchEntry[], now: number, removable: boolean): NodePresentation {
  const counted = entries.filter((e) => !isNotAllowed(e));
  const watching = counted.filter((e) => e.informer && e.state.phase === 'watching' && !e.error).length;
  const counts = `${watching}/${counted.length} watching`;
  let worst: { tone: Tone; text: string; icon: string; color?: string } | undefined;
  for (const e of counted) {
    const s = describeWatchState(e, now);
    if (s.tone === 'ok' || s.tone === 'neutral') continue;
    if (!worst || (worseTone(s.tone, worst.tone) === s.tone && s.tone !== worst.tone)) worst = { ...s, text: `${e.type ? resourceTypeName(e.type) : e.resource}: ${s.text}` };
  }
  return {
    label: name || 'current context',
    description: worst ? `${counts} · ${worst.text}` : counts,
    icon: worst ? { id: worst.icon, color: worst.color } : { id: 'server-environment' },
    collapsible: 'expanded',
    contextValue: removable ? 'context.removable' : 'context',
  };
}

/** "All resources": how many types the server offers, or that discovery is being read, or why it failed. */
export function presentCatalog(state: CatalogState): NodePresentation {
  const count = state.groups?.reduce((n, g) => n + g.types.length, 0);
  const description =
    state.problem && !state.groups ? state.problem : state.loading && !state.groups ? 'reading discovery…' : count !== undefined ? `${plural(count, 'type')} in ${plural(state.groups?.length ?? 0, 'API group')}` : undefined;
  return { label: 'All resources', description, icon: { id: 'library' }, collapsible: 'collapsed', contextValue: 'catalog' };
}

/** "Events": the warning count of the context's feed, or that opening it starts remembering. */
export function presentEvents(description: string): NodePresentation {
  return { label: 'Events', description, icon: { id: 'bell' }, collapsible: 'none', contextValue: 'events' };
}

/** An API group of the catalog: its name (`core` for ''), and how many of its types are watched. */
export function presentApiGroup(group: string, types: readonly ResourceType[], watched: number): NodePresentation {
  const count = `${types.length} type${types.length === 1 ? '' : 's'}`;
  return { label: group || 'core', description: watched > 0 ? `${count} · ${watched} watched` : count, icon: { id: 'symbol-package' }, collapsible: 'collapsed', contextValue: 'apiGroup' };
}

/**
 * A type of the catalog: its kubectl name, kind and version; `watched` with the eye and how many
 * objects its watches hold (`count`, once they hold any), else a click adds its watch.
 */
export function presentApiType(type: ResourceType, watched: boolean, count?: number): NodePresentation {
  const scope = type.namespaced ? '' : ' · cluster-scoped';
  const held = watched && count !== undefined ? ` · ${countText(count, type, type.resource)}` : '';
  return {
    label: resourceTypeName(type),
    description: `${type.kind} · ${type.version}${scope}${watched ? ' · watched' : ''}${held}`,
    icon: watched ? { id: 'eye' } : { id: 'symbol-class' },
    collapsible: 'none',
    contextValue: watched ? 'apiType.watched' : 'apiType',
  };
}

/** A note in place of children. */
export function presentNote(text: string, tone: Tone): NodePresentation {
  return { ...presentMessage(text, tone), contextValue: 'note' };
}
