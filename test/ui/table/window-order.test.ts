import assert from 'node:assert/strict';
import { TableOrder, type TableRow } from '../../../src/ui/table';
import { covers, scrollToShow, windowFor } from '../../../src/webview/table/window-math';

const row = (name: string, sortKey?: number): TableRow => ({ key: `e/ns/${name}`, entryId: 'e', namespace: 'ns', name, object: { metadata: { name } } as TableRow['object'], cells: [], text: name, labels: {}, sortKey });
const names = (o: TableOrder) => o.visible().map((r) => r.name);

describe('table window arithmetic', () => {
  it('asks for the visible rows and an overscan either side, within the table', () => {
    assert.deepEqual(windowFor(0, 440, 22, 100_000, 30), { start: 0, count: 21 + 30 });
    assert.deepEqual(windowFor(22 * 50_000, 440, 22, 100_000, 30), { start: 49_970, count: 30 + 21 + 30 });
    assert.deepEqual(windowFor(22 * 99_990, 440, 22, 100_000, 30), { start: 99_960, count: 40 });
  });

  it('knows when the rows held cover what a scroll needs', () => {
    assert.equal(covers({ start: 100, count: 80 }, { start: 120, count: 50 }, 1000), true);
    assert.equal(covers({ start: 100, count: 80 }, { start: 150, count: 50 }, 1000), false);
    assert.equal(covers({ start: 960, count: 40 }, { start: 970, count: 81 }, 1000), true, 'the end of the table');
  });

  it('scrolls just enough to show a row', () => {
    assert.equal(scrollToShow(10, 0, 440, 22), 0);
    assert.equal(scrollToShow(30, 0, 440, 22), 31 * 22 - 440);
    assert.equal(scrollToShow(2, 220, 440, 22), 44);
  });
});

describe('table order', () => {
  it('merges rows that came, drops rows that went, re-places rows whose key moved, in one read', () => {
    const o = new TableOrder();
    const [a, b, c] = [row('a', 3), row('b', 1), row('c', 2)];
    o.reset([a, b, c], false);
    assert.deepEqual(names(o), ['b', 'c', 'a']);
    const d = row('d', 0);
    o.insert(d);
    o.remove(c);
    o.move(a, () => (a.sortKey = -1));
    const e = row('e', 5);
    o.insert(e);
    o.remove(e);
    assert.deepEqual(names(o), ['a', 'd', 'b']);
  });

  it('keeps equal keys by name, and empty keys last in both directions', () => {
    const o = new TableOrder();
    const rows = [row('z', 1), row('y'), row('x', 1), row('w', 2)];
    o.reset(rows, false);
    assert.deepEqual(names(o), ['x', 'z', 'w', 'y']);
    o.reset(rows, true);
    assert.deepEqual(names(o), ['w', 'x', 'z', 'y']);
  });

  it('keeps equal keys by name when rows came and went between two sorts (a same-sized table of other rows)', () => {
    const o = new TableOrder();
    const [b, d, a] = [row('b', 1), row('d', 1), row('a', 1)];
    o.reset([d, b], false);
    assert.deepEqual(names(o), ['b', 'd']);
    o.remove(b);
    o.insert(a);
    assert.deepEqual(names(o), ['a', 'd']);
    o.reset([d, a], true);
    assert.deepEqual(names(o), ['a', 'd']);
    const rows = [row('c'), row('e'), row('f')];
    o.reset(rows, false);
    o.insert(row('b'));
    assert.deepEqual(names(o), ['b', 'c', 'e', 'f']);
    for (const r of o.visible()) r.sortKey = 7;
    o.reset([...o.visible()].reverse(), true);
    assert.deepEqual(names(o), ['b', 'c', 'e', 'f']);
  });
});
