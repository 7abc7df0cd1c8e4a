import { TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import { commandName, runCredentialCommand } from './credential-command';
import type { ExecInteraction, ExecLoginSession } from './exec-interaction';

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
  'disable-compression'?: boolean;
  /** The cluster's `extensions` entry named `client.authentication.k8s.io/exec`, as client-go passes it. */
  config?: unknown;
}

/** The ExecCredential API versions client-go accepts (v1alpha1 went with Kubernetes 1.24). */
export const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

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
function interactiveMode(exec: ExecConfig): string {
  return exec.interactiveMode ?? (exec.apiVersion?.endsWith('/v1') ? 'Never' : 'IfAvailable');
}

function allowsLogin(exec: ExecConfig): boolean {
  const mode = interactiveMode(exec);
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
  /** Where a plugin that may log in meets the user; none (the CLI): such a plugin runs without a terminal, as kubectl does without a TTY. */
  interaction?: ExecInteraction;
  /** The kubeconfig user's name, for the login's title; never a credential. */
  user?: string;
}

/**
 * Runs one exec credential plugin as kubectl does (KUBERNETES_EXEC_INFO, the kubeconfig's env
 * on top of ours), with a timeout, and parses its ExecCredential. Its stdout never appears in an
 * error. `interactiveMode` as client-go reads it: a plugin that may log in (IfAvailable, Always)
 * runs in the user's terminal (`interaction`) with `spec.interactive` true, its stderr shown there
 * and the user's keys on its stdin; without a terminal, IfAvailable runs with stdin closed and
 * stderr discarded and Always is refused in words, as kubectl refuses it without a TTY.
 * Invariant: the child is killed on timeout, on abort, and on bad output; nothing outlives the
 * promise, and an interactive session is ended whatever the outcome.
 */
export async function runExecPlugin(exec: ExecConfig, opts: RunOptions): Promise<ExecCredentialStatus> {
  const name = pluginName(exec);
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1beta1';
  if (!EXEC_API_VERSIONS.includes(apiVersion)) {
    throw new TransportError(`the exec plugin \`${name}\` is configured with apiVersion "${apiVersion}", which is not one of ${EXEC_API_VERSIONS.join(', ')}`, 'ECREDENTIALS');
  }
  const mode = interactiveMode(exec);
  if (mode !== 'Never' && mode !== 'IfAvailable' && mode !== 'Always') {
    throw new TransportError(`the exec plugin \`${name}\` has interactiveMode "${mode}": it must be Never, IfAvailable or Always`, 'ECREDENTIALS');
  }
  if (mode === 'Always' && !opts.interaction) {
    throw new TransportError(`the exec plugin \`${name}\` must log in interactively (interactiveMode: Always), and there is no terminal to answer it here`, 'ECREDENTIALS');
  }
  const interactive = mode !== 'Never' && opts.interaction !== undefined;
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env) };
  for (const e of exec.env ?? []) if (e && typeof e.name === 'string') env[e.name] = String(e.value ?? '');
  const spec: Record<string, unknown> = { interactive };
  if (exec.provideClusterInfo && opts.cluster) spec.cluster = opts.cluster;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec });
  const session: ExecLoginSession | undefined = interactive ? opts.interaction?.open({ plugin: name, user: opts.user ?? '', server: opts.cluster?.server ?? '' }) : undefined;
  try {
    const stdout = await runCredentialCommand(
      { command: exec.command, args: exec.args ?? [], env, what: `the exec plugin \`${name}\``, timeoutMs: execTimeoutMs(exec), interactive: session },
      { clock: opts.clock, signal: opts.signal },
    );
    const status = parseExecCredential(stdout, name, apiVersion);
    session?.end({ ok: true });
    return status;
  } catch (err) {
    session?.end({ ok: false, reason: err instanceof Error ? err.message : 'the exec plugin failed' });
    throw err;
  }
}

/**
 * Parses a plugin's stdout; errors name what is wrong, never what was printed. With `apiVersion`,
 * the ExecCredential must be of the version the kubeconfig asked for, as client-go requires.
 */
export function parseExecCredential(text: string, name: string, apiVersion?: string): ExecCredentialStatus {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new TransportError(`the exec plugin \`${name}\` printed something that is not an ExecCredential (not JSON)`, 'ECREDENTIALS');
  }
  const returned = (doc as { apiVersion?: unknown } | null)?.apiVersion;
  if (apiVersion !== undefined && returned !== apiVersion) {
    const said = typeof returned === 'string' && /^[\w./-]{1,100}$/.test(returned) ? `"${returned}"` : 'no known apiVersion';
    throw new TransportError(`the exec plugin \`${name}\` returned an ExecCredential of ${said}, and its kubeconfig asks for "${apiVersion}" (users[].user.exec.apiVersion must be the version the plugin speaks)`, 'ECREDENTIALS');
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
