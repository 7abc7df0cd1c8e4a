import type { Clock, Disposable, TimerHandle } from '../../base';
import type { MetricsHub } from '../../metrics';

/**
 * Showings held by use rather than by an open/close pair: a view that draws a pod row or renders
 * a description `touch`es its namespace (or the nodes) each time it draws; what is not touched for
 * `idleMs` is let go, so a collapsed namespace or a closed description stops its requests.
 * Invariant: the sweep timer runs only while something is held; `dispose()` lets go of all.
 */
export class TouchedShowings implements Disposable {
  private readonly held = new Map<string, { showing: Disposable; at: number }>();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly hub: MetricsHub,
    private readonly clock: Clock,
    /** How long a namespace stays fetched after it was last drawn; a few of the hub's intervals. */
    private readonly idleMs: () => number,
  ) {}

  /** Pods of `namespace` (or, with undefined, the nodes) of `context` are drawn now. */
  touch(context: string, namespace: string | undefined): void {
    const key = `${context}\u0000${namespace ?? '\u0001nodes'}`;
    const now = this.clock.now();
    const held = this.held.get(key);
    if (held) {
      held.at = now;
      return;
    }
    const showing = this.hub.cluster(context).show(namespace === undefined ? { namespaces: [], nodes: true } : { namespaces: [namespace] });
    this.held.set(key, { showing, at: now });
    this.arm();
  }

  /** How many namespaces (and node lists) are held now. */
  get size(): number {
    return this.held.size;
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (const h of this.held.values()) h.showing.dispose();
    this.held.clear();
  }

  private arm(): void {
    if (this.timer || this.held.size === 0) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      const cutoff = this.clock.now() - this.idleMs();
      for (const [key, h] of [...this.held]) {
        if (h.at >= cutoff) continue;
        h.showing.dispose();
        this.held.delete(key);
      }
      this.arm();
    }, this.idleMs());
  }
}
