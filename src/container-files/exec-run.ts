import { ApiError } from '../base';
import type { KubeTransport } from '../informer/transport';
import { streamRefusalWords } from '../actions/stream-access';
import { ExecStream, type ExecResult } from '../connection/streaming/exec-stream';

/** The container a command runs in. */
export interface ContainerTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly container?: string;
}

/** Where a command's stdout goes, with back-pressure (a Node Writable is one). */
export interface OutputSink {
  /** False: stop sending until `drain`. */
  write(chunk: Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /** Where stdout goes as it arrives; else it is collected and returned. */
  readonly stdout?: OutputSink;
  /** What the command reads on stdin, sent with back-pressure and then closed (v5). */
  readonly stdin?: AsyncIterable<Buffer>;
}

/** How a command in a container ended. */
export interface RunOutcome {
  readonly result: ExecResult & { dropped?: string };
  /** stdout when no sink took it. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** The command does not exist in the image (the runtime's words). */
export const COMMAND_MISSING = /executable file not found|no such file or directory: unknown|not found in \$PATH/i;

/** The user stopped it: the exec stream was closed. */
export class Cancelled extends Error {
  constructor(what: string) {
    super(`${what} was cancelled; the command in the container was stopped`);
    this.name = 'Cancelled';
  }
}

/** Stdin frames in flight beyond which the sender waits for the socket. */
const STDIN_HIGH_WATER = 1 << 20;

/**
 * Runs `command` in the container once, over the exec WebSocket streams (no TTY, stderr apart),
 * and resolves with how it ended. Cancelling (`signal`) closes the stream at once and rejects with
 * `Cancelled`. Invariant: when the promise settles, the exec stream is closed.
 */
export async function runInContainer(transport: KubeTransport, target: ContainerTarget, command: readonly string[], options: RunOptions = {}): Promise<RunOutcome> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) ctl.abort();
  let stream: ExecStream | undefined;
  try {
    if (ctl.signal.aborted) throw new Cancelled(command[0] ?? 'the command');
    stream = await ExecStream.open(transport, { ...target, command, tty: false, stdin: options.stdin !== undefined }, ctl.signal).catch((err: unknown) => {
      if (ctl.signal.aborted) throw new Cancelled(command[0] ?? 'the command');
      // RBAC refused pods/exec: the same words as a refused shell (stream-access.ts).
      if (err instanceof ApiError && err.code === 403) throw new Error(streamRefusalWords('shell', target.namespace, err.message));
      throw err;
    });
    const s = stream;
    const chunks: Buffer[] = [];
    let stderr = '';
    let paused = false;
    const ended = new Promise<ExecResult & { dropped?: string }>((resolve) => s.onEnd(resolve));
    const cancelled = new Promise<never>((_, reject) => {
      const stop = () => {
        s.dispose();
        reject(new Cancelled(command[0] ?? 'the command'));
      };
      if (ctl.signal.aborted) stop();
      else ctl.signal.addEventListener('abort', stop, { once: true });
    });
    cancelled.catch(() => undefined);
    s.onOutput(({ stream: which, data }) => {
      if (which === 'stderr') stderr += data.toString('utf8');
      else if (!options.stdout) chunks.push(data);
      else if (!options.stdout.write(data) && !paused) {
        // Frames already received still arrive while paused: one drain waiter is enough.
        paused = true;
        s.pause();
        options.stdout.once('drain', () => {
          paused = false;
          s.resume();
        });
      }
    });
    let stdinFailed: Error | undefined;
    if (options.stdin) {
      sendStdin(s, options.stdin, ctl.signal).catch((err: Error) => {
        stdinFailed = err;
        ctl.abort();
      });
    }
    const result = await Promise.race([ended, cancelled]).catch((err: Error) => {
      throw stdinFailed ?? err;
    });
    if (ctl.signal.aborted) await cancelled;
    return { result, stdout: Buffer.concat(chunks), stderr };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    stream?.dispose();
  }
}

async function sendStdin(stream: ExecStream, source: AsyncIterable<Buffer>, signal: AbortSignal): Promise<void> {
  for await (const chunk of source) {
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      stream.writeStdin(chunk, () => resolve());
      if (stream.bufferedAmount < STDIN_HIGH_WATER) resolve();
    });
  }
  stream.closeStdin();
}

/** The words of a command that did not succeed: the runtime's message, stderr, or the exit code. */
export function failureWords(outcome: RunOutcome): string {
  const { result, stderr } = outcome;
  const detail = stderr.trim().split('\n').slice(-3).join(' ').trim();
  if (result.dropped) return `the connection to the container dropped (${result.dropped})`;
  if (result.message) return detail ? `${result.message} (${detail})` : result.message;
  return detail || `it exited with code ${result.exitCode}`;
}

/** Whether the command ran and exited 0. */
export function succeeded(outcome: RunOutcome): boolean {
  return outcome.result.exitCode === 0;
}
