import assert from 'node:assert/strict';
import { changedPaths, threeWayMerge } from '../../src/edit/three-way-merge';

const cm = (data: Record<string, string>, labels: Record<string, string> = { app: 'web' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', labels }, data });

describe('edit: the three-way merge (base = where the edit started, theirs = live, ours = the buffer)', () => {
  it('takes each side where only it changed: different fields rebase without a conflict', () => {
    const base = cm({ a: '1', b: '1' });
    const theirs = cm({ a: '1', b: '2', c: 'new' });
    const ours = cm({ a: 'mine', b: '1' }, { app: 'web', tier: 'front' });
    const r = threeWayMerge(base, theirs, ours);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.merged, cm({ a: 'mine', b: '2', c: 'new' }, { app: 'web', tier: 'front' }));
    assert.deepEqual(r.theirsChanged, [['data', 'b'], ['data', 'c']]);
    assert.deepEqual(r.oursChanged, [['metadata', 'labels', 'tier'], ['data', 'a']]);
  });

  it('a field both changed to different values is a conflict, and the merged object keeps the live value there', () => {
    const r = threeWayMerge(cm({ a: '1', b: '1' }), cm({ a: '2', b: '1' }), cm({ a: '3', b: 'x' }));
    assert.deepEqual(r.conflicts, [{ path: ['data', 'a'], base: '1', theirs: '2', ours: '3' }]);
    assert.deepEqual((r.merged as { data: unknown }).data, { a: '2', b: 'x' });
  });

  it('both changed to the same value, or both removed: no conflict', () => {
    const r = threeWayMerge(cm({ a: '1', b: '1' }), cm({ a: '2' }), cm({ a: '2' }));
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual((r.merged as { data: unknown }).data, { a: '2' });
  });

  it('a removal on one side and a change on the other is a conflict; a removal against no change is a removal', () => {
    const removedVsChanged = threeWayMerge(cm({ a: '1' }), cm({}), cm({ a: '2' }));
    assert.deepEqual(removedVsChanged.conflicts, [{ path: ['data', 'a'], base: '1', theirs: undefined, ours: '2' }]);
    const removed = threeWayMerge(cm({ a: '1', b: '1' }), cm({ a: '1', b: '2' }), cm({ b: '1' }));
    assert.deepEqual(removed.conflicts, []);
    assert.deepEqual((removed.merged as { data: unknown }).data, { b: '2' });
  });

  it('containers (lists keyed by name) merge item by item; other lists are one value', () => {
    const dep = (containers: unknown[], args: string[]) => ({ spec: { template: { spec: { containers } } }, args });
    const base = dep([{ name: 'web', image: 'nginx:1' }, { name: 'side', image: 'envoy:1' }], ['a']);
    const theirs = dep([{ name: 'web', image: 'nginx:1' }, { name: 'side', image: 'envoy:2' }], ['a']);
    const ours = dep([{ name: 'web', image: 'nginx:2' }, { name: 'side', image: 'envoy:1' }, { name: 'log', image: 'fluent' }], ['a', 'b']);
    const r = threeWayMerge(base, theirs, ours);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.merged, dep([{ name: 'web', image: 'nginx:2' }, { name: 'side', image: 'envoy:2' }, { name: 'log', image: 'fluent' }], ['a', 'b']));
    const atomic = threeWayMerge({ args: ['a'] }, { args: ['a', 'x'] }, { args: ['a', 'y'] });
    assert.deepEqual(atomic.conflicts.map((c) => c.path), [['args']]);
  });

  it('changedPaths names leaves, list items by their index in the newer side', () => {
    assert.deepEqual(changedPaths({ a: { b: 1, c: [1] } }, { a: { b: 2, c: [1, 2] } }), [['a', 'b'], ['a', 'c']]);
    assert.deepEqual(changedPaths({ l: [{ name: 'x', v: 1 }] }, { l: [{ name: 'y', v: 0 }, { name: 'x', v: 2 }] }), [['l', 1, 'v'], ['l', 0]]);
  });
});
