/**
 * What tests set up on the real cluster, through the AdminClient: namespaces, ConfigMaps, RBAC
 * bindings, CustomResourceDefinitions, ServiceAccounts and their tokens. A minimal control plane
 * has no controllers, so nothing here relies on one: namespaces are never deleted (they would
 * never finish), ServiceAccounts are created explicitly, a CRD is waited for until Established.
 */
import { randomBytes } from 'node:crypto';
import { AdminClient, isStatus, type KubeJson, type ListJson } from './admin-client';
import { waitFor } from './wait';

/** Who a binding names: a user, a group, or a ServiceAccount. */
export type Subject = { user: string } | { group: string } | { serviceAccount: { namespace: string; name: string } };

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
}

export interface CrdOptions {
  group: string;
  /** Plural, e.g. `widgets`. */
  plural: string;
  kind: string;
  namespaced?: boolean;
  /** Default one served storage version `v1`. */
  versions?: CrdVersion[];
}

/**
 * Read-only on every resource (get, list, watch), made at start. The built-in `view`, `edit` and
 * `admin` roles are aggregated: their rules are filled in by the controller-manager, which a
 * minimal control plane lacks, so they grant nothing here.
 */
export const READ_ROLE = 'kube-watch:read';

let counter = 0;

/** A DNS-label name unique in this run: `prefix-N-xxxx`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${++counter}-${randomBytes(2).toString('hex')}`;
}

export class ClusterSetup {
  constructor(readonly admin: AdminClient) {}

  /** Creates a namespace (a fresh unique one unless named); returns its name. */
  async namespace(name = uniqueName('ns')): Promise<string> {
    await this.admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  }

  /** ConfigMaps of one namespace, the objects most rows watch. */
  configMaps(namespace: string): ConfigMaps {
    return new ConfigMaps(this.admin, namespace);
  }

  /** Creates READ_ROLE (the control plane does at start). */
  async readRole(): Promise<void> {
    await this.admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: READ_ROLE },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
    });
  }

  /**
   * Binds `clusterRole` (default READ_ROLE; `cluster-admin` for everything) to `subject` in
   * `namespace`, or cluster-wide without one.
   * Returns the binding's path, to delete it again.
   */
  async grant(subject: Subject, opts: { namespace?: string; clusterRole?: string; name?: string } = {}): Promise<string> {
    const name = opts.name ?? uniqueName('grant');
    const body = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: opts.namespace ? 'RoleBinding' : 'ClusterRoleBinding',
      metadata: { name, ...(opts.namespace ? { namespace: opts.namespace } : {}) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: opts.clusterRole ?? READ_ROLE },
      subjects: [subjectJson(subject)],
    };
    const collection = opts.namespace ? `/apis/rbac.authorization.k8s.io/v1/namespaces/${opts.namespace}/rolebindings` : '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings';
    await this.admin.post(collection, body);
    return `${collection}/${name}`;
  }

  /** Deletes what `grant` returned. */
  async revoke(bindingPath: string): Promise<void> {
    await this.admin.delete(bindingPath);
  }

  /** Creates a CRD and waits until it is Established (its API served); returns its definition. */
  async crd(opts: CrdOptions): Promise<KubeJson> {
    const name = `${opts.plural}.${opts.group}`;
    const versions = (opts.versions ?? [{ name: 'v1', served: true, storage: true }]).map((v) => ({
      ...v,
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    }));
    await this.admin.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group: opts.group,
        scope: opts.namespaced === false ? 'Cluster' : 'Namespaced',
        names: { plural: opts.plural, singular: opts.kind.toLowerCase(), kind: opts.kind, listKind: `${opts.kind}List` },
        versions,
      },
    });
    return this.crdEstablished(name);
  }

  /** Waits until the CRD `name` is Established and its served versions answer a LIST. */
  async crdEstablished(name: string): Promise<KubeJson> {
    const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
    return waitFor(
      async () => {
        const crd = await this.admin.get<KubeJson & { spec: { group: string; names: { plural: string }; versions: CrdVersion[] }; status?: { conditions?: { type: string; status: string }[] } }>(path);
        if (!crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return undefined;
        // Established comes before every handler serves the type: a LIST proves it. Until then
        // the server answers 404, or 429 "storage is (re)initializing" while its watch cache fills.
        for (const v of crd.spec.versions.filter((x) => x.served)) {
          try {
            await this.admin.list(`/apis/${crd.spec.group}/${v.name}/${crd.spec.names.plural}`);
          } catch (err) {
            if (isStatus(err, 404) || isStatus(err, 429)) return undefined;
            throw err;
          }
        }
        return crd;
      },
      `CRD ${name} established`,
      30_000,
    );
  }

  /**
   * Replaces a CRD's versions (which are served, which one is stored), as an upgrade that moves a
   * type from `v1beta1` to `v1` does; waits until the served ones answer. Objects are kept: with
   * the `None` conversion strategy they read the same under every version.
   */
  async crdVersions(name: string, versions: CrdVersion[]): Promise<KubeJson> {
    const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
    const crd = await this.admin.get<KubeJson & { spec: { versions: unknown[] } }>(path);
    crd.spec.versions = versions.map((v) => ({ ...v, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }));
    await this.admin.put(path, crd);
    return this.crdEstablished(name);
  }

  async deleteCrd(name: string): Promise<void> {
    await this.admin.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
  }

  async serviceAccount(namespace: string, name: string): Promise<KubeJson> {
    return this.admin.post(`/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  }

  /**
   * A bound token for a ServiceAccount (TokenRequest, what `kubectl create token` does). It is
   * valid until it expires or the ServiceAccount is deleted (the server looks the account up).
   */
  async serviceAccountToken(namespace: string, name: string, expirationSeconds = 3600): Promise<string> {
    const res = await this.admin.post<{ status: { token: string } }>(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds },
    });
    return res.status.token;
  }

  /**
   * Deletes a ServiceAccount: every token minted for it is refused (401) once the apiserver's
   * 10 s cache of successful token authentications has let it go.
   */
  async deleteServiceAccount(namespace: string, name: string): Promise<void> {
    await this.admin.delete(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}`);
  }
}

