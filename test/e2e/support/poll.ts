/**
 * Bounded polling for the browser tests: the workbench and the extension host update on their own
 * schedule, so every check reads the screen again until it holds or a generous bound passes.
 * A timeout fails with what was last seen, never with a bare "timed out".
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface PollOptions {
  /** Default 30 s. */
  timeoutMs?: number;
  /** Default 250 ms. */
  intervalMs?: number;
}

/**
 * Reads `read()` until `accept(value)` is true and returns that value. A read that throws counts
 * as not accepted (the element may be re-rendering); its error is reported if nothing better was seen.
 */
export async function poll<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, opts: PollOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const intervalMs = opts.intervalMs ?? 250;
  const deadline = Date.now() + timeoutMs;
  let last: { value: T } | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await read();
      last = { value };
      if (accept(value)) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(intervalMs);
  }
  const seen = last ? show(last.value) : `an error: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
  throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}; last seen: ${seen}`);
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    const text = JSON.stringify(value, null, 1);
    return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
  } catch {
    return String(value);
  }
}
