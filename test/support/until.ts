/** Real time between two looks; short, since what is awaited usually happens within milliseconds. */
const INTERVAL_MS = 5;
/** Only catches a hang (a test never waits this long unless something is broken): never a measure of speed. */
export const UNTIL_BOUND_MS = 20_000;

/**
 * Waits until `value()` is truthy and returns it (a predicate returns `true`). Fails after
 * `boundMs` of real time with what it was waiting for (`what` is called then, so it can show
 * the state it found). The bound is generous on purpose: tests assert on what happened, and a
 * busy machine only makes them wait longer.
 */
export async function until<T>(value: () => T | undefined | null | false, what: string | (() => string), boundMs = UNTIL_BOUND_MS): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const v = value();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
}
