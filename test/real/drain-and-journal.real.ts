import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WriteJournal, drainFilter, drainResultWords, planDelete, planDrain, podsOnNode, runDrain, runPlan, type ActionTarget, type DrainProgress } from '../../src/actions';
import type { KubeObject } from '../../src/informer';
import { WatchManager } from '../../src/manager';
import { NODES, PODS, PROTOCOLS, REAL_BOUND_MS, uniqueName, until, useControlPlane, useTransports, type ControlPlane } from './support';

/**
 * W08 and W10 on a real kube-apiserver 1.34 (with an audit log, to see the order of requests): a
 * drain cordons the Node against a fresh read before it lists the Pods, evicts Pods placed on
 * the node during the drain too (or names them), and is "drained" only when a fresh list is
 * empty; the write journal confirms a delete only when the watch shows the object gone, and says
 * "written, not visible to the watch" for an object outside the watch's selector. No scheduler or
 * kubelet runs: Pods are "scheduled" by creating them with spec.nodeName.
 */
const signal = () => new AbortController().signal;
const noWatches = { entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) };

describe('[real] drain and the write journal act on what is there now (W08, W10; kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane({ audit: true });
  const transportAs = useTransports();
  const disposables: { dispose(): void }[] = [];
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
  });

  const transportOf = (p: ControlPlane, http2: boolean) => transportAs(p, 'admin', http2);

  async function serviceAccount(p: ControlPlane, ns: string): Promise<void> {
    await p.admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }).catch(() => undefined);
  }

  for (const { label, http2 } of PROTOCOLS) {
    it(`W08 [real] ${label}: drain cordons against a fresh read first (a cached "cordoned" Node does not skip it), then lists; a Pod placed on the node after the first list is evicted too, one that may not go is named; "drained" only from a fresh list`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await serviceAccount(p, ns);
      const transport = transportOf(p, http2);
      const journal = new WriteJournal(noWatches);
      disposables.push(journal);
      const node = uniqueName('node');
      const created = await p.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
      try {
        const rs = await p.admin.post(`/apis/apps/v1/namespaces/${ns}/replicasets`, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-7d9' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } } });
        const owned = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: rs.metadata.uid, controller: true }] }, spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox' }] } });
        await p.admin.post(`/api/v1/namespaces/${ns}/pods`, owned('web-1'));
        // The cache says cordoned; the server's Node is schedulable.
        const cached: ActionTarget = { context: 'real', type: NODES, namespace: '', name: node, object: { ...(created as unknown as KubeObject), spec: { unschedulable: true } } };
        const options = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false, gracePeriodSeconds: 0 };
        const pods = await drainFilter(await podsOnNode(transport, node, signal()), options, async () => true);
        assert.deepEqual(pods.map((d) => [d.pod.metadata.name, d.evict]), [['web-1', true]]);
        const plan = planDrain(cached, pods, options);
        const listsBefore = p.requests((e) => e.stage === 'ResponseComplete' && e.verb === 'list' && e.objectRef?.resource === 'pods' && e.requestURI.includes(encodeURIComponent(`spec.nodeName=${node}`))).length;
        let placed = false;
        let placing: Promise<unknown> = Promise.resolve();
        // The drain's reads wait for the Pods being placed, so that they are there before its next read, whatever the machine's pace.
        const reader = {
          getJson: <T>(path: string, query: Record<string, string>, s: AbortSignal) => placing.then(() => transport.getJson<T>(path, query, s)),
          list: (path: string, query: Record<string, string>, s: AbortSignal) => placing.then(() => transport.list(path, query, s)),
        };
        const progress: string[] = [];
        const result = await runDrain(plan, options, { transport, journal, user: 'admin', reader }, signal(), (d: DrainProgress) => {
          progress.push(`${d.state}: ${d.words}`);
          if (d.state === 'evicting' && !placed) {
            placed = true;
            // "Scheduled" after the first list: one the drain may evict, one it may not (no controller, no --force).
            placing = Promise.all([
              p.admin.post(`/api/v1/namespaces/${ns}/pods`, owned('web-late')),
              p.admin.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'loose' }, spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox' }] } }),
            ]);
          }
        });
        assert.ok(placed);
        assert.equal(result.cordon, 'sent', 'the cached "cordoned" did not skip the cordon');
        assert.equal(((await p.admin.get(`/api/v1/nodes/${node}`)).spec as { unschedulable?: boolean }).unschedulable, true);
        assert.deepEqual(result.evicted.sort(), [`${ns}/web-1`, `${ns}/web-late`], progress.join('\n'));
        assert.deepEqual(result.remaining, [`${ns}/loose (placed on it during the drain; cannot delete Pods that declare no controller (use --force to override))`]);
        assert.equal(result.drained, false);
        assert.equal(drainResultWords(node, result), `Node ${node} is not drained (it was cordoned first). Evicted: ${result.evicted.join(', ')}. Still on it: ${ns}/loose (placed on it during the drain; cannot delete Pods that declare no controller (use --force to override)).`);
        const left = (await p.admin.list(`/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${node}`)}`)).items.map((i) => i.metadata.name);
        assert.deepEqual(left, ['loose']);

        // The order on the server: GET the Node, PATCH it, and only then the run's first list of its Pods.
        const events = p.requests((e) => e.stage === 'ResponseComplete' && ((e.objectRef?.resource === 'nodes' && e.objectRef.name === node && (e.verb === 'get' || e.verb === 'patch')) || (e.verb === 'list' && e.objectRef?.resource === 'pods' && e.requestURI.includes(encodeURIComponent(`spec.nodeName=${node}`)))));
        const runLists = events.filter((e) => e.verb === 'list').slice(listsBefore);
        const patch = events.find((e) => e.verb === 'patch');
        const read = events.find((e) => e.verb === 'get');
        assert.ok(patch && read && runLists.length >= 2, JSON.stringify(events.map((e) => e.verb)));
        assert.ok(read.stageTimestamp <= patch.requestReceivedTimestamp, 'the fresh read before the cordon');
        assert.ok(patch.stageTimestamp <= runLists[0].requestReceivedTimestamp, `cordoned (${patch.stageTimestamp}) before the first list (${runLists[0].requestReceivedTimestamp})`);
      } finally {
        await p.admin.delete(`/api/v1/nodes/${node}`);
      }
    });
  }

  it(`W10 [real] (the manager's default transport): a delete of a Pod outside the watch's label selector is "written, not visible to the watch", never confirmed; a terminating Pod is not confirmed until its delete event`, async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    await serviceAccount(p, ns);
    const node = uniqueName('node');
    await p.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
    // Bound to a node: a delete with a grace period leaves it terminating (no kubelet finishes it).
    const boundPod = (name: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox' }] } });
    await p.admin.post(`/api/v1/namespaces/${ns}/pods`, boundPod('web-1', { app: 'web' }));
    await p.admin.post(`/api/v1/namespaces/${ns}/pods`, boundPod('other', { app: 'other' }));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-journal-'));
    const kubeconfig = path.join(dir, 'config');
    fs.writeFileSync(kubeconfig, p.kubeconfig('admin', { name: 'real' }));
    const manager = new WatchManager({ contexts: [], resources: ['pods'], namespaces: [ns], labelSelector: 'app=web', kubeconfigPath: kubeconfig });
    const journal = new WriteJournal(manager, { confirmWithinMs: 60_000 });
    const lines: string[] = [];
    journal.onLine((l) => lines.push(`${l.level} ${l.text}`));
    try {
      await manager.start();
      const entry = await until(() => manager.entries().find((e) => e.state.synced && e.informer?.get(ns, 'web-1')), 'the watch synced', REAL_BOUND_MS);
      const session = { transport: manager.transportOf(entry.id)!, journal, user: 'admin' };
      const targetOf = async (name: string): Promise<ActionTarget> => ({ context: entry.context, type: PODS, namespace: ns, name, object: (await p.admin.get(`/api/v1/namespaces/${ns}/pods/${name}`)) as unknown as KubeObject });

      const outside = await runPlan(planDelete(await targetOf('other')), session, signal());
      assert.equal(outside.ok, true, outside.words);
      const outsideRecord = journal.records().at(-1)!;
      assert.equal(outsideRecord.state, 'unwatched');
      assert.match(outsideRecord.outcome ?? '', /^done at resourceVersion \d+; written, not visible to the watch \(outside its label selector app=web\), so nothing confirms it$/);
      assert.ok((await p.admin.get(`/api/v1/namespaces/${ns}/pods/other`)).metadata.deletionTimestamp, 'still terminating on the server');

      const inside = await runPlan(planDelete(await targetOf('web-1')), session, signal());
      assert.equal(inside.ok, true, inside.words);
      const record = journal.records().at(-1)!;
      await until(() => entry.informer!.get(ns, 'web-1')?.metadata.deletionTimestamp, 'the watch shows web-1 terminating', REAL_BOUND_MS);
      await until(() => record.terminating === true, 'the journal saw it terminating', REAL_BOUND_MS);
      assert.equal(record.state, 'pending', 'terminating is not deleted');
      // The kubelet's part, by hand: the Pod goes.
      await p.admin.delete(`/api/v1/namespaces/${ns}/pods/web-1`, { gracePeriodSeconds: 0 });
      await until(() => record.state === 'confirmed', () => `confirmed (state ${record.state})`, REAL_BOUND_MS);
      assert.match(record.outcome ?? '', /; the watch shows it deleted (after [\d.]+ s|within 0\.1 s)$/);
      assert.equal(lines.length, 2, lines.join('\n'));
    } finally {
      journal.dispose();
      await manager.stop();
      await p.admin.delete(`/api/v1/nodes/${node}`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
