import type { WatchEntry } from '../../manager';

/** The state a paused watch is drawn in: stopped, by a pause, since `at` (its objects turn stale). */
function pausedEntry(entry: WatchEntry, at: number): WatchEntry {
  return { ...entry, error: undefined, state: { phase: 'stopped', reason: 'paused', since: at, synced: entry.state.synced } };
}

/**
 * The tree while watching is paused: frozen as it was, its watches drawn "paused" and their
 * objects stale (the README's promise), never emptied by the manager stopping. On resume the
 * rows stay until each watch has listed again; then what the list no longer has goes.
 *
 * Invariant: while frozen, the model takes no change from the manager (no entries, objects or
 * lifecycle); `entry(id)` answers for every watch the tree showed when it froze.
 */
export class TreeFreeze {
  private frozen: Map<string, WatchEntry> | undefined;
  /** Watches whose objects are kept from before the pause until their first list after it. */
  private readonly reconciling = new Set<string>();

  get active(): boolean {
    return this.frozen !== undefined;
  }

  /** The paused form of a watch the tree froze with. */
  entry(id: string): WatchEntry | undefined {
    return this.frozen?.get(id);
  }

  /** Freezes with the watches shown now; returns them in their paused form. */
  freeze(shown: Iterable<WatchEntry>, at: number): WatchEntry[] {
    this.frozen = new Map([...shown].map((e) => [e.id, pausedEntry(e, at)]));
    this.reconciling.clear();
    return [...this.frozen.values()];
  }

  /** Thaws: every watch shown keeps its objects until it has listed again (`listed`). */
  thaw(shown: Iterable<string>): void {
    this.frozen = undefined;
    for (const id of shown) this.reconciling.add(id);
  }

  /** True once per watch that lists for the first time after a thaw: drop what its list no longer has. */
  listed(id: string): boolean {
    return this.reconciling.delete(id);
  }

  /** Forgets watches no longer shown. */
  retain(shown: ReadonlySet<string>): void {
    for (const id of this.reconciling) if (!shown.has(id)) this.reconciling.delete(id);
  }
}
