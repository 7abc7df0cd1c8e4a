import assert from 'node:assert/strict';
import { systemClock } from '../../src/base';
import { ManifestEngine, type DocumentView } from '../../src/manifests/manifest-engine';
import { applyDocuments } from '../../src/manifests/manifest-apply';
import { DEPLOYMENTS, PROTOCOLS, until, useControlPlane, useTransports } from './support';
import { transportCluster } from '../manifests/support/transport-cluster';

/**
 * Workspace manifests against a real kube-apiserver 1.34.9: the comparison is a server-side dry
 * run, so what the server defaults is not drift; a scale by someone else is drift of
 * spec.replicas only; and applying over another field manager's change is explained, not forced.
 */
describe('[real] workspace manifests: live state by server-side dry run (kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportOf = useTransports();
  const manifest = (ns: string, replicas: number) =>
    ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', `  namespace: ${ns}`, 'spec:', `  replicas: ${replicas}`, '  selector:', '    matchLabels: {app: web}', '  template:', '    metadata:', '    labels: {app: web}', '    spec:', '      containers:', '      - name: web', '        image: nginx:1.27', ''].join('\n').replace('    metadata:\n    labels', '    metadata:\n      labels');

  for (const { label, http2 } of PROTOCOLS) {
    it(`[real] ${label}: a Deployment applied from the file reads in sync (its defaulted fields are no drift); a scale on the cluster is drift of spec.replicas only; Apply explains the conflict with the scaler and, forced, returns it to in sync`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
      const text = manifest(ns, 2);
      // Created as a CI tool would, from the same file (the server fills strategy, revisionHistoryLimit, imagePullPolicy, ...).
      await p.admin.patch(`${path}?fieldManager=ci`, JSON.parse(JSON.stringify((await import('yaml')).parse(text))), 'apply');
      const cluster = transportCluster(transportOf(p, 'admin', http2), [DEPLOYMENTS], ns);
      const engine = new ManifestEngine(cluster, { clock: systemClock, debounceMs: 10 });
      const uri = 'file:///w/web.yaml';
      const doc = (): DocumentView | undefined => engine.view(uri)?.documents[0];
      try {
        engine.update(uri, text);
        await until(() => doc()?.state.kind === 'in-sync', () => `'in sync': ${JSON.stringify(doc()?.state)}`);

        await p.admin.patch(`${path}/scale?fieldManager=kubectl-scale`, { spec: { replicas: 5 } }, 'merge');
        await until(() => doc()?.state.kind === 'drifted', () => `'drifted': ${JSON.stringify(doc()?.state)}`);
        const drifted = doc()!.state as Extract<DocumentView['state'], { kind: 'drifted' }>;
        assert.deepEqual(drifted.fields, ['spec.replicas']);
        assert.deepEqual(drifted.conflicts, ['kubectl-scale']);
        assert.equal((doc()!.diff!.live.spec as { replicas: number }).replicas, 5);
        assert.equal((doc()!.diff!.result.spec as { replicas: number }).replicas, 2);

        const refused = await applyDocuments(cluster, [doc()!], false, new AbortController().signal);
        assert.equal(refused[0].outcome, 'conflicts');
        assert.match(refused[0].message, /spec\.replicas is managed by kubectl-scale: forcing the apply makes Kube Watch their manager/);
        assert.equal(((await p.admin.get(path)).spec as { replicas: number }).replicas, 5, 'nothing applied without force');

        const applied = await applyDocuments(cluster, [doc()!], true, new AbortController().signal);
        assert.equal(applied[0].outcome, 'applied', applied[0].message);
        await until(() => doc()?.state.kind === 'in-sync' && doc()?.live?.metadata.resourceVersion === applied[0].object?.metadata.resourceVersion, () => `'in sync again, seen by the watch': ${JSON.stringify(doc()?.state)}`);
        assert.equal(((await p.admin.get(path)).spec as { replicas: number }).replicas, 2);
        assert.ok((engine.dryRunsStarted.get(`${uri}#apps/v1|Deployment|${ns}|web`) ?? 0) <= 4, `dry runs: ${JSON.stringify([...engine.dryRunsStarted])}`);
      } finally {
        engine.dispose();
      }
      assert.equal(cluster.running.size, 0, 'every watch stopped');
    });

    it(`[real] ${label}: an unknown field is a problem on its own line (fieldValidation=Strict); a missing object reads not on the cluster`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const cluster = transportCluster(transportOf(p, 'admin', http2), [DEPLOYMENTS], ns);
      const engine = new ManifestEngine(cluster, { clock: systemClock, debounceMs: 10 });
      const uri = 'file:///w/web.yaml';
      try {
        const text = manifest(ns, 2).replace('  replicas: 2', '  replicas: 2\n  replicaz: 3');
        engine.update(uri, text);
        await until(() => (engine.view(uri)?.documents[0]?.problems.length ?? 0) > 0, () => `'a problem': ${JSON.stringify(engine.view(uri)?.documents[0])}`);
        const view = engine.view(uri)!.documents[0];
        assert.equal(view.state.kind, 'invalid');
        assert.match(view.problems[0].message, /replicaz: unknown field/);
        assert.equal(view.problems[0].range.line, text.split('\n').findIndex((l) => l.includes('replicaz')));
        engine.update(uri, manifest(ns, 2));
        await until(() => engine.view(uri)?.documents[0]?.state.kind === 'missing', () => `'missing': ${JSON.stringify(engine.view(uri)?.documents[0]?.state)}`);
      } finally {
        engine.dispose();
      }
    });
  }
});
