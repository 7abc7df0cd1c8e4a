/**
 * A real control plane for tests: etcd 3.5 and kube-apiserver 1.34 on free loopback ports, with
 * a serving certificate (the committed test CA), a tokens file with three users, ServiceAccount
 * signing keys made with Node's crypto, and RBAC. Start one per test file (`useControlPlane`),
 * never one per test: tests isolate themselves in namespaces of their own.
 *
 * Users (static tokens, `users`):
 * - `admin`: group `system:masters` (cluster-admin); the AdminClient and `setup` act as it;
 * - `reader`: read-only everywhere (READ_ROLE bound cluster-wide after start);
 * - `limited`: READ_ROLE only in `limitedNamespaces` (RoleBindings made after start); refused elsewhere.
 *
 * A minimal control plane has no controller-manager, scheduler or kubelet (see
 * ../shared/envtest/README.md): objects, watches, lists, WatchList, bookmarks, 410s, RBAC,
 * admission, server-side apply, dry-run and field managers are all real; controllers are not.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AdminClient } from './admin-client';
import { ApiServerProcess, PortTakenError, type ApiServerFlags, type ApiServerFiles } from './apiserver';
import { findAssets, type Assets } from './assets';
import { ClusterSetup } from './cluster-setup';
import { Etcd } from './etcd';
import { renderKubeconfig, type KubeconfigUser } from './kubeconfig';
import { freePorts } from './ports';
import { makeDataDir, removeDataDir } from './processes';
import { AuditLog, AUDIT_POLICY, type AuditEvent } from './audit-log';
import { TcpRelay } from '../../support/tcp-relay';

const CERTS = path.join(import.meta.dirname, '..', '..', 'support', 'certs');
const START_ATTEMPTS = 3;

export interface ControlPlaneOptions {
  /** The apiserver's watch cache; default on. Off: no bookmarks, and compacted resourceVersions answer 410. */
  watchCache?: boolean;
  /** `--feature-gates`, e.g. `{ WatchList: false }` (the 1.33 default). */
  featureGates?: Record<string, boolean>;
  /** Default 'RBAC'. */
  authorization?: 'RBAC' | 'AlwaysAllow';
  /**
   * The apiserver's own etcd compaction, in seconds; default 0 (never), so that only a test's
   * `compact()` moves the history window.
   */
  compactionIntervalSeconds?: number;
  /** Namespaces (created after start) where the `limited` user may read; default none. */
  limitedNamespaces?: string[];
  /** Users besides admin, reader and limited: name and groups (no permissions unless granted). */
  extraUsers?: { name: string; groups?: string[] }[];
  /** Record every request in an audit log, read with `requests()`; default off. */
  audit?: boolean;
  /** More kube-apiserver flags. */
  extraArgs?: string[];
}

export interface User {
  name: string;
  token: string;
  groups: string[];
}

/** Milliseconds each part of the start took (for the report on CI time). */
export interface StartupTimes {
  unpackMs: number;
  etcdMs: number;
  apiServerMs: number;
  setupMs: number;
  totalMs: number;
}

export class ControlPlane {
  readonly admin: AdminClient;
  readonly setup: ClusterSetup;
  readonly caPem: string;
  private readonly relays = new Set<TcpRelay>();
  private apiServer: ApiServerProcess | undefined;
  private auditLog: AuditLog | undefined;
  startup: StartupTimes = { unpackMs: 0, etcdMs: 0, apiServerMs: 0, setupMs: 0, totalMs: 0 };

  private constructor(
    readonly assets: Assets,
    readonly dataDir: string,
    readonly etcd: Etcd,
    readonly port: number,
    readonly users: { admin: User; reader: User; limited: User } & Record<string, User>,
    private readonly files: ApiServerFiles,
    private readonly flags: ApiServerFlags,
  ) {
    this.caPem = fs.readFileSync(path.join(CERTS, 'ca.pem'), 'utf8');
    this.admin = new AdminClient(this.url, this.caPem, users.admin.token);
    this.setup = new ClusterSetup(this.admin);
    if (files.auditLog) this.auditLog = new AuditLog(files.auditLog);
  }

  /** https://127.0.0.1:PORT */
  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /** Whether kube-apiserver is running (false between `stopApiServer` and `startApiServer`). */
  get apiServerUp(): boolean {
    return this.apiServer !== undefined && !this.apiServer.exited;
  }

  static async start(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
    const t0 = Date.now();
    const assets = findAssets();
    const unpackMs = Date.now() - t0;
    const dataDir = makeDataDir();
    let etcd: Etcd | undefined;
    try {
      const t1 = Date.now();
      etcd = await Etcd.start(path.join(assets.dir, 'etcd'), dataDir);
      const etcdMs = Date.now() - t1;
      const users = makeUsers(opts.extraUsers ?? []);
      const files = writeFiles(dataDir, users, opts.audit ?? false);
      const flags: ApiServerFlags = {
        watchCache: opts.watchCache ?? true,
        featureGates: opts.featureGates ?? {},
        authorization: opts.authorization ?? 'RBAC',
        compactionIntervalSeconds: opts.compactionIntervalSeconds ?? 0,
        extraArgs: opts.extraArgs ?? [],
      };
      const t2 = Date.now();
      for (let attempt = 1; ; attempt++) {
        const [port] = await freePorts(1);
        const plane = new ControlPlane(assets, dataDir, etcd, port, users, files, flags);
        try {
          await plane.startApiServer();
        } catch (err) {
          plane.admin.dispose();
          if (err instanceof PortTakenError && attempt < START_ATTEMPTS) continue;
          throw err;
        }
        const apiServerMs = Date.now() - t2;
        const t3 = Date.now();
        await plane.setup.readRole();
        await plane.setup.grant({ user: 'reader' }, { name: 'kube-watch-reader' });
        for (const ns of opts.limitedNamespaces ?? []) {
          await plane.setup.namespace(ns);
          await plane.setup.grant({ user: 'limited' }, { namespace: ns, name: 'kube-watch-limited' });
        }
        plane.startup = { unpackMs, etcdMs, apiServerMs, setupMs: Date.now() - t3, totalMs: Date.now() - t0 };
        return plane;
      }
    } catch (err) {
      await etcd?.stop();
      removeDataDir(dataDir);
      throw err;
    }
  }

