/**
 * One kube-apiserver process on a loopback port, over a running etcd. Its files (tokens, keys,
 * audit policy) live in the control plane's data directory; `ControlPlane` writes them.
 */
import * as path from 'node:path';
import { AdminClient } from './admin-client';
import { ManagedProcess } from './processes';
import { isPortTaken } from './ports';
import { waitFor } from './wait';

/** How long /readyz may take on a loaded machine (2.8 s when idle). */
const READY_BOUND_MS = 90_000;

/** The issuer and audience of ServiceAccount tokens (as in a real cluster). */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface ApiServerFiles {
  tokens: string;
  saPublicKey: string;
  saPrivateKey: string;
  tlsCert: string;
  tlsKey: string;
  auditPolicy?: string;
  auditLog?: string;
}

export interface ApiServerFlags {
  watchCache: boolean;
  featureGates: Record<string, boolean>;
  authorization: 'RBAC' | 'AlwaysAllow';
  compactionIntervalSeconds: number;
  extraArgs: string[];
}

export class ApiServerProcess {
  private constructor(
    readonly port: number,
    private readonly process: ManagedProcess,
  ) {}

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get exited(): boolean {
    return this.process.exit !== undefined;
  }

  /**
   * Starts kube-apiserver on `port` and waits for `/readyz` to answer 200 `ok` to `probe`.
   * A port taken meanwhile rejects with PortTakenError (the caller may retry on another).
   */
  static async start(binary: string, dataDir: string, etcdUrl: string, port: number, files: ApiServerFiles, flags: ApiServerFlags, probe: AdminClient): Promise<ApiServerProcess> {
    const args = [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${port}`,
      `--tls-cert-file=${files.tlsCert}`,
      `--tls-private-key-file=${files.tlsKey}`,
      `--cert-dir=${path.join(dataDir, 'certs')}`,
      `--token-auth-file=${files.tokens}`,
      `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
      `--api-audiences=${SERVICE_ACCOUNT_ISSUER}`,
      `--service-account-key-file=${files.saPublicKey}`,
      `--service-account-signing-key-file=${files.saPrivateKey}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--endpoint-reconciler-type=none',
      `--authorization-mode=${flags.authorization}`,
      // As envtest does: no controller creates the `default` ServiceAccount that pods would need.
      '--disable-admission-plugins=ServiceAccount',
      '--allow-privileged=true',
      `--etcd-compaction-interval=${flags.compactionIntervalSeconds}s`,
      `--watch-cache=${flags.watchCache}`,
      '--profiling=false',
    ];
    const gates = Object.entries(flags.featureGates);
    if (gates.length > 0) args.push(`--feature-gates=${gates.map(([k, v]) => `${k}=${v}`).join(',')}`);
    if (files.auditPolicy && files.auditLog) args.push(`--audit-policy-file=${files.auditPolicy}`, `--audit-log-path=${files.auditLog}`, '--audit-log-mode=blocking');
    args.push(...flags.extraArgs);
    const proc = ManagedProcess.spawn('kube-apiserver', binary, args, dataDir, path.join(dataDir, 'kube-apiserver.log'));
    const server = new ApiServerProcess(port, proc);
    try {
      await waitFor(
        async () => {
          try {
            const res = await probe.raw('GET', '/readyz');
            return res.status === 200 && res.text.trim() === 'ok' ? true : undefined;
          } catch {
            return undefined; // not listening yet
          }
        },
        'kube-apiserver /readyz',
        READY_BOUND_MS,
        proc,
      );
      return server;
    } catch (err) {
      await proc.stop(1000);
      if (isPortTaken(proc.logTail(80))) throw new PortTakenError(port);
      throw err;
    }
  }

  /** SIGTERM (SIGKILL after a grace), or SIGKILL at once with `abrupt` (a crash). */
  async stop(opts: { abrupt?: boolean } = {}): Promise<void> {
    if (opts.abrupt) this.process.killNow();
    await this.process.stop();
  }
}

export class PortTakenError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} was taken before kube-apiserver could bind it`);
    this.name = 'PortTakenError';
  }
}
