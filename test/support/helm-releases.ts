/**
 * Helm release storage objects as helm writes them (helm pkg/storage/driver: secrets.go,
 * cfgmaps.go, util.go): the release JSON (pkg/release/v1), gzipped at best compression and
 * base64-encoded by `encodeRelease`, stored as `data.release` of a Secret (`type:
 * helm.sh/release.v1`, so base64 once more on the wire) or a ConfigMap, named
 * `sh.helm.release.v1.NAME.vREVISION`, labelled `name`, `owner=helm`, `status`, `version`
 * and `modifiedAt`. Used by the sandbox, the browser tests, the real tests and B14.
 */
import { releaseObjectName, storedReleaseData, type ReleaseStorage } from '../../src/helm';

export interface ReleaseSpec {
  name: string;
  namespace: string;
  revision: number;
  status: string;
  chart: { name: string; version: string; appVersion: string; values: Record<string, unknown> };
  /** The user-supplied values (`config`). */
  config: Record<string, unknown>;
  manifest: string;
  notes?: string;
  hooks?: { name: string; kind: string; path: string; manifest: string; events: string[] }[];
  /** When it was written (ms since the epoch). */
  at: number;
  description?: string;
}

/** The release JSON helm marshals (field names as in pkg/release/v1). */
export function releaseJson(s: ReleaseSpec): Record<string, unknown> {
  const at = new Date(s.at).toISOString();
  return {
    name: s.name,
    info: { first_deployed: at, last_deployed: at, deleted: '', description: s.description ?? (s.revision === 1 ? 'Install complete' : 'Upgrade complete'), status: s.status, notes: s.notes ?? '' },
    chart: {
      metadata: { name: s.chart.name, version: s.chart.version, appVersion: s.chart.appVersion, apiVersion: 'v2', type: 'application', description: `A Helm chart for ${s.chart.name}` },
      lock: null,
      templates: [],
      values: s.chart.values,
      schema: null,
      files: [],
    },
    config: s.config,
    manifest: s.manifest,
    hooks: (s.hooks ?? []).map((h) => ({ ...h, last_run: { started_at: at, completed_at: at, phase: 'Succeeded' }, weight: 0, delete_policies: ['before-hook-creation'] })),
    version: s.revision,
    namespace: s.namespace,
  };
}

/** The Secret or ConfigMap helm's driver writes for one revision (creation body, as JSON). */
export function releaseStorageObject(storage: ReleaseStorage, s: ReleaseSpec, payload: Record<string, unknown> = releaseJson(s)): Record<string, unknown> {
  const metadata = {
    name: releaseObjectName(s.name, s.revision),
    namespace: s.namespace,
    labels: { name: s.name, owner: 'helm', status: s.status, version: String(s.revision), modifiedAt: String(Math.floor(s.at / 1000)) },
  };
  const data = { release: storedReleaseData(storage, payload) };
  return storage === 'secret' ? { apiVersion: 'v1', kind: 'Secret', metadata, type: 'helm.sh/release.v1', data } : { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
}

function deployment(ns: string, name: string, image: string, replicas: number, chart: string): string {
  return `---\n# Source: ${chart}/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n    app.kubernetes.io/managed-by: Helm\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels:\n      app: ${name}\n  template:\n    metadata:\n      labels:\n        app: ${name}\n    spec:\n      containers:\n        - name: main\n          image: ${image}\n`;
}

function configMap(ns: string, name: string, chart: string, data: Record<string, string>): string {
  return `---\n# Source: ${chart}/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`).join('')}`;
}

function service(ns: string, name: string, chart: string, port: number): string {
  return `---\n# Source: ${chart}/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  selector:\n    app: ${name}\n  ports:\n    - port: ${port}\n`;
}

/**
 * The sandbox's releases: `monitoring/observability` (3 revisions, deployed), `shop/web`
 * (2 revisions, a pre-upgrade hook), `payments/ledger` (stuck in pending-upgrade at revision 3;
 * revision 2 deployed) and `kube-system/coredns` stored by the ConfigMap driver.
 */
