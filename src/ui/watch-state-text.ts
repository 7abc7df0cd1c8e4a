import { CHECKING_ACCESS, NOT_ALLOWED, type WatchEntry } from '../manager';
import { secondsUntil } from './age';
import { themeColors, type Tone } from './tree/tone';

/** What a watch is doing, in a few words, with a codicon and an optional theme colour. */
export interface WatchStateText {
  /** e.g. "watching · rv 48213", "reconnecting in 4 s", "expired, relisting", "forbidden". */
  text: string;
  /** A codicon id, e.g. `eye`, `sync~spin`, `error`. */
  icon: string;
  /** A theme colour id; absent for the calm states (watching, connecting, listing). */
  color?: string;
  /** How alarming it is; lets a caller pick the worst of several watches. */
  tone: Tone;
}

/** Longest reason quoted in a description; the tooltip has the whole text. */
const MAX_REASON = 80;

/**
 * The description of a watch's state for the tree and the status bar. Pure: the same entry and
 * `now` give the same text. Precedence: a configuration problem that left the entry without an
 * informer (kubeconfig, context, unknown type), then the informer's phase; a kubeconfig reload
 * problem on a running informer is appended to its phase.
 */
export function describeWatchState(entry: WatchEntry, now: number): WatchStateText {
  if (!entry.informer && entry.error) {
    switch (entry.errorKind) {
      case 'kubeconfig':
        return { text: `kubeconfig: ${shorten(entry.error)}`, icon: 'error', color: themeColors.red, tone: 'error' };
      case 'context':
        return { text: `context: ${shorten(entry.error)}`, icon: 'error', color: themeColors.red, tone: 'error' };
      case 'unknown-resource':
        return { text: 'unknown resource type', icon: 'question', color: themeColors.red, tone: 'error' };
      case 'not-allowed':
        // Quiet: nothing will heal by waiting, and nothing is stale (no watch ever ran).
        return { text: NOT_ALLOWED, icon: 'circle-slash', color: themeColors.grey, tone: 'idle' };
      default:
        break; // discovery problems show as the phase they put the entry in
    }
  }
  const base = describePhase(entry, now);
  if (entry.informer && entry.error) {
    return { text: `${base.text} · kubeconfig unreadable`, icon: base.tone === 'error' ? base.icon : 'warning', color: base.tone === 'error' ? base.color : themeColors.yellow, tone: base.tone === 'error' ? 'error' : 'warning' };
  }
  return base;
}

function describePhase(entry: WatchEntry, now: number): WatchStateText {
  const { state } = entry;
  const reason = state.reason ? shorten(state.reason) : '';
  switch (state.phase) {
    case 'connecting':
      if (state.reason === CHECKING_ACCESS) return { text: 'checking access', icon: 'loading~spin', tone: 'busy' };
      return { text: state.reason === 'resolving the resource type' ? 'resolving resource type' : 'connecting', icon: 'loading~spin', tone: 'busy' };
    case 'listing':
      if (state.reason === 'expired') return { text: 'expired, relisting', icon: 'sync~spin', tone: 'busy' };
      return { text: state.synced || state.reason ? 'relisting' : 'listing', icon: 'sync~spin', tone: 'busy' };
    case 'watching': {
      const rv = entry.stats.resourceVersion ?? entry.informer?.resourceVersion;
      return { text: rv ? `watching · rv ${rv}` : 'watching', icon: 'eye', tone: 'ok' };
    }
    case 'backing-off': {
      const text = state.nextRetryAt !== undefined && state.nextRetryAt > now ? `reconnecting in ${secondsUntil(state.nextRetryAt, now)} s` : 'reconnecting';
      return { text, icon: 'sync', color: themeColors.yellow, tone: 'warning' };
    }
    case 'unreachable':
      return { text: withNextTry(reason ? `unreachable: ${reason}` : 'unreachable', state.nextRetryAt, now), icon: 'debug-disconnect', color: themeColors.red, tone: 'error' };
    case 'unauthorized':
      return { text: withNextTry('unauthorized', state.nextRetryAt, now), icon: 'lock', color: themeColors.red, tone: 'error' };
    case 'credentials-failed':
      return { text: withNextTry(reason ? `credentials failed: ${reason}` : 'credentials failed', state.nextRetryAt, now), icon: 'key', color: themeColors.red, tone: 'error' };
    case 'forbidden':
      return { text: withNextTry('forbidden', state.nextRetryAt, now), icon: 'lock', color: themeColors.red, tone: 'error' };
    case 'not-found':
      return { text: withNextTry(reason ? `not found: ${reason}` : 'not found', state.nextRetryAt, now), icon: 'question', color: themeColors.red, tone: 'error' };
    case 'stopped':
      if (state.reason && /paus/i.test(state.reason)) return { text: 'paused', icon: 'stop-circle', color: themeColors.grey, tone: 'idle' };
      return { text: 'stopped', icon: 'circle-slash', color: themeColors.grey, tone: 'idle' };
  }
}

/** A failure's text with when the informer tries again: "unreachable: … · next try in 4 s". */
function withNextTry(text: string, nextRetryAt: number | undefined, now: number): string {
  return nextRetryAt !== undefined && nextRetryAt > now ? `${text} · next try in ${secondsUntil(nextRetryAt, now)} s` : text;
}

/** The first line of `text`, cut to `max` characters with an ellipsis. */
export function shorten(text: string, max = MAX_REASON): string {
  const line = text.split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