/** ConfigMaps in one namespace, named cm-0, cm-1, … unless a name is given. */
export class ConfigMaps {
  private next = 0;

  constructor(
    private readonly admin: AdminClient,
    readonly namespace: string,
  ) {}

  get path(): string {
    return `/api/v1/namespaces/${this.namespace}/configmaps`;
  }

  async create(name = `cm-${this.next++}`, data: Record<string, string> = { v: '0' }): Promise<KubeJson> {
    return this.admin.post(this.path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
  }

  /** Creates `n` ConfigMaps (a few at a time). */
  async createMany(n: number, data?: Record<string, string>): Promise<void> {
    const names = Array.from({ length: n }, () => `cm-${this.next++}`);
    for (let i = 0; i < names.length; i += 8) await Promise.all(names.slice(i, i + 8).map((name) => this.create(name, data)));
  }

  async update(name: string, value: string): Promise<KubeJson> {
    return this.admin.patch(`${this.path}/${name}`, { data: { v: value } });
  }

  async delete(name: string): Promise<void> {
    await this.admin.delete(`${this.path}/${name}`);
  }

  async get(name: string): Promise<KubeJson> {
    return this.admin.get(`${this.path}/${name}`);
  }

  async list(): Promise<ListJson> {
    return this.admin.list(this.path);
  }
}

function subjectJson(s: Subject): Record<string, string> {
  if ('user' in s) return { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: s.user };
  if ('group' in s) return { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: s.group };
  return { kind: 'ServiceAccount', name: s.serviceAccount.name, namespace: s.serviceAccount.namespace };
}
