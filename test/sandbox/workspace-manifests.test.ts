import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { parseManifests } from '../../src/manifests/manifest-documents';

/** The sandbox's workspace manifests: what they name is on the simulated cluster (cache.yaml on purpose not), and the churn makes one drift and return. */
describe('sandbox: the workspace folder\'s manifests', () => {
  const dir = path.resolve(import.meta.dirname, '../../scripts/sandbox/workspace/manifests');
  let cluster: SimulatedCluster;
  before(async () => {
    cluster = await SimulatedCluster.start({ log: () => undefined, podLogEveryMs: 0 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('each file is recognised; each object it names is on the cluster, except the one meant to be missing', () => {
    const resource: Record<string, string> = { Deployment: 'deployments.apps', ConfigMap: 'configmaps' };
    const found: string[] = [];
    for (const file of ['shop/web.yaml', 'shop/cache.yaml', 'payments/ledger-config.yaml', 'overlay/report-settings.yaml']) {
      const parsed = parseManifests(fs.readFileSync(path.join(dir, file), 'utf8'));
      assert.equal(parsed.kind, 'manifests', file);
      if (parsed.kind !== 'manifests') continue;
      for (const d of parsed.documents) {
        const ns = d.namespace ?? 'batch'; // overlay/: the kustomization's namespace
        if (cluster.server.get(resource[d.kind], ns, d.name)) found.push(`${d.kind} ${ns}/${d.name}`);
      }
    }
    assert.deepEqual(found, ['Deployment shop/web', 'ConfigMap shop/web-config', 'ConfigMap payments/ledger-config', 'ConfigMap batch/report-settings']);
  });

  it('the churn changes the ledger\'s settlement window by hand (ops-console) and back', () => {
    const window = () => (cluster.server.get('configmaps', 'payments', 'ledger-config')?.data as Record<string, string>).SETTLEMENT_WINDOW;
    const seen = [window()];
    for (let i = 0; i < 20; i++) {
      cluster.churn();
      if (window() !== seen[seen.length - 1]) seen.push(window());
    }
    assert.deepEqual(seen, ['15m', '30m', '15m']);
  });
});
