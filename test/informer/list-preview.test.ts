import assert from 'node:assert/strict';
import { Informer } from '../../src/informer/informer';
import type { ListPreview } from '../../src/informer/list-preview';
import { ListProgress } from '../../src/informer/list-progress';
import type { ResourceType } from '../../src/informer/resource-type';
import { HeldTransport, heldConfigMapServer } from '../support/held-transport';
import { ManualClock } from '../support/manual-clock';
import { until } from '../support/until';

const configmaps: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

describe('the list preview: what the first list has received so far', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A server with 5 ConfigMaps (3 in `a`, 2 in `b`), an informer on a manual clock, and what it announced. */
  async function setup(version: '1.26' | '1.34', held: (h: HeldTransport) => void) {
    const { server, held: h } = await heldConfigMapServer(version, cleanups);
    held(h);
    const clock = new ManualClock(Date.now());
    const informer = new Informer({ transport: h.transport, type: configmaps, pageSize: 2, clock, requestTimeoutMs: 600_000, watchListProgressMs: 600_000, listProgressMs: 250 });
    cleanups.push(() => informer.stop());
    /** Each announcement: the preview's size then (undefined: it ended), and what the store and state were. */
    const announced: { size: number | undefined; stored: number; synced: boolean }[] = [];
    informer.onListProgress((p) => announced.push({ size: p?.size, stored: informer.store.size, synced: informer.state.synced }));
    return { server, h, clock, informer, announced };
  }

  const counts = (p: ListPreview | undefined) => Object.fromEntries([...(p?.namespaces() ?? [])].sort());
  const names = (p: ListPreview | undefined, ns: string) => [...(p?.objectsIn(ns) ?? [])].map((o) => o.metadata.name).sort();

  it('grows page by page during a paginated LIST, announced at a bounded rate, and is gone once the list is in the store', async () => {
    const { h, clock, informer, announced } = await setup('1.26', (h) => (h.holdListFrom = 2));
    informer.start();
    await until(() => h.held === 2, 'the second page held');
    const preview = informer.listPreview;
    assert.ok(preview, 'a preview while the first list is in progress');
    assert.equal(preview.size, 2);
    assert.equal(informer.store.size, 0, 'nothing in the store: a partial list is never the cluster state');
    assert.equal(informer.state.synced, false);
    assert.equal(announced.length, 0, 'announced on a timer, never inside the page');
    clock.advance(0);
    assert.deepEqual(announced, [{ size: 2, stored: 0, synced: false }]);
    assert.deepEqual(counts(preview), { a: 2 });
    assert.deepEqual(names(preview, 'a'), ['a1', 'a2']);

    h.holdListFrom = 3;
    h.release();
    await until(() => h.held === 3, 'the third page held');
    assert.equal(informer.listPreview, preview, 'the same buffer, grown in place');
    assert.equal(preview.size, 4);
    assert.deepEqual(counts(preview), { a: 3, b: 1 });
    clock.advance(249);
    assert.equal(announced.length, 1, 'not again within 250 ms of the last announcement');
    clock.advance(1);
    assert.deepEqual(announced.at(-1), { size: 4, stored: 0, synced: false });

    h.release();
    await until(() => informer.state.synced, 'synced');
    assert.equal(informer.listPreview, undefined, 'no preview after the sync');
    assert.deepEqual(announced.at(-1), { size: undefined, stored: 5, synced: true }, 'the end is announced after the list reached the store');
    clock.advance(1000);
    assert.equal(announced.filter((a) => a.size === undefined).length, 1, 'the end once');
  });

  it('grows event by event during a streaming list (WatchList) and is gone at its initial-events-end bookmark', async () => {
    const { h, clock, informer, announced } = await setup('1.34', (h) => (h.holdLinesAfter = 4));
    informer.start();
    await until(() => h.held === 'lines', 'the streaming list held after 4 events');
    const preview = informer.listPreview;
    assert.ok(preview);
    assert.equal(preview.size, 4);
    assert.equal(h.lists, 0, 'a streaming list, no LIST');
    assert.equal(informer.store.size, 0);
    clock.advance(0);
    assert.deepEqual(announced, [{ size: 4, stored: 0, synced: false }]);
    assert.deepEqual(counts(preview), { a: 3, b: 1 });
    assert.deepEqual(names(preview, 'b'), ['b1']);
    h.release();
    await until(() => informer.state.synced, 'synced');
    assert.equal(informer.listPreview, undefined);
    assert.deepEqual(announced.at(-1), { size: undefined, stored: 5, synced: true });
    assert.equal(informer.store.size, 5);
  });

  it('is dropped when the list fails midway, and is not shown for a relist once the informer has a store', async () => {
    const { server, h, clock, informer, announced } = await setup('1.26', (h) => (h.holdListFrom = 2));
    informer.start();
    await until(() => h.held === 2, 'the second page held');
    clock.advance(0);
    assert.equal(informer.listPreview?.size, 2);
    server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'etcd is down' }, { verb: 'list' });
    h.release();
    await until(() => informer.listPreview === undefined, 'the preview dropped');
    assert.deepEqual(announced.at(-1), { size: undefined, stored: 0, synced: false }, 'dropped, never published');
    assert.equal(informer.store.size, 0);

    // The retry lists again from nothing: a preview again, then the sync.
    await until(() => informer.state.phase === 'backing-off' && informer.state.nextRetryAt, 'backing off');
    clock.advance((informer.state.nextRetryAt ?? 0) - clock.now());
    await until(() => informer.state.synced, 'synced after the retry');
    assert.equal(informer.listPreview, undefined);
    assert.equal(informer.store.size, 5);

    // A relist keeps the store shown: no preview.
    let sawPreview = false;
    informer.onListProgress((p) => (sawPreview ||= p !== undefined));
    h.holdListFrom = h.lists + 2;
    void informer.restart('test');
    await until(() => h.held !== undefined, 'the relist\'s second page held');
    assert.equal(informer.listPreview, undefined, 'a relist with a store has no preview');
    clock.advance(1000);
    h.release();
    await until(() => informer.state.phase === 'watching' && informer.stats.lists === 2, 'relisted');
    assert.equal(sawPreview, false);
  });
});

describe('ListProgress: announcements at a bounded rate', () => {
  it('announces at most once per interval of clock time while growing, and the end at once', () => {
    const clock = new ManualClock();
    const progress = new ListProgress(clock, 500);
    const preview: ListPreview = { size: 0, namespaces: () => new Map<string, number>().entries(), objectsIn: () => [].values() };
    const fired: (ListPreview | undefined)[] = [];
    const times: number[] = [];
    progress.on((p) => {
      fired.push(p);
      times.push(clock.now());
    });
    progress.grew();
    assert.equal(fired.length, 0, 'nothing before a preview began');
    progress.begin(preview);
    const t0 = clock.now();
    for (let i = 0; i < 40; i++) {
      progress.grew();
      clock.advance(50); // growth every 50 ms for 2 s
    }
    assert.deepEqual(times.map((t) => t - t0), [0, 500, 1000, 1500, 2000], 'every 500 ms at most');
    progress.grew();
    progress.end();
    assert.equal(fired.at(-1), undefined);
    assert.equal(fired.length, 6);
    assert.equal(clock.nextDue(), undefined, 'no timer left after the end');
    progress.end();
    assert.equal(fired.length, 6, 'the end once');
    progress.dispose();
  });
});
