/**
 * The writes behind Kube Watch's actions, registered on the server's write routes with one call:
 * access reviews answered from the policy (access-policy.ts).
 */
import type { AccessPolicy } from './access-policy';
import { accessReviewWrites } from './access-policy';
import type { WriteRoutes } from './writes';

export interface ActionWriteParts {
  readonly access: AccessPolicy;
  /** Milliseconds per simulated second (the server's timeScale). */
  readonly timeScale: number;
  /** The server's pending timers, cleared when it shuts down. */
  readonly timers: Set<NodeJS.Timeout>;
}

export function registerActionWrites(writes: WriteRoutes, parts: ActionWriteParts): void {
  writes.use(accessReviewWrites(parts.access));
}
