import { Emitter, type Clock, type Disposable } from '../base';
import type { AccessReviewCache } from '../cluster/access-review';
import type { KubeTransport, TimedLifecycleEvent } from '../informer';
import type { AdHocWatch, AdHocWatchRequest } from '../manager';
import { SharedWatch, type SharedWatchSource } from './shared-watch';
import { permissionScope } from '../manager/permission-scope';
import { EventsFeed, type EventArrival } from './events-feed';

/** What the feeds read of the watch manager (a WatchManager is one). */
export interface EventsFeedsSource extends SharedWatchSource {
  contextConnection(spec: string): { transport: KubeTransport; access?: AccessReviewCache; namespace?: string } | { problem: string } | undefined;
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
}

/**
 * One EventsFeed per configured context, started when first asked for (opening the Events view,
 * a pin) and kept for the session: the point is to remember. A feed whose context is no longer
 * configured is disposed; one whose connection was replaced (a context switch, a kubeconfig
 * change) decides its scope again on the new one, keeping its records.
 *
 * Invariants: at most one feed per spec; `dispose()` disposes every feed.
 */
export class EventsFeeds implements Disposable {
  private readonly feeds = new Map<string, { feed: EventsFeed; transport?: KubeTransport; subscription: Disposable }>();
  private readonly changes = new Emitter<string>();
  private readonly arrivals = new Emitter<{ spec: string; arrival: EventArrival }>();
  private readonly entries: Disposable;
  private maxBytes: number | undefined;

  constructor(
    private readonly source: EventsFeedsSource,
    private readonly clock: Clock,
    maxBytes?: number,
  ) {
    this.maxBytes = maxBytes;
    this.entries = source.onDidChangeEntries(() => this.follow());
  }

  /** Fires with the spec of a feed whose events, gaps or scope changed. */
  onDidChange(listener: (spec: string) => void): Disposable {
    return this.changes.on(listener);
  }

  /** Every event any feed stores (for the pinned objects' notifications). */
  onDidArrive(listener: (spec: string, arrival: EventArrival) => void): Disposable {
    return this.arrivals.on(({ spec, arrival }) => listener(spec, arrival));
  }

  /** The running feed of a context, if one was started. */
  peek(spec: string): EventsFeed | undefined {
    return this.feeds.get(spec)?.feed;
  }

  /** The feed of a context, started now if needed; undefined when the context cannot be used yet. */
  feed(spec: string): EventsFeed | undefined {
    const held = this.feeds.get(spec);
    if (held) return held.feed;
    const connection = this.source.contextConnection(spec);
    const feed = new EventsFeed({
      clock: this.clock,
      spec,
      maxBytes: this.maxBytes,
      watch: (request) => this.source.watchAdHoc(request),
      shared: (type, namespace) => SharedWatch.find(this.source, spec, type, namespace),
      onResumed: (listener) => this.source.onLifecycle((_id, event) => event.type === 'resumed' && listener(event)),
      scopeOf: async (type, signal) => {
        const c = this.source.contextConnection(spec);
        if (!c || 'problem' in c) throw new Error(c?.problem ?? 'the context is not configured');
        if (!c.access) return { key: '', namespaces: [{ namespace: '' }], limited: false, guessed: true };
        return permissionScope({ access: c.access, transport: c.transport, type, configured: [], contextNamespace: c.namespace, signal });
      },
    });
    let pending = false;
    const changed = () => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => {
        pending = false;
        this.changes.fire(spec);
      });
    };
    const subscriptions = [feed.onDidChange(changed), feed.store.onDidChange(changed), feed.onDidArrive((arrival) => this.arrivals.fire({ spec, arrival }))];
    this.feeds.set(spec, { feed, transport: connection && 'transport' in connection ? connection.transport : undefined, subscription: { dispose: () => subscriptions.forEach((s) => s.dispose()) } });
    return feed;
  }

  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
    for (const { feed } of this.feeds.values()) feed.store.setMaxBytes(maxBytes);
  }

  dispose(): void {
    this.entries.dispose();
    for (const { feed, subscription } of this.feeds.values()) {
      subscription.dispose();
      feed.dispose();
    }
    this.feeds.clear();
    this.changes.dispose();
    this.arrivals.dispose();
  }

  /** Contexts gone: their feeds end; a connection replaced: the feed decides again on the new one. */
  private follow(): void {
    const specs = new Set(this.source.configuration.contexts.length > 0 ? this.source.configuration.contexts : ['']);
    for (const [spec, held] of [...this.feeds]) {
      if (!specs.has(spec)) {
        held.subscription.dispose();
        held.feed.dispose();
        this.feeds.delete(spec);
        this.changes.fire(spec);
        continue;
      }
      const c = this.source.contextConnection(spec);
      const transport = c && 'transport' in c ? c.transport : undefined;
      if (transport && (transport !== held.transport || held.feed.hasEndedWatch)) {
        held.transport = transport;
        void held.feed.redecide();
      }
    }
  }
}
