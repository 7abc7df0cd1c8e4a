import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base';
import { WatchManager, type WatchConfig } from '../../src/manager';
import { HistoryStore, recordHistory, versionRows, type ObjectHistory } from '../../src/history';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

/** Timers run this much faster than asked; the server's seconds are scaled alike. */
const SCALE = 50;

function deployment(name: string, replicas: number) {
  return {
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.27' }] } } },
  };
}

describe('history recorded from the watch manager (local API server)', function () {
  this.timeout(40_000);
  let dir: string;
  let kubeconfig: string;
  let server: FakeApiServer;
  let manager: WatchManager;
  let store: HistoryStore;
  let recording: { dispose(): void };
  const clock = acceleratedClock(SCALE, seededRandom(7));

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-history-'));
    kubeconfig = path.join(dir, 'config');
    server = await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-h' });
    server.writeKubeconfig(kubeconfig, { context: 'ctx-h', token: 'token-h' });
  });

  afterEach(async () => {
    recording?.dispose();
    store?.dispose();
    await manager?.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(config: Partial<WatchConfig> = {}): Promise<string> {
    manager = new WatchManager(
      { contexts: [], resources: ['deployments.apps'], namespaces: ['default'], kubeconfigPath: kubeconfig, ...config },
      { clock, informerOptions: { requestTimeoutMs: 600_000 } },
    );
    store = new HistoryStore({ clock });
    recording = recordHistory(manager, store);
    await manager.start();
    await until(
      () => manager.entries().every((e) => e.state.synced && e.state.phase === 'watching') && manager.entries().length > 0,
      () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase])),
    );
    return manager.entries()[0].id;
  }

  /** The history of a cached object (made for the occasion when it never changed), else the latest gone one. */
  function historyOf(entryId: string, name: string): ObjectHistory {
    const live = manager.entry(entryId)?.informer?.get('default', name);
    if (live) return store.historyOf(entryId, live).history;
    const [h] = store.find(entryId, 'default', name);
    assert.ok(h, `a history of ${name}`);
    return h;
  }

  const scale = (name: string, replicas: number) => {
    const cur = server.get('deployments.apps', 'default', name) as unknown as { spec: { replicas: number } };
    server.update('deployments.apps', { ...cur, spec: { ...cur.spec, replicas } });
  };

  it('a Deployment scaled twice has two versions whose summaries name spec.replicas', async () => {
    server.create('deployments.apps', deployment('web', 1));
    const id = await start();
    scale('web', 2);
    await until(() => historyOf(id, 'web').size === 2, () => `size ${historyOf(id, 'web').size}`);
    scale('web', 3);
    await until(() => historyOf(id, 'web').size === 3, () => `size ${historyOf(id, 'web').size}`);

    const h = historyOf(id, 'web');
    assert.deepEqual(
      h.infos().map((v) => `${v.change}/${v.arrival}`),
      ['added/list', 'modified/event', 'modified/event'],
    );
    assert.equal(h.newestInfo().resourceVersion, server.get('deployments.apps', 'default', 'web')?.metadata.resourceVersion);
    const rows = versionRows(h, clock.now());
    assert.deepEqual(
      rows.map((r) => r.label),
      ['spec.replicas 2 → 3', 'spec.replicas 1 → 2', 'first seen (initial list)'],
    );
    assert.deepEqual(
      h.objects().map((o) => (o.spec as { replicas: number }).replicas),
      [1, 2, 3],
    );
  });

  for (const version of ['1.26', '1.34'] as const) {
    it(`objects of a first list have no history until they change, and their first version says so (${version === '1.34' ? 'a streaming list, 1.34' : 'a paginated LIST, 1.26'})`, async () => {
      await server.close();
      server = await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-h', version });
      server.writeKubeconfig(kubeconfig, { context: 'ctx-h', token: 'token-h' });
      for (let i = 0; i < 20; i++) server.create('deployments.apps', deployment(`app-${i}`, 1));
      const id = await start();
      assert.equal(server.requests.some((r) => r.verb === 'watchlist' && r.status === 200), version === '1.34', 'listed by a streaming list on 1.34 only');
      // 20 quiet objects cost no history (a big cluster's 100,000 would cost megabytes: PERF B10).
      assert.equal(store.stats().histories, 0);
      scale('app-3', 2);
      await until(() => historyOf(id, 'app-3').size === 2, () => `size ${historyOf(id, 'app-3').size}`);
      assert.deepEqual(
        historyOf(id, 'app-3').infos().map((v) => `${v.change}/${v.arrival}`),
        ['added/list', 'modified/event'],
      );
      assert.equal(store.stats().histories, 1);
      assert.deepEqual(historyOf(id, 'app-4').infos().map((v) => `${v.change}/${v.arrival}`), ['added/list']);
    });
  }

  it('flags versions that arrived by relist, and deletes missed while away as synthetic', async () => {
    server.create('deployments.apps', deployment('web', 1));
    server.create('deployments.apps', deployment('api', 1));
    const id = await start();
    await until(() => server.openWatches() === 1, () => 'the watch');
    await server.goDown();
    scale('web', 5);
    server.delete('deployments.apps', 'default', 'api');
    server.compact();
    await server.comeUp();
    const want = server.get('deployments.apps', 'default', 'web')?.metadata.resourceVersion;
    await until(() => historyOf(id, 'web').newestInfo().resourceVersion === want && historyOf(id, 'api').gone !== undefined, () => 'the relist');

    const web = historyOf(id, 'web');
    assert.deepEqual(web.infos().map((v) => `${v.change}/${v.arrival}`), ['added/list', 'modified/relist']);
    assert.equal(versionRows(web, clock.now())[0].label, 'changed while the watch was away: spec.replicas 1 → 5');
    assert.equal(versionRows(web, clock.now())[0].icon, 'sync');

    const api = historyOf(id, 'api');
    assert.deepEqual(api.infos().map((v) => `${v.change}/${v.arrival}`), ['added/list', 'deleted/synthetic-delete']);
    assert.equal(api.gone?.why, 'deleted');
    assert.deepEqual(store.gone().map((h) => h.name), ['api']);
  });

  it('keeps the history of objects whose watch is discarded, and continues it when they are watched again', async () => {
    server.create('deployments.apps', deployment('web', 1));
    const id = await start();
    scale('web', 2);
    await until(() => historyOf(id, 'web').size === 2, () => 'the update');
    const seen: string[] = [];
    store.onDidChange((h) => seen.push(h.gone ? `gone ${h.gone.why}` : 'live'));
    await manager.update({ contexts: [], resources: ['deployments.apps'], namespaces: ['default'], labelSelector: 'app=web', kubeconfigPath: kubeconfig });
    await until(() => manager.entries()[0]?.state.synced === true && historyOf(id, 'web').gone === undefined && historyOf(id, 'web').live, () => 'watched again');
    const h = historyOf(id, 'web');
    assert.equal(h.size, 2, 'unchanged while the watch was rebuilt: no new version');
    assert.deepEqual(seen, ['gone removed', 'live']);
    assert.equal(store.stats().gone, 0);
    await manager.update({ contexts: [], resources: ['deployments.apps'], namespaces: ['other'], kubeconfigPath: kubeconfig });
    await until(() => historyOf(id, 'web').gone !== undefined, () => 'removed');
    assert.equal(historyOf(id, 'web').gone?.why, 'removed');
    assert.match(historyOf(id, 'web').gone?.reason ?? '', /no longer configured/);
  });
});