  /** Kubeconfig text for a user (by name, or any credential), optionally through a relay. */
  kubeconfig(user: keyof ControlPlane['users'] | KubeconfigUser, opts: { via?: TcpRelay; namespace?: string; name?: string } = {}): string {
    const credential: KubeconfigUser = typeof user === 'string' ? { token: this.userNamed(user).token } : user;
    const server = opts.via ? `https://127.0.0.1:${opts.via.port}` : this.url;
    return renderKubeconfig({ server, caPem: this.caPem, user: credential, namespace: opts.namespace, name: opts.name });
  }

  /** A TCP relay in front of the apiserver (freeze, cut, restore); closed with the control plane. */
  async relay(): Promise<TcpRelay> {
    const relay = await TcpRelay.start(this.port);
    this.relays.add(relay);
    return relay;
  }

  /** Closes a relay before the end (its connections are destroyed). */
  async closeRelay(relay: TcpRelay): Promise<void> {
    this.relays.delete(relay);
    await relay.close();
  }

  /** Compacts etcd at its current revision (or `revision`); returns the revision. */
  compact(revision?: number): Promise<number> {
    return this.etcd.compact(revision);
  }

  /** etcd's current revision: the newest resourceVersion. */
  revision(): Promise<number> {
    return this.etcd.revision();
  }

  /**
   * Stops kube-apiserver (etcd keeps running): connections are refused until `startApiServer`.
   * `abrupt`: SIGKILL, as a crash; otherwise SIGTERM, its graceful shutdown.
   */
  async stopApiServer(opts: { abrupt?: boolean } = {}): Promise<void> {
    const s = this.apiServer;
    this.apiServer = undefined;
    await s?.stop(opts);
  }

  /** Starts kube-apiserver again on the same port (its watch cache starts afresh, at etcd's revision). */
  async startApiServer(): Promise<void> {
    if (this.apiServerUp) return;
    this.apiServer = await ApiServerProcess.start(path.join(this.assets.dir, 'kube-apiserver'), this.dataDir, this.etcd.url, this.port, this.files, this.flags, this.admin);
  }

  /** The requests the apiserver has finished (or started streaming) so far; needs `audit: true`. */
  requests(filter: (e: AuditEvent) => boolean = () => true): AuditEvent[] {
    if (!this.auditLog) throw new Error('requests() needs a control plane started with audit: true');
    return this.auditLog.read().filter(filter);
  }

  /** Stops everything and removes the data directory. Safe to call twice. */
  async stop(): Promise<void> {
    for (const r of this.relays) await r.close();
    this.relays.clear();
    this.admin.dispose();
    await this.stopApiServer();
    await this.etcd.stop();
    removeDataDir(this.dataDir);
  }

  private userNamed(name: string): User {
    const u = this.users[name];
    if (!u) throw new Error(`no user "${name}" (users: ${Object.keys(this.users).join(', ')})`);
    return u;
  }
}

function makeUsers(extra: { name: string; groups?: string[] }[]): ControlPlane['users'] {
  const token = () => randomBytes(24).toString('hex');
  const users: Record<string, User> = {
    admin: { name: 'admin', token: token(), groups: ['system:masters'] },
    reader: { name: 'reader', token: token(), groups: ['kube-watch:readers'] },
    limited: { name: 'limited', token: token(), groups: ['kube-watch:limited'] },
  };
  for (const u of extra) users[u.name] = { name: u.name, token: token(), groups: u.groups ?? [] };
  return users as ControlPlane['users'];
}

/** The tokens file, ServiceAccount keys and (optionally) the audit policy, in the data directory. */
function writeFiles(dir: string, users: Record<string, User>, audit: boolean): ApiServerFiles {
  const tokens = path.join(dir, 'tokens.csv');
  fs.writeFileSync(tokens, Object.values(users).map((u, i) => `${u.token},${u.name},uid-${i},"${u.groups.join(',')}"`).join('\n') + '\n', { mode: 0o600 });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saPublicKey = path.join(dir, 'sa.pub');
  const saPrivateKey = path.join(dir, 'sa.key');
  fs.writeFileSync(saPublicKey, publicKey.export({ type: 'spki', format: 'pem' }));
  fs.writeFileSync(saPrivateKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const files: ApiServerFiles = { tokens, saPublicKey, saPrivateKey, tlsCert: path.join(CERTS, 'server.pem'), tlsKey: path.join(CERTS, 'server-key.pem') };
  if (audit) {
    files.auditPolicy = path.join(dir, 'audit-policy.yaml');
    files.auditLog = path.join(dir, 'audit.log');
    fs.writeFileSync(files.auditPolicy, AUDIT_POLICY);
  }
  return files;
}
