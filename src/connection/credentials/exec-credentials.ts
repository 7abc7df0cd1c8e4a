import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, TransportError } from '../../base/api-error';
import { systemClock, type Clock, type TimerHandle } from '../../base/clock';
import { sleep } from '../../base/sleep';
import { MIN_RUN_SPACING_MS, planRenewal, usableAsIs } from './renewal-plan';
import type { CredentialProvider, Credentials, TlsMaterial } from './credentials';
import type { ExecInteraction } from './exec-interaction';
import { runExecPlugin, type ExecClusterInfo, type ExecConfig, type ExecCredentialStatus } from './exec-plugin-runner';
import type { KubeconfigCluster } from './kubeconfig-cluster';
import { KubeConfigCredentials, tlsKeyOf } from './kubeconfig-credentials';

export interface ExecCredentialsOptions {
  clock?: Clock;
  /**
   * The clock that times one plugin run (its timeout); default `clock`. A run is a real process:
   * a test that speeds up `clock` (spacing, expiries) keeps real time here, or a busy machine's
   * slow process start reads as a timeout.
   */
  runClock?: Clock;
  /** The environment the plugin inherits; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where a plugin that may log in meets the user (a VS Code terminal); none: it runs without one. */
  interaction?: ExecInteraction;
}

/**
 * The credentials of a kubeconfig user with an `exec` block, run with the project's runner:
 * - single flight: at most one plugin process at a time, whoever asks (get, refresh, the timer),
 *   and never two starts within MIN_RUN_SPACING_MS (a later ask waits for the window);
 * - a credential without `expirationTimestamp` is kept until the server refuses it (401); one
 *   with an expiry is renewed ahead of it on the injected clock, planned from the credential's
 *   own lifetime (`planRenewal`): a plugin that hands back the same credential is not asked
 *   again before the expiry; one whose expiry is already past is used until a 401;
 * - a plugin that hands back the credential it already gave leaves `generation` as it was, so
 *   a request refused with it is not retried with it;
 * - a waiting `get()` rejects at once when its signal aborts; the plugin keeps running for the
 *   others (and for a restarted informer, which joins it) until `dispose()` kills it.
 * The CA and any static client certificate still come from client-node (the user without exec).
 */
export class ExecCredentials implements CredentialProvider {
  private readonly clock: Clock;
  private readonly base: KubeConfigCredentials;
  private readonly cluster: KubeconfigCluster | undefined;
  private readonly userName: string;
  private current: Credentials | undefined;
  private currentDigest = '';
  private currentExpiresAt: number | undefined;
  private firstSeenAt = 0;
  private pluginCaches = false;
  private lastRunAt = -Infinity;
  private generation = 0;
  private flight: Promise<Credentials> | undefined;
  private flightAbort: AbortController | undefined;
  private renewTimer: TimerHandle | undefined;
  private disposed = false;
  /** How many plugin processes were started; for the tooltip and tests. */
  runs = 0;

  constructor(
    private readonly exec: ExecConfig,
    kc: KubeConfig,
    private readonly options: ExecCredentialsOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.base = new KubeConfigCredentials(withoutExec(kc));
    this.cluster = kc.getCurrentCluster() ?? undefined;
    this.userName = kc.getCurrentUser()?.name ?? '';
  }

  /** A plugin runs, or waits for its turn (for tests that step a clock). */
  get busy(): boolean {
    return this.flight !== undefined;
  }

  get(signal: AbortSignal): Promise<Credentials> {
    if (this.current && usableAsIs(this.currentExpiresAt, this.lastRunAt, this.clock.now())) return Promise.resolve(this.current);
    return this.join(signal);
  }

  refresh(used: Credentials, signal: AbortSignal): Promise<Credentials> {
    // Someone already renewed them since `used` was handed out: use those.
    if (this.current && this.current.generation > used.generation) return Promise.resolve(this.current);
    return this.join(signal);
  }

  dispose(): void {
    this.disposed = true;
    this.renewTimer?.cancel();
    this.flightAbort?.abort();
    this.current = undefined;
  }

  /** Waits for the running plugin (starting one if none runs); the wait, not the plugin, ends on abort. */
  private join(signal: AbortSignal): Promise<Credentials> {
    if (this.disposed) return Promise.reject(new AbortedError('credentials disposed'));
    if (signal.aborted) return Promise.reject(new AbortedError('aborted'));
    const flight = (this.flight ??= this.fly());
    return new Promise<Credentials>((resolve, reject) => {
      const onAbort = () => reject(new AbortedError('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      flight.then(
        (c) => {
          signal.removeEventListener('abort', onAbort);
          resolve(c);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err instanceof Error ? err : new TransportError('the exec plugin failed', 'ECREDENTIALS'));
        },
      );
    });
  }

