import type { Clock, Disposable } from '../../base';
import type { KubeObject } from '../../informer';
import { usageSection, type MetricsHub } from '../../metrics';
import { TouchedShowings } from './touched-showings';

/** What a description is of, as far as usage goes: its context spec, kind and namespace. */
export interface UsageTarget {
  readonly spec: string;
  readonly kind: string;
  readonly namespace: string;
}

/**
 * The usage section of a pod's or a node's description. Each render holds the metrics of the
 * pod's namespace (or the nodes) for a few intervals, so an open description keeps them fetched
 * (it renders at least every 10 s) and a closed one lets them go.
 */
export class DescribeUsage implements Disposable {
  private readonly showings: TouchedShowings;

  constructor(
    private readonly hub: MetricsHub,
    clock: Clock,
  ) {
    this.showings = new TouchedShowings(hub, clock, () => Math.max(30_000, 3 * hub.cluster('').intervalMs));
  }

  lines(target: UsageTarget, obj: KubeObject, now: number): readonly string[] | undefined {
    if (target.kind !== 'Pod' && target.kind !== 'Node') return undefined;
    this.showings.touch(target.spec, target.kind === 'Node' ? undefined : target.namespace);
    return usageSection(this.hub.cluster(target.spec), target.kind, obj, now);
  }

  dispose(): void {
    this.showings.dispose();
  }
}
