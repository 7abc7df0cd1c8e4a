import type { TimedLifecycleEvent } from '../../informer';

/** What the lifecycle said last about one watch's resourceVersions; every field is optional. */
export interface WatchHistory {
  /** The last BOOKMARK: its resourceVersion and when it arrived. */
  bookmark?: { resourceVersion: string; at: number };
  /** The last complete list. `relist` is true for every list after the first. */
  list?: { resourceVersion: string; items: number; pages: number; durationMs: number; at: number; relist: boolean };
  /** Why the last relist happened ("expired", a repeated error, a refusal). */
  relist?: { reason: string; at: number };
  /** The last 410: the resourceVersion that was too old and the server's message. */
  expired?: { resourceVersion?: string; message: string; at: number };
  /** The last watch opened: from which resourceVersion and with which timeout. */
  watch?: { resourceVersion: string; timeoutSeconds: number; at: number };
  /** The last restart request and its reason. */
  restart?: { reason: string; at: number };
}

const remembered: ReadonlySet<TimedLifecycleEvent['type']> = new Set(['bookmark', 'list-started', 'list-done', 'relist', 'expired', 'watch-opened', 'restart']);

/**
 * Remembers, per entry, the lifecycle facts the Inspect Resource Version report needs and the
 * informer's statistics do not keep (the last bookmark's resourceVersion, why the last relist
 * happened, the last expiry). Fed by `record` from the manager's lifecycle stream; entries the
 * manager no longer has are dropped with `retain`. No timers, no `vscode`.
 */
export class InspectHistory {
  private readonly byEntry = new Map<string, WatchHistory>();
  /** A list-started seen and its list-done not yet: whether it is a relist. */
  private readonly pendingRelist = new Map<string, boolean>();

  /**
   * Takes one lifecycle event. A `stopped` informer's history is dropped: the entry's next
   * informer (another context, other selectors) starts from nothing.
   */
  record(entryId: string, event: TimedLifecycleEvent): void {
    if (event.type === 'stopped') {
      this.byEntry.delete(entryId);
      this.pendingRelist.delete(entryId);
      return;
    }
    if (!remembered.has(event.type)) return;
    const h = this.of(entryId);
    switch (event.type) {
      case 'bookmark':
        h.bookmark = { resourceVersion: event.resourceVersion, at: event.at };
        break;
      case 'list-started':
        this.pendingRelist.set(entryId, event.relist);
        break;
      case 'list-done':
        h.list = {
          resourceVersion: event.resourceVersion,
          items: event.items,
          pages: event.pages,
          durationMs: event.durationMs,
          at: event.at,
          relist: this.pendingRelist.get(entryId) ?? h.list !== undefined,
        };
        this.pendingRelist.delete(entryId);
        break;
      case 'relist':
        h.relist = { reason: event.reason, at: event.at };
        break;
      case 'expired':
        h.expired = { resourceVersion: event.resourceVersion, message: event.message, at: event.at };
        break;
      case 'watch-opened':
        h.watch = { resourceVersion: event.resourceVersion, timeoutSeconds: event.timeoutSeconds, at: event.at };
        break;
      case 'restart':
        h.restart = { reason: event.reason, at: event.at };
        break;
      default:
        break;
    }
  }

  get(entryId: string): WatchHistory | undefined {
    return this.byEntry.get(entryId);
  }

  /** Forgets every entry not in `ids` (call with the manager's current entry ids). */
  retain(ids: Iterable<string>): void {
    const keep = new Set(ids);
    for (const id of [...this.byEntry.keys()]) if (!keep.has(id)) this.byEntry.delete(id);
    for (const id of [...this.pendingRelist.keys()]) if (!keep.has(id)) this.pendingRelist.delete(id);
  }

  private of(entryId: string): WatchHistory {
    let h = this.byEntry.get(entryId);
    if (!h) this.byEntry.set(entryId, (h = {}));
    return h;
  }
}
