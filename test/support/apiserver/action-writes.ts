/**
 * The writes behind Kube Watch's actions, registered on the server's write routes with one call:
 * access reviews answered from the policy (access-policy.ts), DELETE with options
 * (delete-writes.ts), `/scale` (scale-writes.ts) and evictions with PodDisruptionBudgets
 * (eviction-writes.ts), the last two sharing the deleter (object-deleter.ts).
 */
import type { AccessPolicy } from './access-policy';
import { accessReviewWrites } from './access-policy';
import { deleteWrites } from './delete-writes';
import { evictionWrites } from './eviction-writes';
import { ObjectDeleter } from './object-deleter';
import { scaleWrites } from './scale-writes';
import type { WriteRoutes } from './writes';

export interface ActionWriteParts {
  readonly access: AccessPolicy;
  /** Milliseconds per simulated second (the server's timeScale). */
  readonly timeScale: number;
  /** The server's pending timers, cleared when it shuts down. */
  readonly timers: Set<NodeJS.Timeout>;
}

/** Adds the handlers; returns the deleter (its `podTerminationSeconds` caps how long a Pod's grace period takes). */
export function registerActionWrites(writes: WriteRoutes, parts: ActionWriteParts): ObjectDeleter {
  const deleter = new ObjectDeleter(parts);
  writes.use(deleteWrites(deleter));
  writes.use(scaleWrites);
  writes.use(evictionWrites(deleter));
  writes.use(accessReviewWrites(parts.access));
  return deleter;
}
