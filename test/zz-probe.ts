import * as fs from 'node:fs';
import { SimulatedCluster, DEFAULT_WATCHED } from '../scripts/sandbox/simulated-cluster';
import { ManifestEngine } from '../src/manifests/manifest-engine';
import { ManagerCluster } from '../src/manifests/manager-cluster';
import { WatchManager } from '../src/manager';
import { systemClock } from '../src/base';
void (async () => {
  const c = await SimulatedCluster.start({ log: () => undefined, podLogEveryMs: 0 });
  const manager = new WatchManager({ contexts: [], resources: [...DEFAULT_WATCHED], namespaces: [], kubeconfigPath: c.kubeconfigPath }, { clock: systemClock });
  await manager.start();
  const cluster = new ManagerCluster(manager, () => undefined, systemClock);
  const engine = new ManifestEngine(cluster, { clock: systemClock });
  const wait = process.argv[2] === 'late' ? 2000 : 0;
  await new Promise((r) => setTimeout(r, wait));
  engine.update('file:///web.yaml', fs.readFileSync('scripts/sandbox/workspace/manifests/shop/web.yaml', 'utf8'));
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const v = engine.view('file:///web.yaml')!;
    if (v.documents.every((d) => d.state.kind !== 'checking')) { console.log(v.documents.map((d) => JSON.stringify(d.state)).join('\n')); const d = v.documents[0]; if (d.diff) console.log(JSON.stringify(d.diff.live.metadata.labels), JSON.stringify((d.diff.result.metadata as any).labels), (d.diff.live.spec as any).progressDeadlineSeconds, (d.diff.result.spec as any).progressDeadlineSeconds); break; }
  }
  engine.dispose(); cluster.dispose(); manager.dispose();
  await c.stop();
})();
