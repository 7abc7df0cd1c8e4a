import { AbortedError } from './api-error';
import type { Clock } from './clock';
import type { Disposable } from './disposable';

/** Subscribes to "try again now" (the cluster answered again after failures). */
export type WakeSignal = (listener: () => void) => Disposable;

/** At most this long, spread at random, between a wake signal and the end of the sleep. */
export const WAKE_SPREAD_MS = 1000;

/**
 * Waits `ms` on the clock, or rejects with AbortedError as soon as `signal` fires. With `wake`,
 * the wait also ends when it fires, after a random spread of at most 1 s (never later than the
 * original deadline), so the informers of a cluster retry together but not in one burst.
 */
export function sleep(clock: Clock, ms: number, signal: AbortSignal, wake?: WakeSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError());
    const deadline = clock.now() + ms;
    let subscription: Disposable | undefined;
    const cleanup = () => {
      timer.cancel();
      subscription?.dispose();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      reject(new AbortedError());
    };
    let timer = clock.setTimer(() => {
      cleanup();
      resolve();
    }, ms);
    subscription = wake?.(() => {
      subscription?.dispose();
      subscription = undefined;
      const spread = Math.min(clock.random() * WAKE_SPREAD_MS, Math.max(0, deadline - clock.now()));
      timer.cancel();
      timer = clock.setTimer(() => {
        cleanup();
        resolve();
      }, spread);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
