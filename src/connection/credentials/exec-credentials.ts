import { KubeConfig } from '@kubernetes/client-node';
import { AbortedError, TransportError } from '../../base/api-error';
import { systemClock, type Clock, type TimerHandle } from '../../base/clock';
import type { CredentialProvider, Credentials, TlsMaterial } from './credentials';
import { runExecPlugin, type ExecClusterInfo, type ExecConfig, type ExecCredentialStatus } from './exec-plugin-runner';
import { KubeConfigCredentials, tlsKeyOf } from './kubeconfig-credentials';

/** Refresh ahead of expiry: at 80% of the lifetime or 60 s before it, whichever comes first. */
export function refreshAt(issuedAt: number, expiresAt: number): number {
  return Math.min(issuedAt + 0.8 * (expiresAt - issuedAt), expiresAt - 60_000);
}

export interface ExecCredentialsOptions {
  clock?: Clock;
  /** The environment the plugin inherits; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The credentials of a kubeconfig user with an `exec` block, run with the project's runner:
 * - single flight: at most one plugin process at a time, whoever asks (get, refresh, the timer);
 * - a credential without `expirationTimestamp` is kept until the server refuses it (401);
 *   one with an expiry is renewed ahead of it on the injected clock;
 * - a waiting `get()` rejects at once when its signal aborts; the plugin keeps running for the
 *   others (and for a restarted informer, which joins it) until `dispose()` kills it.
 * The CA and any static client certificate still come from client-node (the user without exec).
 */
export class ExecCredentials implements CredentialProvider {
  private readonly clock: Clock;
  private readonly base: KubeConfigCredentials;
  private current: Credentials | undefined;
  private currentExpiresAt: number | undefined;
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
    this.cluster = clusterInfo(kc);
  }

  private readonly cluster: ExecClusterInfo | undefined;

  get(signal: AbortSignal): Promise<Credentials> {
    if (this.current && (this.currentExpiresAt === undefined || this.clock.now() < this.currentExpiresAt)) return Promise.resolve(this.current);
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
      this.runs++;
      const issuedAt = this.clock.now();
      const status = await runExecPlugin(this.exec, { clock: this.clock, signal: ctl.signal, cluster: this.cluster, env: this.options.env });
      const base = await this.base.get(ctl.signal);
      if (this.disposed) throw new AbortedError('credentials disposed');
      this.current = this.merge(base, status);
      this.currentExpiresAt = status.expiresAt;
      this.scheduleRenewal(issuedAt, status.expiresAt);
      return this.current;
    } finally {
      this.flight = undefined;
      this.flightAbort = undefined;
    }
  }

  private merge(base: Credentials, status: ExecCredentialStatus): Credentials {
    const headers: Record<string, string> = { ...base.headers };
    if (status.token) headers.Authorization = `Bearer ${status.token}`;
    const tls: TlsMaterial = { ...base.tls };
    if (status.clientCertificateData) {
      tls.cert = status.clientCertificateData;
      tls.key = status.clientKeyData;
    }
    return { headers, tls, tlsKey: tlsKeyOf(tls), generation: ++this.generation };
  }

  private scheduleRenewal(issuedAt: number, expiresAt: number | undefined): void {
    this.renewTimer?.cancel();
    this.renewTimer = undefined;
    if (expiresAt === undefined || this.disposed) return;
    const at = refreshAt(issuedAt, expiresAt);
    this.renewTimer = this.clock.setTimer(() => {
      this.renewTimer = undefined;
      if (this.disposed || this.flight) return;
      // A failed renewal keeps the current credentials until they expire; get() then runs the plugin again.
      this.flight = this.fly();
      this.flight.catch(() => undefined);
    }, Math.max(0, at - this.clock.now()));
  }
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

function clusterInfo(kc: KubeConfig): ExecClusterInfo | undefined {
  const c = kc.getCurrentCluster();
  if (!c) return undefined;
  const info: ExecClusterInfo = { server: c.server };
  if (c.caData) info['certificate-authority-data'] = c.caData;
  if (c.skipTLSVerify) info['insecure-skip-tls-verify'] = true;
  if (c.tlsServerName) info['tls-server-name'] = c.tlsServerName;
  if (c.proxyUrl) info['proxy-url'] = c.proxyUrl;
  return info;
}
