import type { InformerPhase } from '../../informer';
import type { WatchEntry } from '../../manager';

/** A failed attempt's phase: the informer is waiting before it tries again. */
export type FailurePhase = Extract<InformerPhase, 'backing-off' | 'unreachable' | 'unauthorized' | 'credentials-failed' | 'forbidden' | 'not-found'>;

/** Failures that turn the status bar red once they last: refusals and an unreachable server. */
export type SevereFailurePhase = Extract<FailurePhase, 'unreachable' | 'unauthorized' | 'credentials-failed' | 'forbidden'>;

export function asFailurePhase(phase: InformerPhase): FailurePhase | undefined {
  switch (phase) {
    case 'backing-off':
    case 'unreachable':
    case 'unauthorized':
    case 'credentials-failed':
    case 'forbidden':
    case 'not-found':
      return phase;
    default:
      return undefined;
  }
}

export function isSevere(phase: FailurePhase): phase is SevereFailurePhase {
  return phase === 'unreachable' || phase === 'unauthorized' || phase === 'credentials-failed' || phase === 'forbidden';
}

/** One entry's current run of failures. */
export interface Trouble {
  /** When the run's first failure began (epoch ms on the manager's clock). */
  readonly since: number;
  /** The phase of the most recent failure. While the informer retries (connecting, listing), it stays. */
  readonly phase: FailurePhase;
  /**
   * When the run of severe failures that the last failure belongs to began: set while the
   * latest failures were all unreachable, unauthorized or forbidden, unset after a milder one.
   */
  readonly severeSince?: number;
  /** The latest failure's reason (server message or network error), if any. */
  readonly reason?: string;
}

/**
 * Remembers, per entry, since when it has been failing, across the retries in between.
 *
 * An informer's state alone cannot say how long it has been failing: every failed attempt sets
 * the phase anew (with a new `since` and `nextRetryAt`), and between two failures it passes
 * through `connecting` or `listing` for the retry. The status bar's "for more than 30 s" rules
 * need the whole run, so the tracker keeps it:
 *
 * - A run starts at the first failure phase seen (backing-off, unreachable, unauthorized,
 *   forbidden, not-found), dated by that state's `since`.
 * - `connecting` and `listing` inside a run are retries: the run goes on ("connecting after a
 *   failure"). Outside a run they are an ordinary start or relist, not trouble.
 * - The run ends when the entry is seen `watching`, or `stopped`, or is gone.
 *
 * Pure bookkeeping: no timers; it knows only what `observe` showed it, so it must see every
 * entries snapshot the manager publishes (the manager publishes each phase change).
 */
export class TroubleTracker {
  private readonly runs = new Map<string, Trouble>();

  /** Updates the runs from a snapshot of all entries; entries not in it are forgotten. */
  observe(entries: readonly WatchEntry[], now: number): void {
    const seen = new Set<string>();
    for (const entry of entries) {
      seen.add(entry.id);
      this.observeOne(entry, now);
    }
    for (const id of [...this.runs.keys()]) if (!seen.has(id)) this.runs.delete(id);
  }

  /** The entry's current run of failures, if it is in one. */
  get(id: string): Trouble | undefined {
    return this.runs.get(id);
  }

  clear(): void {
    this.runs.clear();
  }

  private observeOne(entry: WatchEntry, now: number): void {
    const { state } = entry;
    if (state.phase === 'watching' || state.phase === 'stopped') {
      this.runs.delete(entry.id);
      return;
    }
    const failure = asFailurePhase(state.phase);
    if (!failure) return; // connecting or listing: a retry inside a run, or no trouble at all
    const at = Math.min(state.since, now);
    const run = this.runs.get(entry.id);
    const severeSince = isSevere(failure) ? (run?.severeSince ?? at) : undefined;
    this.runs.set(entry.id, { since: run?.since ?? at, phase: failure, severeSince, reason: state.reason });
  }
}
