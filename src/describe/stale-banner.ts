import type { InformerState } from '../informer';

/** A watch down for less than this is not yet worth a banner (a relist, a quick reconnect). */
export const STALE_AFTER_MS = 1000;

/** One watch a description depends on: what it is for and its state. */
export interface WatchDependency {
  readonly what: string;
  readonly state: InformerState;
}

/**
 * The banner over a description whose watches are down: undefined while every watch is
 * watching (or down for less than a second); else one line per problem, saying since when
 * the text may be out of date. A minimal one of our own: no shared staleness module has landed.
 */
export function staleBanner(dependencies: readonly WatchDependency[], now: number): string[] | undefined {
  const down = dependencies.filter((d) => d.state.phase !== 'watching' && now - d.state.since >= STALE_AFTER_MS);
  if (down.length === 0) return undefined;
  return down.map((d) => {
    const why = d.state.reason ? `: ${d.state.reason}` : '';
    return `⚠ STALE: the watch of ${d.what} has been ${d.state.phase} since ${new Date(d.state.since).toISOString().slice(11, 19)} UTC${why}; what follows may be out of date.`;
  });
}
