import assert from 'node:assert/strict';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import type { WakeClocks } from '../../src/connection/wake/wake-detector';

describe('ClusterRegistry', () => {
  it('hands the transports of one cluster the same reachability; an answer after failures wakes them all once', () => {
    const registry = new ClusterRegistry(false);
    const a = registry.acquire('https://k:6443|ca1|');
    const b = registry.acquire('https://k:6443|ca1|');
    const other = registry.acquire('https://k:6443|ca2|');
    assert.equal(a.cluster, b.cluster);
    assert.notEqual(a.cluster, other.cluster);
    const woken: string[] = [];
    a.cluster.reachability.onReachable(() => woken.push('a'));
    other.cluster.reachability.onReachable(() => woken.push('other'));
    b.cluster.reachability.reportAnswer();
    assert.deepEqual(woken, [], 'an answer without failures before it wakes nobody');
    b.cluster.reachability.reportFailure();
    a.cluster.reachability.reportAnswer();
    a.cluster.reachability.reportAnswer();
    assert.deepEqual(woken, ['a']);
    registry.dispose();
  });

  it('runs its wake detector only while a cluster is in use, and tells every cluster of a wake', () => {
    let armed = 0;
    let cancelled = 0;
    const clocks: WakeClocks = {
      wallNow: () => 0,
      monotonicNow: () => 0,
      cpuNow: () => 0,
      setTimer: () => {
        armed++;
        return { cancel: () => cancelled++ };
      },
    };
    const registry = new ClusterRegistry({ clocks });
    assert.equal(armed, 0);
    const a = registry.acquire('x');
    const b = registry.acquire('y');
    assert.equal(armed, 1, 'one detector for all clusters');
    const wakes: string[] = [];
    a.cluster.onWake((ms) => wakes.push(`x ${ms}`));
    b.cluster.onWake((ms) => wakes.push(`y ${ms}`));
    registry.onResumed((ms) => wakes.push(`resumed ${ms}`));
    registry.wake(61_000);
    assert.deepEqual(wakes, ['x 61000', 'y 61000', 'resumed 61000']);
    a.dispose();
    a.dispose();
    assert.equal(cancelled, 0);
    b.dispose();
    assert.equal(cancelled, 1, 'the detector stops with the last cluster');
    assert.equal(registry.size, 0);
    registry.dispose();
  });
});
