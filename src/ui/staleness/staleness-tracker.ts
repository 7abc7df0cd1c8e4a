import type { InformerPhase } from '../../informer';
import type { WatchEntry } from '../../manager';

/** A watch down for this long or less is not stale yet: a relist or a quick re-watch at a timeout must not flicker. */
export const STALE_GRACE_MS = 1000;

/** Why a watch's objects are stale, in the words the tree shows. */
export type StaleCause = 'reconnecting' | 'relisting' | 'unreachable' | 'unauthorized' | 'credentials failed' | 'forbidden' | 'not found' | 'stopped' | 'paused' | 'unusable';

/** Since when, and why, the objects of one watch are no longer live. */
export interface Staleness {
  /** When the watch stopped being live (epoch ms on the manager's clock). */
  readonly since: number;
  /** The most telling phase of the outage so far (see `StalenessTracker`). */
  readonly cause: StaleCause;
  /** The server's message or the network error behind `cause`, if any. */
  readonly reason?: string;
}

/** What the tracker reads of a watch: a manager entry, or any watch with an id and a state (a description's ad-hoc watches). */
export type WatchLike = Pick<WatchEntry, 'id' | 'state' | 'informer' | 'error'>;

/** Phases that say why a watch is down; the others (retrying, relisting) only say that it tries again. */
const TELLING = new Set<StaleCause>(['unreachable', 'unauthorized', 'credentials failed', 'forbidden', 'not found', 'stopped', 'paused', 'unusable']);

/**
 * Remembers, per watch entry, since when its objects have not been live, across the retries in
 * between (an outage goes unreachable → backing-off → connecting → unreachable…; each sets a
 * new phase and `since`, but the objects have been stale since the first).
 *
 * - A watch is live exactly while its informer's phase is `watching`. The outage starts at the
 *   first other phase seen, dated by that state's `since` (never later than when it was seen).
 * - The cause is the latest telling phase (unreachable, unauthorized, forbidden, not found,
 *   stopped, paused, an entry without an informer); retries and relists keep it. Before any
 *   telling phase it is "reconnecting" (backing off, connecting) or "relisting" (listing).
 * - `staleness(id, now)` is undefined during the first `STALE_GRACE_MS` of an outage, so a
 *   quick re-watch never shows; it is defined from then on until the watch is seen watching.
 * - An entry that was never live (first connect) is stale as well once the grace is over: its
 *   objects (if any) come from no live watch.
 *
 * Pure bookkeeping on the injected clock's times: no timers. It knows only what `observe`
 * showed it, so it must see every entries snapshot the manager publishes.
 */
export class StalenessTracker {
  private readonly outages = new Map<string, Staleness>();

  /** Updates from a snapshot of all entries; entries not in it are forgotten. */
  observe(entries: readonly WatchLike[], now: number): void {
    const seen = new Set<string>();
    for (const entry of entries) {
      seen.add(entry.id);
      this.observeOne(entry, now);
    }
    for (const id of [...this.outages.keys()]) if (!seen.has(id)) this.outages.delete(id);
  }

  /** The watch's outage, once it has lasted more than the grace; undefined while live or within the grace. */
  staleness(id: string, now: number): Staleness | undefined {
    const outage = this.outages.get(id);
    return outage && now - outage.since > STALE_GRACE_MS ? outage : undefined;
  }

  /** The outage whether or not the grace is over (to schedule the moment it ends). */
  outage(id: string): Staleness | undefined {
    return this.outages.get(id);
  }

  /** Ids of the watches in an outage (stale or within the grace). */
  down(): string[] {
    return [...this.outages.keys()];
  }

  clear(): void {
    this.outages.clear();
  }

  private observeOne(entry: WatchLike, now: number): void {
    const { state } = entry;
    if (state.phase === 'watching' && (entry.informer || !entry.error)) {
      this.outages.delete(entry.id);
      return;
    }
    const cause = causeOf(entry, state.phase, state.reason);
    const previous = this.outages.get(entry.id);
    const since = previous?.since ?? Math.min(state.since, now);
    if (previous && !TELLING.has(cause) && TELLING.has(previous.cause)) {
      if (previous.since !== since) this.outages.set(entry.id, { ...previous, since });
      return;
    }
    const reason = !entry.informer && entry.error ? entry.error : state.reason;
    this.outages.set(entry.id, { since, cause, reason });
  }
}

function causeOf(entry: WatchLike, phase: InformerPhase, reason: string | undefined): StaleCause {
  if (!entry.informer && entry.error) return 'unusable';
  switch (phase) {
    case 'backing-off':
    case 'connecting':
    case 'watching':
      return 'reconnecting';
    case 'listing':
      return 'relisting';
    case 'not-found':
      return 'not found';
    case 'credentials-failed':
      return 'credentials failed';
    case 'stopped':
      return reason && /paus/i.test(reason) ? 'paused' : 'stopped';
    default:
      return phase;
  }
}
