import { Emitter, type Disposable } from '../base';
import type { Informer, InformerState, ResourceType } from '../informer';
import type { AdHocChange, EntriesChange, WatchConfig, WatchEntry } from '../manager';

/** What the feed reads of a watch: an ad-hoc one it started, or one of the tree's it shares. */
export interface FeedWatch {
  readonly informer?: Informer;
  readonly state: InformerState;
  /** Why it ended for good (the feed decides again); undefined while it runs or waits. */
  readonly ended?: string;
  /** True for a watch of the tree's: its objects were listed before the feed came (read them from `informer.list()`). */
  readonly shared?: boolean;
  onDidChange(listener: (change: AdHocChange) => void): Disposable;
  dispose(): unknown;
}

/** What a shared watch reads of the manager (a WatchManager is one). */
export interface SharedWatchSource {
  readonly configuration: WatchConfig;
  entries(): WatchEntry[];
  contextSpecOf(id: string): string | undefined;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
}

/**
 * A configured watch of the tree, followed by the feed instead of a second watch of the same
 * Events (DESIGN: a feature never opens a second watch of what is watched). Found for a context,
 * a type and a namespace ('' = all) when the configuration sets no selector (a selected watch
 * does not hold every Event). Disposing it only lets go: the tree's watch runs on.
 *
 * Invariant: `informer` is the entry's current informer; a replaced one fires 'informer'; the
 * entry gone (configuration changed) fires 'ended' once.
 */
export class SharedWatch implements FeedWatch {
  readonly shared = true;
  private readonly changes = new Emitter<AdHocChange>();
  private readonly subscription: Disposable;
  private current: Informer | undefined;
  private stateSubscription: Disposable | undefined;
  private endedWith: string | undefined;

  private constructor(
    private readonly source: SharedWatchSource,
    private readonly entryId: string,
  ) {
    this.current = source.entries().find((e) => e.id === entryId)?.informer;
    this.stateSubscription = this.current?.onStateChange(() => this.changes.fire('state'));
    this.subscription = source.onDidChangeEntries(() => this.follow());
  }

  /** The tree's watch of `type` in `namespace` on context `spec`, when there is a usable one. */
  static find(source: SharedWatchSource, spec: string, type: ResourceType, namespace: string): SharedWatch | undefined {
    if (source.configuration.labelSelector || source.configuration.fieldSelector) return undefined;
    const entry = source.entries().find((e) => e.informer && e.type?.group === type.group && e.type.resource === type.resource && e.namespace === namespace && source.contextSpecOf(e.id) === spec);
    return entry && new SharedWatch(source, entry.id);
  }

  get informer(): Informer | undefined {
    return this.current;
  }

  get state(): InformerState {
    return this.current?.state ?? { phase: 'stopped', reason: this.endedWith ?? 'its watch is gone', since: 0, synced: false };
  }

  get ended(): string | undefined {
    return this.endedWith;
  }

  onDidChange(listener: (change: AdHocChange) => void): Disposable {
    return this.changes.on(listener);
  }

  dispose(): void {
    this.subscription.dispose();
    this.stateSubscription?.dispose();
    this.changes.dispose();
  }

  private follow(): void {
    const entry = this.source.entries().find((e) => e.id === this.entryId);
    if (!entry) {
      if (this.endedWith) return;
      this.endedWith = 'the watch of events was removed';
      this.current = undefined;
      this.stateSubscription?.dispose();
      this.changes.fire('ended');
      return;
    }
    if (entry.informer === this.current) return;
    this.current = entry.informer;
    this.stateSubscription?.dispose();
    this.stateSubscription = this.current?.onStateChange(() => this.changes.fire('state'));
    this.changes.fire('informer');
  }
}
