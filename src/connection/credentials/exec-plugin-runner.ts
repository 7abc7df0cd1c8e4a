import { TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import { commandName, runCredentialCommand } from './credential-command';

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
  return commandName(exec.command);
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
export async function runExecPlugin(exec: ExecConfig, opts: RunOptions): Promise<ExecCredentialStatus> {
  const name = pluginName(exec);
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env) };
  for (const e of exec.env ?? []) if (e && typeof e.name === 'string') env[e.name] = String(e.value ?? '');
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1beta1';
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo && opts.cluster) spec.cluster = opts.cluster;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec });
  const stdout = await runCredentialCommand(
    { command: exec.command, args: exec.args ?? [], env, what: `the exec plugin \`${name}\``, timeoutMs: execTimeoutMs(exec) },
    { clock: opts.clock, signal: opts.signal },
  );
  return parseExecCredential(stdout, name);
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
