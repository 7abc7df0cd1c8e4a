/**
 * Injected faults and which request each applies to.
 * Invariants: faults are tried in injection order and the first matching one with uses left wins;
 * a use is consumed only when the fault is actually applied; a fault with no uses left is gone.
 * Watch-only fault types (errorEvent, closeImmediately, malformed) never match a list.
 * A 'list' fault also matches a streaming list ('watchlist': the request that lists on 1.32+).
 */
import type { Fault, FaultHandle, FaultMatch, FaultVerb } from './types';

interface Entry {
  fault: Fault;
  verb?: FaultVerb;
  resource?: string;
  left: number;
  hits: number;
}

const WATCH_ONLY: ReadonlySet<Fault['type']> = new Set(['errorEvent', 'closeImmediately', 'malformed']);
const LIST_ONLY: ReadonlySet<Fault['type']> = new Set(['listShape']);

export class FaultRegistry {
  private entries: Entry[] = [];

  add(fault: Fault, match: FaultMatch = {}): FaultHandle {
    const times = match.times ?? 1;
    if (!(times > 0)) throw new Error(`injectFault: times must be > 0 (got ${times})`);
    const entry: Entry = { fault: { ...fault }, verb: match.verb, resource: match.resource, left: times, hits: 0 };
    this.entries.push(entry);
    return {
      remove: () => {
        this.entries = this.entries.filter((e) => e !== entry);
      },
      get hits() {
        return entry.hits;
      },
    };
  }

  clear(): void {
    this.entries = [];
  }

  /** The fault to apply to a list/watch of `resource` (qualified name), consuming one use. */
  take(verb: FaultVerb, resource: string): Fault | undefined {
    const entry = this.entries.find(
      (e) =>
        (e.verb === undefined || e.verb === verb || (e.verb === 'list' && verb === 'watchlist')) &&
        (e.resource === undefined || e.resource === resource) &&
        (verb !== 'list' || !WATCH_ONLY.has(e.fault.type)) &&
        (verb === 'list' || !LIST_ONLY.has(e.fault.type)),
    );
    if (!entry) return undefined;
    entry.hits++;
    entry.left--;
    if (entry.left <= 0) this.entries = this.entries.filter((e) => e !== entry);
    return entry.fault;
  }
}
