import { humanDuration, timeAndAgo } from '../age';
import { shorten } from '../watch-state-text';
import type { Staleness } from './staleness-tracker';

/** How long an object has been stale, the way the tree counts it: "40 s", "3 min", "2 h". */
export function staleFor(since: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return humanDuration(now - since);
}

/** The start of a stale object's description: "stale 40 s · unreachable". */
export function staleDescription(staleness: Staleness, now: number): string {
  return `stale ${staleFor(staleness.since, now)} · ${staleness.cause}`;
}

/** One Markdown-free sentence for a tooltip: since when and why. */
export function staleExplanation(staleness: Staleness, now: number): string {
  const why = staleness.reason ? `: ${shorten(staleness.reason, 200)}` : '';
  return `Stale: not live since ${timeAndAgo(staleness.since, now)}, the watch is ${staleness.cause}${why}. What is shown is the last state seen.`;
}

/**
 * The banner over an object's YAML document, its diff or its description while its watch is
 * down: undefined while live (or within the grace: pass what `StalenessTracker.staleness` says).
 * One line, no newline, so a caller can put it in a CodeLens, a header or a comment.
 * `watchOf` names the watch when a text depends on several (a description's Events, its
 * EndpointSlices): "the watch of the Events of Pod web-1 is unreachable".
 */
export function staleBanner(staleness: Staleness | undefined, now: number, watchOf?: string): string | undefined {
  if (!staleness) return undefined;
  const why = staleness.reason ? `: ${shorten(staleness.reason, 120)}` : '';
  const watch = watchOf ? `the watch of ${watchOf}` : 'the watch';
  return `⚠ Stale for ${staleFor(staleness.since, now)} (since ${timeAndAgo(staleness.since, now).replace(/ \(.*\)$/, '')}): ${watch} is ${staleness.cause}${why}. This is the last state seen, not the live object.`;
}
