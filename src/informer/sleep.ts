import { AbortedError } from './api-error';
import type { Clock } from './clock';

/** Waits `ms` on the clock, or rejects with AbortedError as soon as `signal` fires. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError());
    const onAbort = () => {
      timer.cancel();
      reject(new AbortedError());
    };
    const timer = clock.setTimer(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
