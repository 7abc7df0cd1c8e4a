import { JSONPath } from 'jsonpath-plus';
import { TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import { commandName, runCredentialCommand } from './credential-command';
import { MIN_RUN_SPACING_MS } from './renewal-plan';
import { CachingTokenSource, type ObtainedToken, type TokenFetcher } from './token-source';

/** How long a `cmd-path` command may run (as long as an exec plugin without a login). */
export const CLOUD_COMMAND_TIMEOUT_MS = 30_000;

export interface CloudCommandOptions {
  clock: Clock;
  /** The environment the command inherits; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The `gcp` and `azure` auth providers (`access-token`, `expiry`, `cmd-path`, `cmd-args`,
 * `token-key`, `expiry-key`): the access token in the kubeconfig while it is valid, then the
 * command's. client-node runs the command synchronously through a shell with no timeout, so a
 * hung `gcloud` freezes the extension host; here it runs asynchronously without a shell
 * (`cmd-args` split at whitespace), for at most 30 s, killed on dispose, one run at a time and
 * never two within 10 s.
 */
export function cloudCommandTokenSource(name: 'gcp' | 'azure', config: Record<string, string>, options: CloudCommandOptions): CachingTokenSource {
  const initial = config['access-token'] ? { token: config['access-token'], expiresAt: parseExpiry(config.expiry ?? config['expires-on']) } : undefined;
  return new CachingTokenSource(new CloudCommandFetcher(name, config, options, initial), { clock: options.clock, initial, minFetchSpacingMs: MIN_RUN_SPACING_MS });
}

class CloudCommandFetcher implements TokenFetcher {
  constructor(
    private readonly name: 'gcp' | 'azure',
    private readonly config: Record<string, string>,
    private readonly options: CloudCommandOptions,
    private readonly initial: ObtainedToken | undefined,
  ) {}

  async fetch(signal: AbortSignal): Promise<ObtainedToken> {
    const cmdPath = this.config['cmd-path'];
    if (!cmdPath) {
      // Nothing can renew it: the kubeconfig's token is used until the server refuses it.
      if (this.initial) return this.initial;
      throw new TransportError(`the ${this.name} auth provider has no access-token and no cmd-path to obtain one`, 'ECREDENTIALS');
    }
    const what = `the ${this.name} auth provider's command \`${commandName(cmdPath)}\``;
    const stdout = await runCredentialCommand(
      { command: cmdPath, args: (this.config['cmd-args'] ?? '').split(/\s+/).filter(Boolean), env: this.options.env ?? process.env, what, timeoutMs: CLOUD_COMMAND_TIMEOUT_MS },
      { clock: this.options.clock, signal },
    );
    let doc: unknown;
    try {
      doc = JSON.parse(stdout);
    } catch {
      throw new TransportError(`${what} printed something that is not JSON`, 'ECREDENTIALS');
    }
    const token = pick(doc, this.config['token-key'] ?? '{.access_token}');
    if (typeof token !== 'string' || !token) throw new TransportError(`${what} printed no token at ${this.config['token-key'] ?? '{.access_token}'}`, 'ECREDENTIALS');
    return { token, expiresAt: parseExpiry(pick(doc, this.config['expiry-key'] ?? '{.token_expiry}')) };
  }
}

/** A kubectl-style JSONPath key (`{.credential.access_token}`) applied to the command's output. */
function pick(doc: unknown, key: string): unknown {
  const path = `$${key.trim().replace(/^\{|\}$/g, '')}`;
  try {
    const found = JSONPath({ path, json: doc as object, wrap: true }) as unknown[];
    return found[0];
  } catch {
    return undefined;
  }
}

/** An RFC 3339 time, or seconds since the epoch (azure's `expires-on`); undefined when neither. */
function parseExpiry(value: unknown): number | undefined {
  if (typeof value === 'number') return value * 1000;
  if (typeof value !== 'string' || !value.trim()) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
