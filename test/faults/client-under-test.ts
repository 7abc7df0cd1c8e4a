import type { Informer } from '../../src/informer/informer';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import type { EventRecorder, ObjectIdentity } from '../support/event-recorder';

/**
 * An informer implementation the fault scenarios can drive: ours, or @kubernetes/client-node's
 * own for the comparison table. Scenarios only rely on this surface for convergence; checks of
 * our richer state (phases, lifecycle events) go through `ours`, absent for the reference.
 */
export interface ClientUnderTest {
  readonly label: string;
  readonly recorder: EventRecorder;
  /** The cached objects right now. */
  cache(): ObjectIdentity[];
  /** Resolves once the first list is cached (false after the bound). */
  waitForSync(timeoutMs: number): Promise<boolean>;
  /** Aborts the current request and starts over, as the restart command does. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Our informer and its lifecycle log; undefined for the reference. */
  readonly ours?: { informer: Informer; lifecycle: TimedLifecycleEvent[] };
}
