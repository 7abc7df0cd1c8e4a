import assert from 'node:assert/strict';
import { TreeRefresh } from '../../src/ui/tree/tree-refresh';
import { NamespaceNode, ObjectNode, ResourceNode } from '../../src/ui/tree/tree-node';
import { ManualClock } from './lifecycle-rig';

/**
 * The refresh pacing (PERF B11): refreshes every 100 ms while changes come one after the other
 * queued up in VS Code; during such a storm the window widens to 500 ms, and after a second
 * without a refresh a single change shows within 100 ms again.
 */
describe('tree refresh pacing under a storm of changes (B11)', () => {
  it('B11 a steady stream of changes refreshes every 100 ms at first, then every 500 ms; a change after a quiet second within 100 ms again', () => {
    const clock = new ManualClock();
    const node = new ResourceNode('r', '', 'pods');
    const refresh = new TreeRefresh(clock, 100, 1000, () => [node]);
    const fired: number[] = [];
    refresh.onDidChange(() => fired.push(clock.now()));
    const start = clock.now();
    // A change every 10 ms for 5 s.
    for (let t = 0; t < 5000; t += 10) {
      refresh.markDirty(node);
      clock.advance(10);
    }
    const gaps = fired.slice(1).map((t, i) => t - fired[i]);
    assert.deepEqual(gaps.slice(0, 3), [100, 100, 100], 'at first every 100 ms');
    assert.ok(gaps.slice(5).every((g) => g === 500), gaps.join(' '));
    assert.ok(refresh.storming);
    const inStorm = fired.filter((t) => t >= start + 2000).length;
    assert.ok(inStorm <= 7, `${inStorm} refreshes in the last 3 s of the storm`);
    // Quiet for 2 s, then one change: shown within 100 ms.
    clock.advance(2000);
    const before = fired.length;
    refresh.markDirty(node);
    const changedAt = clock.now();
    clock.advance(100);
    assert.equal(fired.length, before + 1);
    assert.ok(fired[fired.length - 1] - changedAt <= 100);
    clock.advance(1500);
    refresh.markDirty(node);
    clock.advance(100);
    assert.equal(refresh.storming, false, 'the storm is over');
    refresh.dispose();
  });
});

describe('what the status bar waits for (V13)', () => {
  it("V13 a watch's row is pending from the change until the refresh that names it; object rows and plain namespaces never are", () => {
    const clock = new ManualClock();
    const pods = new ResourceNode('r', '', 'pods');
    const refresh = new TreeRefresh(clock, 100, 1000, () => [pods]);
    const named: string[][] = [];
    const pendingWhenFired: boolean[] = [];
    refresh.onDidChange((nodes) => {
      named.push((nodes ?? []).map((n) => n.kind));
      pendingWhenFired.push(refresh.watchRowPending);
    });
    const group = new NamespaceNode('r/shop', pods, 'shop', 'e1', false);
    const ownWatch = new NamespaceNode('r/batch', pods, 'batch', 'e2', true);
    const pod = new ObjectNode(group, 'e1', 'shop', 'web', { metadata: { name: 'web', namespace: 'shop' } });

    refresh.markDirty(pod);
    refresh.markDirty(group);
    assert.equal(refresh.watchRowPending, false, 'an object row and a namespace group are not watch rows');
    clock.advance(100);

    refresh.markDirty(pods);
    assert.equal(refresh.watchRowPending, true, 'the resource node waits for its refresh');
    clock.advance(100);
    assert.equal(refresh.watchRowPending, false, 'named by the refresh');

    refresh.markDirty(ownWatch);
    assert.equal(refresh.watchRowPending, true, 'a namespace that is a watch of its own');
    clock.advance(100);
    assert.equal(refresh.watchRowPending, false);

    refresh.rootsChanged();
    assert.equal(refresh.watchRowPending, true, 'the whole tree is due');
    refresh.request();
    clock.advance(100);
    assert.equal(refresh.watchRowPending, false);
    assert.deepEqual(pendingWhenFired, [false, false, false, false], 'never pending while its own refresh is announced');
    assert.deepEqual(named, [['namespace'], ['resource'], ['namespace'], []], 'the object row goes with its namespace');
  });
});
