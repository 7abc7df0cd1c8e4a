import type { ManagedProcess } from './processes';

/** Time between two looks while a process starts. */
const POLL_MS = 50;

/**
 * Polls `probe` until it gives a value (not undefined) and returns it. Fails after `boundMs`, or
 * at once when `proc` exits meanwhile, with the tail of its log. The bound only catches a hang.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, boundMs: number, proc?: ManagedProcess): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    if (proc?.exit) {
      const { code, signal } = proc.exit;
      throw new Error(`${proc.name} exited (${signal ?? `code ${code}`}) before ${what}; the end of ${proc.logFile}:\n${proc.logTail()}`);
    }
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(boundMs / 1000)} s waiting for ${what}${proc ? `; the end of ${proc.logFile}:\n${proc.logTail()}` : ''}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
