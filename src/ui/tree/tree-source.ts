import type { Clock, Disposable } from '../../base';
import type { KubeObject, TimedLifecycleEvent } from '../../informer';
import type { CatchUp } from '../../health';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from '../../manager';
import type { RowDecorator } from './row-decorator';

/** What the tree model needs of the watch manager (a WatchManager satisfies it; benchmarks may fake it). */
export interface WatchTreeSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  addHandler(handler: EntryHandler): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  /** Fires as an entry's first list grows and once it ended (its informer's `listPreview`); optional. */
  onListProgress?(listener: (entryId: string) => void): Disposable;
  /**
   * The CustomResourceDefinition of an entry's type, as last seen (undefined when the type is
   * built in, or the definitions cannot be read): its printer columns print the objects.
   */
  customResourceDefinition?(entryId: string): KubeObject | undefined;
  /** Fires with the entries whose type's definition changed. */
  onDidChangeDefinitions?(listener: (entryIds: string[]) => void): Disposable;
}

export interface WatchTreeModelOptions {
  /**
   * Time for the refresh throttle, ages and countdowns; default the system clock. Use the
   * manager's clock: "reconnecting in N s" compares it with the entries' retry times.
   */
  clock?: Clock;
  /** Children shown per parent before a "N more…" node; default 500. */
  pageSize?: number;
  /** Least clock time between two refreshes (PERF B5: at most 10 per second); default 100 ms. */
  throttleMs?: number;
  /**
   * Least clock time between two refreshes of a watch's node for a new resourceVersion alone
   * (a refresh re-renders the node's expanded subtree); default 1000 ms. State changes are shown
   * at once.
   */
  watchRefreshMs?: number;
  /** Which watches have not confirmed since a resume that they are current (a CatchUpTracker); their rows say "catching up". */
  catchUp?: CatchUpView;
  /** Adds the actions a row offers and the state of a write on it (src/ui/actions). */
  decorator?: RowDecorator;
}

/** What the tree reads of the catch-up after a resume (a CatchUpTracker is one). */
export interface CatchUpView {
  current(): CatchUp | undefined;
  isCatchingUp(entryId: string): boolean;
  onDidChange(listener: (entryIds: string[]) => void): Disposable;
}

/** Counts for the benchmark (PERF B5) and tests. */
export interface RefreshCounters {
  /** onDidChange firings. */
  refreshes: number;
  /** Firings with `undefined` (the whole tree). */
  untargetedRefreshes: number;
  /** Nodes named, summed over targeted firings. */
  nodesRefreshed: number;
}
