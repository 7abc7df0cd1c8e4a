import { Emitter, type Disposable } from '../../base/disposable';

/**
 * One reachability per cluster, shared by every request of every context that uses it.
 * Invariant: `onReachable` listeners fire exactly once per transition from failing to
 * answering, that is, on the first response after one or more network failures. Informers
 * waiting in backoff listen to it and retry at once, so after an outage the whole view comes
 * back with the first answer instead of each informer waiting out its own backoff.
 */
export class ClusterReachability implements Disposable {
  private failing = false;
  private readonly reachable = new Emitter<void>();

  /** The cluster answered a request (any HTTP status below 500). */
  reportAnswer(): void {
    if (!this.failing) return;
    this.failing = false;
    this.reachable.fire();
  }

  /** A request failed below HTTP (refused, reset, DNS, TLS, a dead connection). */
  reportFailure(): void {
    this.failing = true;
  }

  /** True between a network failure and the next answer. */
  get isFailing(): boolean {
    return this.failing;
  }

  /** `listener` runs when the cluster answers again after failures. */
  onReachable(listener: () => void): Disposable {
    return this.reachable.on(listener);
  }

  dispose(): void {
    this.reachable.dispose();
  }
}
