import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { TableModel, type ExtraColumnChange, type ExtraColumnKind, type ExtraColumnSource, type TableSnapshot } from '../../../src/ui/table';
import { ManualClock } from '../../support/manual-clock';
import { FakeTableSource, pod } from './fake-table-source';

const SCOPE = { context: 'ctx', group: '', resource: 'pods', namespace: '' };

function setup(options: ConstructorParameters<typeof TableModel>[2] = {}) {
  const clock = new ManualClock();
  const source = new FakeTableSource();
  for (let i = 0; i < 5; i++) source.put(pod(`web-${i}`, { restarts: (i * 7) % 5, createdAt: `2025-12-2${i}T00:00:00Z` }));
  const model = new TableModel(source, SCOPE, { clock, ...options });
  let changes = 0;
  model.onDidChange(() => changes++);
  return { clock, source, model, changes: () => changes };
}

const names = (s: TableSnapshot) => s.rows.map((r) => r.cells[s.columns.filter((c) => !c.hidden).findIndex((c) => c.id === 'name')]);
const column = (s: TableSnapshot, id: string) => s.columns.filter((c) => !c.hidden).findIndex((c) => c.id === id);

describe('table view model', () => {
  it('prints kubectl -o wide columns, NAMESPACE first when all namespaces show', () => {
    const { model } = setup();
    const s = model.snapshot();
    assert.deepEqual(s.columns.map((c) => c.header).slice(0, 7), ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP']);
    assert.ok(s.columns.some((c) => c.header === 'NODE'));
    assert.equal(s.total, 5);
    assert.deepEqual(names(s), ['web-0', 'web-1', 'web-2', 'web-3', 'web-4']);
  });

  it('sorts by restarts numerically, then reversed, then back to kubectl order; ties stay by name', () => {
    const { model } = setup();
    model.toggleSort('restarts');
    // restarts: web-0 0, web-1 2, web-2 4, web-3 1, web-4 3
    assert.deepEqual(names(model.snapshot()), ['web-0', 'web-3', 'web-1', 'web-4', 'web-2']);
    model.toggleSort('restarts');
    assert.deepEqual(names(model.snapshot()), ['web-2', 'web-4', 'web-1', 'web-3', 'web-0']);
    model.toggleSort('restarts');
    assert.equal(model.snapshot().sort, undefined);
  });

  it('sorts by age from the creation time (youngest first ascending)', () => {
    const { model } = setup();
    model.toggleSort('age');
    assert.deepEqual(names(model.snapshot()), ['web-4', 'web-3', 'web-2', 'web-1', 'web-0']);
  });

  it('keeps the sort while rows update: a row moves only when its key changes, equal keys stay by name', () => {
    const { model, source } = setup();
    model.toggleSort('restarts');
    source.put(pod('web-2', { restarts: 0, createdAt: '2025-12-22T00:00:00Z' }));
    source.put(pod('web-5', { restarts: 1 }));
    assert.deepEqual(names(model.snapshot()), ['web-0', 'web-2', 'web-3', 'web-5', 'web-1', 'web-4']);
  });

  it('filters by text, regex, -l and !, and keeps a bad filter as typed with a reason', () => {
    const { model, source } = setup();
    source.put(pod('api-1', { labels: { app: 'api' } }));
    model.setFilter('api');
    assert.deepEqual(names(model.snapshot()), ['api-1']);
    model.setFilter('-l app=api');
    assert.deepEqual(names(model.snapshot()), ['api-1']);
    model.setFilter('!-l app=api');
    assert.equal(model.snapshot().total, 5);
    model.setFilter('/web-[34]/');
    assert.deepEqual(names(model.snapshot()), ['web-3', 'web-4']);
    model.setFilter('/web-(/');
    const s = model.snapshot();
    assert.equal(s.filter, '/web-(/');
    assert.match(s.filterProblem!, /not a regular expression/);
    assert.equal(s.total, 6);
  });

  it('chooses a namespace', () => {
    const { model, source } = setup();
    source.put(pod('db-0', { namespace: 'data' }));
    assert.deepEqual(model.snapshot().namespaces, ['data', 'default']);
    model.setNamespace('data');
    const s = model.snapshot();
    assert.deepEqual(names(s), ['db-0']);
    assert.equal(s.columns[0].id, 'name', 'no NAMESPACE column for one namespace');
  });

  it('sends only the window asked for, with the row count', () => {
    const clock = new ManualClock();
    const source = new FakeTableSource();
    for (let i = 0; i < 1000; i++) source.put(pod(`p-${String(i).padStart(4, '0')}`));
    const model = new TableModel(source, SCOPE, { clock });
    model.setViewport(500, 20);
    const s = model.snapshot();
    assert.equal(s.total, 1000);
    assert.equal(s.start, 500);
    assert.equal(s.rows.length, 20);
    assert.equal(names(s)[0], 'p-0500');
  });

  it('marks the cells that changed once, and only them (ages do not flash)', () => {
    const { model, source, clock } = setup();
    model.snapshot();
    clock.advance(60_000);
    source.put(pod('web-1', { restarts: 9, createdAt: '2025-12-21T00:00:00Z' }));
    const s = model.snapshot();
    const web1 = s.rows.find((r) => r.key.endsWith('/web-1'))!;
    assert.deepEqual(web1.changed, [column(s, 'restarts')]);
    assert.equal(s.rows.filter((r) => r.changed).length, 1);
    assert.equal(model.snapshot().rows.find((r) => r.key.endsWith('/web-1'))!.changed, undefined, 'flashes once');
  });

  it('fades a deleted row, then drops it; marks an added row; the focused row is found where it went', () => {
    const { model, source, clock } = setup({ fadeMs: 2000 });
    model.setFocus('e1/default/web-3');
    assert.equal(model.snapshot().focusIndex, 3);
    source.put(pod('web-00'));
    source.delete('default', 'web-1');
    let s = model.snapshot();
    assert.equal(s.rows.find((r) => r.key.endsWith('/web-1'))?.deleted, true);
    assert.equal(s.rows.find((r) => r.key.endsWith('/web-00'))?.added, true);
    assert.equal(s.focusIndex, 4);
    clock.advance(2000);
    s = model.snapshot();
    assert.equal(s.rows.find((r) => r.key.endsWith('/web-1')), undefined);
    assert.equal(s.focusIndex, 3);
    assert.equal(s.all, 5);
  });

  it('prints the rows in the background while shown, a slice per timer, so a sort by a printed column prints nothing more; hidden or disposed, no timer is left', () => {
    const clock = new ManualClock();
    const source = new FakeTableSource();
    for (let i = 0; i < 2500; i++) source.put(pod(`p-${String(i).padStart(4, '0')}`, { restarts: i % 7 }));
    const model = new TableModel(source, SCOPE, { clock });
    const printed = () => [...source.objects.values()].filter((o) => model.row(`e1/default/${o.metadata.name}`)?.cells !== undefined).length;
    assert.equal(printed(), 0, 'opening prints nothing');
    clock.advance(100);
    assert.equal(clock.pending(), 0, 'the first change told');
    model.setVisible(true);
    assert.equal(model.openHandles >= 1, true, 'a slice is due');
    clock.fireNext();
    const row0 = model.row('e1/default/p-0000')!;
    assert.deepEqual([row0.nameKey, row0.namespaceKey, printed()], ['p-00', 'default', 0], 'the quick pass first: every name and namespace key, nothing printed');
    assert.ok([...source.objects.values()].every((o) => model.row(`e1/default/${o.metadata.name}`)?.nameKey !== undefined));
    clock.fireNext();
    assert.equal(printed(), 500, 'one slice');
    model.setVisible(false);
    assert.equal(clock.pending(), 0, 'hidden: no slice due');
    model.setVisible(true);
    let slices = 0;
    for (; clock.pending() > 0; slices++) clock.fireNext();
    assert.equal(printed(), 2500, 'shown again, the rest, skipping the printed');
    assert.equal(slices, 1 + 4 + 1, 'the quick pass (nothing left), 2,000 rows in slices of 500, one that finds the end');
    assert.equal(clock.pending(), 0, 'done: no timer left');
    model.setSort({ column: 'restarts', descending: true });
    assert.equal(model.snapshot().rows[0].cells[column(model.snapshot(), 'restarts')], '6');
    model.setVisible(false);
    model.setVisible(true);
    model.dispose();
    assert.equal(model.openHandles, 0);
    assert.equal(clock.pending(), 0);
  });

  it('notifies at most once per throttle window, and leaves nothing behind when disposed', () => {
    const { model, source, clock, changes } = setup({ throttleMs: 100 });
    const before = model.revision;
    for (let i = 0; i < 50; i++) source.put(pod(`x-${i}`));
    assert.equal(changes(), 0);
    assert.equal(model.revision, before + 50, 'each change counted, though told once');
    model.snapshot();
    assert.equal(model.revision, before + 50, 'a snapshot changes nothing');
    clock.advance(100);
    assert.equal(changes(), 1);
    source.delete('default', 'x-1');
    model.dispose();
    assert.equal(model.openHandles, 0);
    assert.equal(source.listenerCount, 0);
  });

  it('draws a stale watch on every row and in a banner', () => {
    let stale = false;
    const { model } = setup({ stalenessOf: () => (stale ? { since: Date.parse('2026-01-01T00:00:00Z') - 40_000, cause: 'unreachable' } : undefined) });
    assert.equal(model.snapshot().banner, undefined);
    stale = true;
    const s = model.snapshot();
    assert.match(s.banner!, /Stale: the watch of pods is unreachable for 40 s/);
    assert.ok(s.rows.every((r) => r.stale === 'stale 40 s · unreachable'));
  });
});

/** A metrics stand-in: a CPU column whose values the test sets, counting what it was shown. */
class FakeExtra implements ExtraColumnSource {
  readonly cpu = new Map<string, number>();
  shows: Array<{ namespaces: readonly string[] | 'all'; disposed: boolean }> = [];
  private listener: ((c: ExtraColumnChange) => void) | undefined;
  columnsFor(kind: ExtraColumnKind) {
    if (kind.kind !== 'Pod') return [];
    return [
      {
        id: 'cpu',
        header: 'CPU',
        cell: (_ctx: string, obj: KubeObject) => {
          const v = this.cpu.get(obj.metadata.name ?? '');
          return v === undefined ? { text: 'n/a', tone: 'muted' as const, title: 'no sample yet' } : { text: `${v}m`, sortValue: v, title: 'sampled 10 s ago over 15 s', tone: v > 500 ? ('warning' as const) : ('normal' as const) };
        },
      },
    ];
  }
  show(_context: string, _kind: ExtraColumnKind, namespaces: readonly string[] | 'all') {
    const s = { namespaces, disposed: false };
    this.shows.push(s);
    return { dispose: () => (s.disposed = true) };
  }
  onDidChange(listener: (c: ExtraColumnChange) => void) {
    this.listener = listener;
    return { dispose: () => (this.listener = undefined) };
  }
  fire(keys?: string[]) {
    this.listener?.({ context: 'ctx', kind: { group: '', kind: 'Pod' }, keys });
  }
}

describe('table extra columns', () => {
  it('shows them with hover and tone, sorts by sortValue (no value last), redraws on change, shows only while visible', () => {
    const extra = new FakeExtra();
    extra.cpu.set('web-0', 300).set('web-1', 100).set('web-2', 900);
    const { model, clock, changes } = setup({ extra });
    let s = model.snapshot();
    const cpu = column(s, 'x:cpu');
    assert.equal(s.columns[s.columns.length - 1].header, 'CPU');
    assert.equal(extra.shows.length, 0, 'nothing fetched while the page is not shown');
    model.setVisible(true);
    assert.deepEqual(extra.shows.map((x) => x.namespaces), ['all']);
    model.toggleSort('x:cpu');
    s = model.snapshot();
    assert.deepEqual(names(s), ['web-1', 'web-0', 'web-2', 'web-3', 'web-4']);
    assert.equal(s.rows[2].tones?.[cpu], 'warning');
    assert.equal(s.rows[0].titles?.[cpu], 'sampled 10 s ago over 15 s');
    assert.equal(s.rows[4].cells[cpu], 'n/a');
    assert.equal(s.rows[4].tones?.[cpu], 'muted');
    extra.cpu.set('web-3', 50);
    extra.fire(['default/web-3']);
    clock.advance(100);
    assert.ok(changes() >= 1);
    assert.deepEqual(names(model.snapshot()), ['web-3', 'web-1', 'web-0', 'web-2', 'web-4']);
    model.setNamespace('default');
    assert.equal(extra.shows[0].disposed, true);
    assert.deepEqual(extra.shows[1].namespaces, ['default']);
    model.setVisible(false);
    assert.equal(extra.shows[1].disposed, true);
    model.setVisible(true);
    model.dispose();
    assert.ok(extra.shows.every((x) => x.disposed));
  });
});

describe('a table model read later', () => {
  it('with loadLater, reads the informers in a task of its own: no rows and not loaded until then; disposed before, it never reads', () => {
    const { clock, source } = setup();
    const model = new TableModel(source, SCOPE, { clock, loadLater: true });
    let changes = 0;
    model.onDidChange(() => changes++);
    assert.equal(model.loaded, false);
    assert.equal(model.snapshot().total, 0, 'nothing read in the constructor');
    assert.equal(model.openHandles, 1, 'the load is due');
    clock.advance(0);
    assert.equal(model.loaded, true);
    assert.equal(model.snapshot().total, 5);
    clock.advance(100);
    assert.equal(changes, 1, 'its listeners hear of the rows');
    model.dispose();

    const early = new TableModel(source, SCOPE, { clock, loadLater: true });
    early.dispose();
    assert.equal(early.openHandles, 0);
    clock.advance(1000);
    assert.equal(early.snapshot().total, 0, 'a disposed model reads nothing');
  });
});
