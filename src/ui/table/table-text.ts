import type { WatchEntry } from '../../manager';
import { staleFor, type Staleness } from '../staleness';
import { shorten } from '../watch-state-text';
import type { TableState } from './table-protocol';

/** The panel's title: `pods · default`, `pods · all namespaces`, `nodes`, with the context when there is one. */
export function tableTitle(scope: TableState, namespace: string): string {
  const type = scope.group ? `${scope.resource}.${scope.group}` : scope.resource;
  const where = namespace ? ` · ${namespace}` : '';
  const context = scope.context ? ` (${scope.context})` : '';
  return `${type}${where}${context}`;
}

/**
 * The line over the grid when the table is not all live: which watches are stale and why (the
 * rows they concern carry a marker too), or that nothing watches the type. Undefined while live.
 */
export function tableBanner(scope: TableState, entries: readonly WatchEntry[], stalenessOf: (id: string) => Staleness | undefined, now: number): string | undefined {
  const type = scope.group ? `${scope.resource}.${scope.group}` : scope.resource;
  if (entries.length === 0) return `${type} is not watched on ${scope.context || 'the current context'}: watch it (Kube Watch: Choose Resources to Watch…) and this table fills.`;
  const stale = entries.map((e) => ({ e, s: stalenessOf(e.id) })).filter((x): x is { e: WatchEntry; s: Staleness } => x.s !== undefined);
  if (stale.length === 0) return undefined;
  const parts = stale.map(({ e, s }) => `${e.namespace ? `in ${e.namespace} ` : ''}${s.cause} for ${staleFor(s.since, now)}${s.reason ? ` (${shorten(s.reason, 100)})` : ''}`);
  const all = stale.length === entries.length;
  return `⚠ Stale: the watch of ${type} is ${parts.join('; ')}. ${all ? 'Every row' : 'Rows marked ⚠'} show${all ? 's' : ''} the last state seen, not the live object.`;
}
