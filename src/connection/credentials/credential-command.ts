import { spawn } from 'node:child_process';
import { AbortedError, TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import type { ExecLoginSession } from './exec-interaction';

/** A command's stdout beyond this is refused (a credential is a few KiB). */
const MAX_OUTPUT_BYTES = 1024 * 1024;

export interface CredentialCommand {
  command: string;
  args: readonly string[];
  /** The whole environment of the child. */
  env: NodeJS.ProcessEnv;
  /** How messages name it, e.g. "the exec plugin `kubelogin`" (never its arguments or output). */
  what: string;
  timeoutMs: number;
  /**
   * The user's side of an interactive run: the command's standard error goes to `session.show`
   * and what the user types to its standard input. Without it stdin is closed and stderr discarded.
   */
  interactive?: ExecLoginSession;
}

export interface CredentialCommandRun {
  clock: Clock;
  /** Aborting kills the command and rejects with AbortedError. */
  signal: AbortSignal;
}

/**
 * Runs a program that prints a credential (an exec plugin, a cloud auth provider's
 * `cmd-path`), without a shell, with stdin closed and stderr discarded (an interactive run
 * connects both to the user's terminal instead, never stdout), and resolves with its
 * stdout once it exits with code 0. Asynchronous: the extension host keeps running meanwhile.
 * Failures are TransportErrors coded ECREDENTIALS that say what happened (not found, exit code,
 * killed, timed out) and never what the program printed.
 * Invariant: the child is killed on timeout, on abort and on oversized output; nothing
 * outlives the promise.
 */
export function runCredentialCommand(cmd: CredentialCommand, run: CredentialCommandRun): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (run.signal.aborted) return reject(new AbortedError('aborted'));
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const session = cmd.interactive;
    const child = spawn(cmd.command, [...cmd.args], { env: cmd.env, stdio: [session ? 'pipe' : 'ignore', 'pipe', session ? 'pipe' : 'ignore'], windowsHide: true });
    if (session) {
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => session.show(text));
      // A plugin that exits while the user types: the write fails, the close below says why.
      child.stdin?.on('error', () => undefined);
      session.onInput((text) => {
        if (!settled && child.stdin?.writable) child.stdin.write(text);
      });
    }
    const finish = (err: Error | undefined, value?: string) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      run.signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value ?? '');
    };
    const timer = run.clock.setTimer(() => finish(new TransportError(`${cmd.what} timed out after ${Math.round(cmd.timeoutMs / 1000)} s`, 'ECREDENTIALS')), cmd.timeoutMs);
    const onAbort = () => finish(new AbortedError('aborted'));
    run.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_OUTPUT_BYTES) return finish(new TransportError(`${cmd.what} printed more than 1 MiB`, 'ECREDENTIALS'));
      chunks.push(c);
    });
    child.on('error', (err: Error & { code?: string }) => {
      const why = err.code === 'ENOENT' ? 'was not found' : 'could not be started';
      finish(new TransportError(`${cmd.what} ${why}`, 'ECREDENTIALS'));
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) return finish(new TransportError(`${cmd.what} ${code === null ? `was killed (${signal})` : `exited with code ${code}`}`, 'ECREDENTIALS'));
      finish(undefined, Buffer.concat(chunks, size).toString('utf8'));
    });
  });
}

/** A program's name for messages: the command's last path segment, never its arguments. */
export function commandName(command: string): string {
  return command.split(/[\\/]/).pop() || command;
}
