import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore, recordHistory } from '../../src/history';
import type { TimedLifecycleEvent } from '../../src/informer';
import { WatchManager } from '../../src/manager';
import { REAL_BOUND_MS, until, useControlPlane } from './support';

/**
 * Object history on a real 1.34 server, whose first list is a streaming list (WatchList): the
 * objects it brings are listed, not added by watch events, so they cost no history until they
 * change (PERF B10: 100,000 quiet Pods).
 */
describe('[real] object history over a streaming list (kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();

  it('[real] objects of the first (streaming) list have no history until they change; the first version of a changed one says it was listed', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    for (let i = 0; i < 20; i++) await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { v: '0' } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-history-'));
    const kubeconfig = path.join(dir, 'config');
    fs.writeFileSync(kubeconfig, p.kubeconfig('admin', { name: 'real' }));
    const manager = new WatchManager({ contexts: [], resources: ['configmaps'], namespaces: [ns], kubeconfigPath: kubeconfig });
    const store = new HistoryStore();
    const recording = recordHistory(manager, store);
    const lifecycle: TimedLifecycleEvent[] = [];
    const listening = manager.onLifecycle((_id, event) => lifecycle.push(event));
    try {
      await manager.start();
      const entry = await until(() => manager.entries().find((e) => e.state.synced && e.informer?.store.size === 20), 'the watch synced', REAL_BOUND_MS);
      const lists = lifecycle.filter((e) => e.type === 'list-started');
      assert.deepEqual(lists.map((e) => e.type === 'list-started' && e.streaming), [true], 'one streaming list');
      assert.equal(store.stats().histories, 0, '20 quiet objects, no history');

      await p.admin.patch(`/api/v1/namespaces/${ns}/configmaps/cm-3`, { data: { v: '1' } });
      const changed = () => store.historyOf(entry.id, entry.informer!.get(ns, 'cm-3')!).history;
      await until(() => changed().size === 2, () => `cm-3 has ${changed().size} versions`, REAL_BOUND_MS);
      assert.deepEqual(changed().infos().map((v) => `${v.change}/${v.arrival}`), ['added/list', 'modified/event']);
      assert.equal(store.stats().histories, 1, 'only the changed object has a history');
    } finally {
      listening.dispose();
      recording.dispose();
      store.dispose();
      await manager.stop();
      manager.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
