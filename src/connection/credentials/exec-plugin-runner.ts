import { spawn } from 'node:child_process';
import { AbortedError, TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';

/** A kubeconfig `users[].user.exec` block, as client-node parses it (field names as in the file). */
export interface ExecConfig {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[];
  apiVersion?: string;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always' | string;
  provideClusterInfo?: boolean;
}

/** The cluster as an exec plugin sees it in KUBERNETES_EXEC_INFO when `provideClusterInfo` is set. */
export interface ExecClusterInfo {
  server: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
  'proxy-url'?: string;
}

/** What a plugin handed back. Invariant: never logged, never put into an error message. */
export interface ExecCredentialStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Milliseconds since the epoch; undefined = no expiry announced. */
  expiresAt?: number;
}

/** How long a plugin may run: 30 s, or a few minutes when it may wait for a login (a browser flow: VS Code has no TTY). */
export const EXEC_TIMEOUT_MS = 30_000;
export const INTERACTIVE_EXEC_TIMEOUT_MS = 180_000;
/** A plugin's stdout beyond this is refused (a credential is a few KiB). */
const MAX_OUTPUT_BYTES = 1024 * 1024;

export function execTimeoutMs(exec: ExecConfig): number {
  return allowsLogin(exec) ? INTERACTIVE_EXEC_TIMEOUT_MS : EXEC_TIMEOUT_MS;
}

/** `interactiveMode` as client-go reads it: required in v1, IfAvailable when absent in v1beta1. */
function allowsLogin(exec: ExecConfig): boolean {
  const mode = exec.interactiveMode ?? (exec.apiVersion?.endsWith('/v1') ? 'Never' : 'IfAvailable');
  return mode === 'IfAvailable' || mode === 'Always';
}

/** The plugin's name for messages: the command's last path segment, never its arguments. */
export function pluginName(exec: ExecConfig): string {
  return exec.command.split(/[\\/]/).pop() || exec.command;
}

export interface RunOptions {
  clock: Clock;
  /** Aborting kills the plugin and rejects with AbortedError. */
  signal: AbortSignal;
  cluster?: ExecClusterInfo;
  /** The environment the plugin inherits (tests pass their own). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs one exec credential plugin as kubectl does (KUBERNETES_EXEC_INFO, the kubeconfig's env
 * on top of ours, stdin closed since there is no terminal), with a timeout, and parses its
 * ExecCredential. Its stderr is discarded and its stdout never appears in an error.
 * Invariant: the child is killed on timeout, on abort, and on bad output; nothing outlives the promise.
 */
export function runExecPlugin(exec: ExecConfig, opts: RunOptions): Promise<ExecCredentialStatus> {
  const name = pluginName(exec);
  const timeoutMs = execTimeoutMs(exec);
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env) };
  for (const e of exec.env ?? []) if (e && typeof e.name === 'string') env[e.name] = String(e.value ?? '');
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1beta1';
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo && opts.cluster) spec.cluster = opts.cluster;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec });

  return new Promise<ExecCredentialStatus>((resolve, reject) => {
    if (opts.signal.aborted) return reject(new AbortedError('aborted'));
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const child = spawn(exec.command, exec.args ?? [], { env, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
    const finish = (err: Error | undefined, value?: ExecCredentialStatus) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      opts.signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = opts.clock.setTimer(
      () => finish(new TransportError(`the exec plugin \`${name}\` timed out after ${Math.round(timeoutMs / 1000)} s`, 'ECREDENTIALS')),
      timeoutMs,
    );
    const onAbort = () => finish(new AbortedError('aborted'));
    opts.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_OUTPUT_BYTES) return finish(new TransportError(`the exec plugin \`${name}\` printed more than 1 MiB`, 'ECREDENTIALS'));
      chunks.push(c);
    });
    child.on('error', (err: Error & { code?: string }) => {
      const why = err.code === 'ENOENT' ? 'was not found' : 'could not be started';
      finish(new TransportError(`the exec plugin \`${name}\` ${why}`, 'ECREDENTIALS'));
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) {
        return finish(new TransportError(`the exec plugin \`${name}\` ${code === null ? `was killed (${signal})` : `exited with code ${code}`}`, 'ECREDENTIALS'));
      }
      try {
        finish(undefined, parseExecCredential(Buffer.concat(chunks, size).toString('utf8'), name));
      } catch (err) {
        finish(err as Error);
      }
    });
  });
}

/** Parses a plugin's stdout; errors name what is wrong, never what was printed. */
export function parseExecCredential(text: string, name: string): ExecCredentialStatus {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new TransportError(`the exec plugin \`${name}\` printed something that is not an ExecCredential (not JSON)`, 'ECREDENTIALS');
  }
  const status = (doc as { status?: Record<string, unknown> } | null)?.status;
  if (!status || typeof status !== 'object') throw new TransportError(`the exec plugin \`${name}\` printed an ExecCredential without status`, 'ECREDENTIALS');
  const out: ExecCredentialStatus = {};
  if (typeof status.token === 'string' && status.token) out.token = status.token;
  if (typeof status.clientCertificateData === 'string' && typeof status.clientKeyData === 'string') {
    out.clientCertificateData = status.clientCertificateData;
    out.clientKeyData = status.clientKeyData;
  } else if (status.clientCertificateData !== undefined || status.clientKeyData !== undefined) {
    throw new TransportError(`the exec plugin \`${name}\` printed a client certificate without its key (or a key without its certificate)`, 'ECREDENTIALS');
  }
  if (!out.token && !out.clientCertificateData) throw new TransportError(`the exec plugin \`${name}\` printed neither a token nor a client certificate`, 'ECREDENTIALS');
  if (typeof status.expirationTimestamp === 'string') {
    const t = Date.parse(status.expirationTimestamp);
    if (Number.isNaN(t)) throw new TransportError(`the exec plugin \`${name}\` printed an invalid expirationTimestamp`, 'ECREDENTIALS');
    out.expiresAt = t;
  }
  return out;
}