  private async fly(): Promise<Credentials> {
    const ctl = new AbortController();
    this.flightAbort = ctl;
    try {
      const wait = this.lastRunAt + MIN_RUN_SPACING_MS - this.clock.now();
      if (wait > 0) await sleep(this.clock, wait, ctl.signal);
      this.runs++;
      const startedAt = this.clock.now();
      this.lastRunAt = startedAt;
      const cluster = this.exec.provideClusterInfo ? await clusterInfo(this.cluster) : this.cluster && { server: this.cluster.server };
      const status = await runExecPlugin(this.exec, { clock: this.options.runClock ?? this.clock, signal: ctl.signal, cluster, env: this.options.env, interaction: this.options.interaction, user: this.userName });
      const base = await this.base.get(ctl.signal);
      if (this.disposed) throw new AbortedError('credentials disposed');
      this.adopt(base, status, startedAt);
      return this.current!;
    } finally {
      this.flight = undefined;
      this.flightAbort = undefined;
    }
  }

  /** Takes what the plugin returned, and plans the next run from the credential's own lifetime. */
  private adopt(base: Credentials, status: ExecCredentialStatus, startedAt: number): void {
    const digest = credentialDigest(status);
    const same = this.current !== undefined && digest === this.currentDigest;
    if (same && this.currentExpiresAt !== undefined && startedAt < this.currentExpiresAt) this.pluginCaches = true;
    if (!same) this.firstSeenAt = startedAt;
    const next = this.merge(base, status);
    if (!same || !this.current || next.tlsKey !== this.current.tlsKey || JSON.stringify(next.headers) !== JSON.stringify(this.current.headers)) {
      this.current = { ...next, generation: ++this.generation };
    }
    this.currentDigest = digest;
    this.currentExpiresAt = status.expiresAt;
    this.scheduleRenewal();
  }

  private merge(base: Credentials, status: ExecCredentialStatus): Omit<Credentials, 'generation'> {
    const headers: Record<string, string> = { ...base.headers };
    if (status.token) headers.Authorization = `Bearer ${status.token}`;
    const tls: TlsMaterial = { ...base.tls };
    if (status.clientCertificateData) {
      tls.cert = status.clientCertificateData;
      tls.key = status.clientKeyData;
    }
    return { headers, tls, tlsKey: tlsKeyOf(tls) };
  }

  private scheduleRenewal(): void {
    this.renewTimer?.cancel();
    this.renewTimer = undefined;
    if (this.disposed) return;
    const now = this.clock.now();
    const at = planRenewal({ now, lastRunAt: this.lastRunAt, firstSeenAt: this.firstSeenAt, expiresAt: this.currentExpiresAt, pluginCaches: this.pluginCaches });
    if (at === undefined) return;
    this.renewTimer = this.clock.setTimer(() => {
      this.renewTimer = undefined;
      if (this.disposed || this.flight) return;
      // A failed renewal keeps the current credentials until they expire; get() then runs the plugin again.
      this.flight = this.fly();
      this.flight.catch(() => undefined);
    }, at - now);
  }
}

/** Identifies a credential by its content (a one-way digest: the token itself is never kept as a key). */
function credentialDigest(status: ExecCredentialStatus): string {
  return createHash('sha256')
    .update(JSON.stringify([status.token ?? '', status.clientCertificateData ?? '', status.clientKeyData ?? '']))
    .digest('hex');
}

/** The exec block of the current user, or undefined when it has none. */
export function execConfigOf(kc: KubeConfig): ExecConfig | undefined {
  const user = kc.getCurrentUser();
  const exec = (user?.exec ?? (user?.authProvider as { config?: { exec?: unknown } } | undefined)?.config?.exec) as ExecConfig | undefined;
  return exec && typeof exec.command === 'string' && exec.command ? exec : undefined;
}

/** A copy of the configuration whose current user has no exec block: client-node then gives only the CA and static certificates. */
export function withoutExec(kc: KubeConfig): KubeConfig {
  const copy = new KubeConfig();
  const current = kc.getCurrentUser();
  copy.loadFromOptions({
    clusters: kc.getClusters(),
    contexts: kc.getContexts(),
    users: kc.getUsers().map((u) => (u === current ? { ...u, exec: undefined, authProvider: undefined } : u)),
    currentContext: kc.getCurrentContext(),
  });
  return copy;
}

/**
 * The cluster as client-go hands it to a plugin with `provideClusterInfo`: the server, the CA
 * (the kubeconfig's data, or the contents of its file, read at each run), TLS name, skip-verify,
 * proxy, and the cluster's exec extension as `config`.
 */
async function clusterInfo(c: KubeconfigCluster | undefined): Promise<ExecClusterInfo | undefined> {
  if (!c) return undefined;
  const info: ExecClusterInfo = { server: c.server };
  if (c.caData) info['certificate-authority-data'] = c.caData;
  else if (c.caFile) {
    // Unreadable: left out; the connection says why in its own words.
    const pem = await readFile(c.caFile).catch(() => undefined);
    if (pem) info['certificate-authority-data'] = pem.toString('base64');
  }
  if (c.skipTLSVerify) info['insecure-skip-tls-verify'] = true;
  if (c.tlsServerName) info['tls-server-name'] = c.tlsServerName;
  if (c.proxyUrl) info['proxy-url'] = c.proxyUrl;
  if (c.execExtension !== undefined) info.config = c.execExtension;
  return info;
}
