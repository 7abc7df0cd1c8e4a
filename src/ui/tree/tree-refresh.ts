import { Emitter, type Clock, type Disposable } from '../../base';
import { RefreshThrottle } from './refresh-throttle';
import { isAttached, type NamespaceNode, type ResourceNode, type TreeNode } from './tree-node';
import type { RefreshCounters } from './tree-source';

const ONE_SECOND = 1000;
/** Refreshes within a second that make a storm. */
const STORM_REFRESHES = 4;
/** The refresh window during a storm (measured in the real VS Code, PERF B11). */
const STORM_THROTTLE_MS = 500;

/**
 * Which nodes of the tree the view must re-render, and when: the dirty set, the watch nodes
 * whose resourceVersion alone moved (refreshed at most once per `watchRefreshMs`), and the
 * throttle that fires `onDidChange`.
 *
 * Invariants:
 * - `onDidChange` fires at most once per `throttleMs`, and within `throttleMs` of a change
 *   (`stormThrottleMs` while refreshes come one after the other: see `pace`). It names the nodes
 *   whose children or presentation changed; `undefined` only when the set of resource nodes
 *   changed (`rootsChanged`).
 * - A node is never named together with one of its ancestors (the ancestor re-renders it).
 * - After `dispose()` no timer or listener is left.
 */
export class TreeRefresh implements Disposable {
  private readonly dirty = new Set<TreeNode>();
  private rootsDirty = false;
  /** Watch nodes whose resourceVersion changed since they were last refreshed. */
  private readonly statsStale = new Set<ResourceNode | NamespaceNode>();
  private readonly changes = new Emitter<TreeNode[] | undefined>();
  private readonly throttle: RefreshThrottle;
  private readonly counters: RefreshCounters = { refreshes: 0, untargetedRefreshes: 0, nodesRefreshed: 0 };
  /** Clock times of the refreshes of the last second (the storm detector's memory). */
  private readonly recent: number[] = [];
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly throttleMs: number,
    private readonly watchRefreshMs: number,
    /** The resource nodes shown now (stamped when the whole tree refreshes). */
    private readonly roots: () => readonly ResourceNode[],
    /** The window while refreshes come one after the other (a storm of events); see `pace`. */
    private readonly stormThrottleMs = Math.max(throttleMs, STORM_THROTTLE_MS),
  ) {
    this.throttle = new RefreshThrottle(clock, throttleMs, () => this.flush());
  }

  /** True while refreshes are paced for a storm. */
  get storming(): boolean {
    return this.throttle.windowMs !== this.throttleMs;
  }

  /** Fires with the nodes to refresh, or `undefined` for the whole tree. */
  onDidChange(listener: (nodes: TreeNode[] | undefined) => void): Disposable {
    return this.changes.on(listener);
  }

  get refreshCounters(): RefreshCounters {
    return { ...this.counters };
  }

  /** Marks `node` for the next refresh without scheduling one (the caller requests it). */
  mark(node: TreeNode): void {
    this.dirty.add(node);
  }

  /** Marks `node` and schedules a refresh. */
  markDirty(node: TreeNode): void {
    this.dirty.add(node);
    this.throttle.request();
  }

  /** The set of resource nodes changed: the next refresh is of the whole tree. */
  rootsChanged(): void {
    this.rootsDirty = true;
  }

  /** Drops what is pending (the view has not asked for the tree yet, so there is nothing to announce). */
  discardPending(): void {
    this.rootsDirty = false;
    this.dirty.clear();
  }

  get hasDirty(): boolean {
    return this.dirty.size > 0;
  }

  /**
   * True while a watch's own row (a resource node, or a namespace node that is a watch of its own)
   * waits for the next refresh: what the view shows of the watches is behind the entries until then.
   */
  get watchRowPending(): boolean {
    if (this.rootsDirty) return true;
    for (const node of this.dirty) if (node.kind === 'resource' || (node.kind === 'namespace' && node.watch)) return true;
    return false;
  }

  isDirty(node: TreeNode): boolean {
    return this.dirty.has(node);
  }

  /** A watch's resourceVersion and counters moved: refresh its node, at most once per `watchRefreshMs`. */
  statsChanged(watchNode: ResourceNode | NamespaceNode): void {
    if (!this.dirty.has(watchNode)) this.statsStale.add(watchNode);
    this.throttle.request();
  }

  /** A node left the tree: nothing pending for it. */
  forget(node: TreeNode): void {
    this.dirty.delete(node);
    if (node.kind === 'resource' || node.kind === 'namespace') this.statsStale.delete(node);
  }

  /** Schedules a refresh (no earlier than `at`). */
  request(at?: number): void {
    this.throttle.request(at);
  }

  /** Schedules a refresh within `throttleMs`, storm or not: a watch's state changed (rare, and the status bar waits for it). */
  requestSoon(): void {
    this.throttle.request(undefined, this.throttleMs);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.throttle.dispose();
    this.changes.dispose();
  }

  /**
   * VS Code takes tree refreshes one after the other, each a round trip to the window, and queues
   * what comes faster: under a storm of events (PERF B11: 2,000 a second) refreshes every 100 ms
   * queued up and rows showed their changes seconds late. So once STORM_REFRESHES refreshes came
   * within a second, the window widens to `stormThrottleMs` (fewer, larger refreshes, which VS
   * Code keeps up with); after a second without one it is `throttleMs` again, so that a change in
   * a quiet tree still shows at once.
   */
  private pace(now: number): void {
    const last = this.recent[this.recent.length - 1];
    if (last !== undefined && now - last > ONE_SECOND) {
      this.recent.length = 0;
      this.throttle.windowMs = this.throttleMs;
    }
    this.recent.push(now);
    while (this.recent.length > 0 && this.recent[0] <= now - ONE_SECOND) this.recent.shift();
    if (this.recent.length >= STORM_REFRESHES) this.throttle.windowMs = this.stormThrottleMs;
  }

  private flush(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    this.pace(now);
    let nextStatsDue = Number.POSITIVE_INFINITY;
    for (const node of this.statsStale) {
      const due = node.presentedAt + this.watchRefreshMs;
      if (due <= now) {
        this.dirty.add(node);
        this.statsStale.delete(node);
      } else {
        nextStatsDue = Math.min(nextStatsDue, due);
      }
    }
    if (this.rootsDirty) {
      this.rootsDirty = false;
      this.dirty.clear();
      this.statsStale.clear();
      for (const node of this.roots()) node.presentedAt = now;
      this.counters.refreshes++;
      this.counters.untargetedRefreshes++;
      this.changes.fire(undefined);
      return;
    }
    if (this.dirty.size > 0) {
      const nodes: TreeNode[] = [];
      for (const node of this.dirty) if (isAttached(node) && !this.ancestorDirty(node)) nodes.push(node);
      this.dirty.clear();
      if (nodes.length > 0) {
        for (const node of nodes) {
          if (node.kind === 'resource' || node.kind === 'namespace') {
            node.presentedAt = now;
            this.statsStale.delete(node);
          }
        }
        this.counters.refreshes++;
        this.counters.nodesRefreshed += nodes.length;
        this.changes.fire(nodes);
      }
    }
    if (this.statsStale.size > 0 && nextStatsDue !== Number.POSITIVE_INFINITY) this.throttle.request(nextStatsDue);
  }

  /** True when a refresh of an ancestor of `node` is already due (it re-renders `node` too). */
  private ancestorDirty(node: TreeNode): boolean {
    for (let p = node.parent; p; p = p.parent) if (this.dirty.has(p)) return true;
    return false;
  }
}
