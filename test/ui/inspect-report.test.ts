import assert from 'node:assert/strict';
import { acceleratedClock, seededRandom } from '../../src/base';
import { emptyStats } from '../../src/informer';
import type { WatchEntry } from '../../src/manager';
import { InspectHistory, inspectReport } from '../../src/ui/inspect';
import { watchTooltip } from '../../src/ui/tree/watch-tooltip';
import { SCALE, UiRig, until } from './lifecycle-rig';

const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);

function field(text: string, name: string): string {
  const line = text.split('\n').find((l) => l.trimStart().startsWith(`${name}:`));
  assert.ok(line, `field ${name} in\n${text}`);
  return line.slice(line.indexOf(':') + 1).trim();
}

describe('inspect resource version report', function () {
  this.timeout(40_000);

  it('a watch that never listed, and one that cannot start, say so', () => {
    const fresh: WatchEntry = {
      id: 'a',
      context: 'ctx',
      resource: 'pods',
      namespace: '',
      label: 'ctx/pods',
      state: { phase: 'connecting', since: t0, synced: false },
      stats: emptyStats(),
    };
    const broken: WatchEntry = {
      ...fresh,
      id: 'b',
      label: 'prod/pods',
      state: { phase: 'stopped', since: t0, synced: false, reason: 'context "prod" does not exist' },
      error: 'context "prod" does not exist in the kubeconfig',
      errorKind: 'context',
    };
    const one = inspectReport([fresh], t0 + 5000);
    assert.equal(one.title, 'ctx/pods: no resourceVersion yet');
    assert.equal(one.resourceVersion, undefined);
    assert.equal(field(one.text, 'Last seen resourceVersion'), 'none yet (no list has completed)');
    assert.equal(field(one.text, 'State'), 'connecting, since 2026-01-02T10:00:00Z (5 s ago) (not synced yet)');
    assert.equal(field(one.text, 'Last bookmark'), 'none yet');
    const both = inspectReport([fresh, broken], t0);
    assert.equal(both.title, 'Resource versions of 2 watches');
    assert.equal(both.watches, 2);
    assert.match(both.text, /Problem: +context "prod" does not exist in the kubeconfig/);
    assert.match(both.markdown, /\| prod\/pods \| stopped \| — \| — \| — \|/);
    assert.equal(inspectReport([], t0).title, 'No watches to inspect');
  });

  it('says which protocol the cluster connection speaks, in the report and the tooltip', () => {
    const entry: WatchEntry = {
      id: 'a',
      context: 'ctx',
      resource: 'pods',
      namespace: '',
      label: 'ctx/pods',
      state: { phase: 'watching', since: t0, synced: true },
      stats: emptyStats(),
      protocol: 'h2',
    };
    assert.equal(field(inspectReport([entry], t0).text, 'Connection'), 'HTTP/2 to the cluster');
    assert.match(watchTooltip(entry, t0), /connection.*HTTP\/2/);
    assert.match(watchTooltip({ ...entry, protocol: 'http/1.1' }, t0), /connection.*HTTP\/1\.1/);
    assert.doesNotMatch(watchTooltip({ ...entry, protocol: undefined }, t0), /connection/);
  });

  describe('against the local API server', () => {
    let rig: UiRig;
    beforeEach(() => (rig = new UiRig()));
    afterEach(() => rig.close());

    it('follows the last seen resourceVersion from the list, a watch event, a bookmark and an expiry', async () => {
      // Bookmarks every 2 server seconds (40 ms of real time).
      const server = await rig.server({ token: 'token-a', bookmarkIntervalMs: 40 });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
      server.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
      server.create('configmaps', { metadata: { name: 'cm2', namespace: 'default' } });
      server.create('pods', { metadata: { name: 'p1', namespace: 'default' }, spec: {} });
      const clock = acceleratedClock(SCALE, seededRandom(3));
      const m = rig.manager({ resources: ['configmaps', 'pods'], namespaces: ['default'] }, clock);
      const history = new InspectHistory();
      m.onLifecycle((id, e) => history.record(id, e));
      await m.start();
      await until(() => m.entries().length === 2 && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
      const cmId = () => m.entries().find((e) => e.resource === 'configmaps')?.id ?? '';
      const cm = () => m.entry(cmId()) as WatchEntry;
      const now = () => clock.now();

      // From the list.
      const listed = inspectReport([cm()], now(), (id) => history.get(id));
      assert.equal(listed.resourceVersion, server.resourceVersion);
      assert.equal(listed.title, `ctx/configmaps in default: resourceVersion ${server.resourceVersion}`);
      assert.equal(field(listed.text, 'Came from'), 'the list (2 objects)');
      assert.equal(field(listed.text, 'Objects'), '2');
      assert.match(field(listed.text, 'Last list'), new RegExp(`^resourceVersion ${server.resourceVersion}, 2 objects in 1 page, `));
      assert.match(field(listed.text, 'Watch'), /^opened at resourceVersion \d+, .*timeoutSeconds \d+$/);

      // From a watch event: the report as it reads when the event is handed out, before a
      // bookmark (every 40 ms) may confirm the same resourceVersion.
      let evented: ReturnType<typeof inspectReport> | undefined;
      const capture = m.addHandler({
        onUpdate: (id, _old, obj) => {
          if (id === cmId() && obj.metadata.name === 'cm1') evented ??= inspectReport([cm()], now(), (i) => history.get(i));
        },
      });
      const updated = server.update('configmaps', { metadata: { name: 'cm1', namespace: 'default' }, data: { k: 'v' } });
      await until(() => evented !== undefined, () => JSON.stringify(cm().stats));
      capture.dispose();
      assert.ok(evented);
      assert.equal(evented.resourceVersion, updated.metadata.resourceVersion);
      assert.equal(field(evented.text, 'Came from'), 'a watch event (an add, update or delete)');
      assert.match(field(evented.text, 'Last event'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \((just now|[\d.]+ s ago)\)$/);

      // From a bookmark: the server's resourceVersion moved on (another resource) without a configmap change.
      server.create('pods', { metadata: { name: 'p2', namespace: 'default' }, spec: {} });
      const moved = server.resourceVersion;
      await until(() => cm().stats.resourceVersion === moved && cm().stats.resourceVersionSource === 'bookmark', () => JSON.stringify(cm().stats));
      const bookmarked = inspectReport([cm()], now(), (id) => history.get(id));
      assert.equal(field(bookmarked.text, 'Came from'), 'a bookmark (the server confirmed progress without a change)');
      assert.match(field(bookmarked.text, 'Last bookmark'), new RegExp(`^resourceVersion ${moved}, `));

      // An expiry: the report names the old resourceVersion, the server message and the relist.
      const old = cm().stats.resourceVersion ?? '';
      const message = `too old resource version: ${old} (${Number(old) + 5})`;
      server.injectFault({ type: 'errorEvent', code: 410, reason: 'Expired', message }, { verb: 'watch', resource: 'configmaps' });
      server.dropWatches('end');
      await until(() => cm().stats.relists >= 1 && cm().state.phase === 'watching', () => JSON.stringify(cm().stats));
      const relisted = inspectReport([cm()], now(), (id) => history.get(id));
      assert.match(field(relisted.text, 'Last expiry'), new RegExp(`^resourceVersion ${old} too old, .*: ${message.replace(/[()]/g, '\\$&')}$`));
      assert.match(field(relisted.text, 'Last relist reason'), /^expired, /);
      assert.match(field(relisted.text, 'Last relist'), /^resourceVersion \d+, 2 objects in 1 page/);
      assert.match(field(relisted.text, 'Lists'), /^2 \(1 relist\)$/);
      assert.equal(field(relisted.text, 'Expiries'), '1');

      // All watches: a summary table and a section per watch, the copyable text with every label.
      const all = inspectReport(m.entries(), now(), (id) => history.get(id));
      assert.equal(all.title, 'Resource versions of 2 watches');
      assert.equal(all.resourceVersion, undefined);
      assert.match(all.markdown, /^## Resource versions of 2 watches/);
      assert.match(all.markdown, /\| Watch \| State \| resourceVersion \| From \| Seen \|/);
      assert.match(all.markdown, /### ctx\/configmaps in default/);
      assert.match(all.markdown, /### ctx\/pods in default/);
      assert.ok(all.text.startsWith('Resource versions of 2 watches\nGenerated '));
      assert.match(all.text, /\nctx\/pods in default\n {2}State: +watching/);
      assert.ok(all.detail.length < all.text.length && all.text.endsWith(all.detail));

      // A stopped informer's history is dropped; entries gone are forgotten.
      await m.update({ contexts: [], resources: ['pods'], namespaces: ['default'], kubeconfigPath: rig.kubeconfig });
      history.retain(m.entries().map((e) => e.id));
      assert.equal(history.get(cmId()), undefined);
    });
  });
});
