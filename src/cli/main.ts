import { writeSync } from 'node:fs';
import { version } from '../../package.json';
import { UnknownResourceError } from '../cluster/discovery';
import { KubeConfigError } from '../cluster/kubeconfig-loader';
import { systemClock } from '../base';
import { parseCliArgs, USAGE, UsageError } from './args';
import { JsonLinesWriter } from './json-lines';
import { runWatch } from './watch-command';

/**
 * The headless entry point (dist/cli.js). Exit status: 0 after SIGINT/SIGTERM (or when standard
 * output goes away), 2 for a bad command line, an unknown resource or context or an unusable
 * kubeconfig, 1 for anything unexpected. Errors are one `kube-watch: ...` line on standard
 * error, never a stack trace.
 */
async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    return fail(err);
  }
  if (args.command === 'help' || args.command === 'version') {
    await writeOut(args.command === 'help' ? USAGE : `${version}\n`);
    return 0;
  }

  const stop = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal means the person does not want to wait for a clean stop.
    if (++signals > 1) process.exit(130);
    stop.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const out = new JsonLinesWriter(process.stdout, () => stop.abort('standard output closed'));
  // The engine's timers do not hold the process open (so an editor can exit); the CLI must,
  // or it would exit while backing off with no socket open.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    await runWatch(args, { out, clock: systemClock, stop: stop.signal });
    await out.flush();
    return 0;
  } catch (err) {
    return fail(err);
  } finally {
    clearInterval(keepAlive);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Writes text to standard output and resolves once it is out (or standard output is gone). */
function writeOut(text: string): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.once('error', () => resolve());
    process.stdout.write(text, () => resolve());
  });
}

/** Writes the one-line error and returns the exit status for it. */
function fail(err: unknown): number {
  const expected = err instanceof UsageError || err instanceof KubeConfigError || err instanceof UnknownResourceError;
  const message = err instanceof Error ? err.message : String(err);
  errorLine(expected ? message : `unexpected failure: ${message}`);
  return expected ? 2 : 1;
}

/** Synchronous, so that the line is out before the process exits. */
function errorLine(message: string): void {
  try {
    writeSync(2, `kube-watch: ${message.split('\n')[0]}\n`);
  } catch {
    // standard error is gone too: nothing left to tell
  }
}

process.on('uncaughtException', (err) => {
  errorLine(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  errorLine(`unexpected failure: ${reason instanceof Error ? reason.message : String(reason)}`);
  process.exit(1);
});

void main(process.argv.slice(2)).then((code) => process.exit(code));