export function sandboxReleases(now: number): { storage: ReleaseStorage; spec: ReleaseSpec }[] {
  const day = 86_400_000;
  const out: { storage: ReleaseStorage; spec: ReleaseSpec }[] = [];
  const obsChart = { name: 'observability', version: '58.2.1', appVersion: 'v2.53.0', values: { prometheus: { replicas: 1, retention: '10d' }, grafana: { enabled: true, adminUser: 'admin' } } };
  const obs: [string, Record<string, unknown>, number][] = [
    ['superseded', {}, 1],
    ['superseded', { prometheus: { retention: '15d' } }, 1],
    ['deployed', { prometheus: { retention: '30d', replicas: 1 }, grafana: { adminUser: 'ops' } }, 1],
  ];
  obs.forEach(([status, config], i) => {
    const retention = (config.prometheus as { retention?: string } | undefined)?.retention ?? '10d';
    out.push({
      storage: 'secret',
      spec: {
        name: 'observability', namespace: 'monitoring', revision: i + 1, status, chart: obsChart, config, at: now - (3 - i) * day,
        manifest: deployment('monitoring', 'prometheus', 'quay.io/prometheus/prometheus:v2.53.0', 1, 'observability') + deployment('monitoring', 'grafana', 'grafana/grafana:11.1.0', 1, 'observability') + configMap('monitoring', 'prometheus-config', 'observability', { 'prometheus.yml': `global:\n  scrape_interval: 30s\n# retention ${retention}\n` }),
        notes: 'Grafana: kubectl --namespace monitoring port-forward deploy/grafana 3000\n',
      },
    });
  });
  const webChart = { name: 'web', version: '1.4.0', appVersion: '2.4.1', values: { replicaCount: 1, image: { repository: 'registry.example.com/shop/web', tag: '2.4.0' }, service: { port: 80 } } };
  const hook = { name: 'web-db-migrate', kind: 'Job', path: 'web/templates/migrate-job.yaml', events: ['pre-upgrade'], manifest: 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: web-db-migrate\n  annotations:\n    "helm.sh/hook": pre-upgrade\n' };
  [['superseded', { replicaCount: 1 }], ['deployed', { replicaCount: 2, image: { tag: '2.4.1' } }]].forEach(([status, config], i) => {
    const replicas = (config as { replicaCount: number }).replicaCount;
    const tag = ((config as { image?: { tag: string } }).image?.tag) ?? '2.4.0';
    out.push({
      storage: 'secret',
      spec: {
        name: 'web', namespace: 'shop', revision: i + 1, status: status as string, chart: webChart, config: config as Record<string, unknown>, at: now - (2 - i) * day,
        manifest: deployment('shop', 'web', `registry.example.com/shop/web:${tag}`, replicas, 'web') + service('shop', 'web', 'web', 80) + configMap('shop', 'web-config', 'web', { LOG_LEVEL: 'info', FEATURE_CHECKOUT: 'on' }),
        hooks: [hook], notes: 'The shop is at http://web.shop.svc\n',
      },
    });
  });
  const ledgerChart = { name: 'ledger', version: '3.2.0', appVersion: '3.2.0', values: { replicaCount: 2, image: { tag: '3.1.0' } } };
  [['superseded', {}], ['deployed', { image: { tag: '3.2.0' } }], ['pending-upgrade', { image: { tag: '3.3.0-rc1' } }]].forEach(([status, config], i) => {
    const tag = ((config as { image?: { tag: string } }).image?.tag) ?? '3.1.0';
    out.push({
      storage: 'secret',
      spec: {
        name: 'ledger', namespace: 'payments', revision: i + 1, status: status as string, chart: ledgerChart, config: config as Record<string, unknown>, at: now - (3 - i) * 3_600_000,
        manifest: deployment('payments', 'ledger', `registry.example.com/payments/ledger:${tag}`, 2, 'ledger') + service('payments', 'ledger', 'ledger', 8080),
        description: status === 'pending-upgrade' ? 'Preparing upgrade' : undefined,
      },
    });
  });
  out.push({
    storage: 'configmap',
    spec: {
      name: 'coredns', namespace: 'kube-system', revision: 1, status: 'deployed', at: now - 30 * day, config: {},
      chart: { name: 'coredns', version: '1.29.0', appVersion: '1.11.1', values: { replicaCount: 2 } },
      manifest: deployment('kube-system', 'coredns', 'registry.k8s.io/coredns/coredns:v1.11.1', 2, 'coredns'),
    },
  });
  return out;
}
