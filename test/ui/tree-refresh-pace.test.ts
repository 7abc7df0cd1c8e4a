import assert from 'node:assert/strict';
import { TreeRefresh } from '../../src/ui/tree/tree-refresh';
import { ResourceNode } from '../../src/ui/tree/tree-node';
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
