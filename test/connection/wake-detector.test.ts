import assert from 'node:assert/strict';
import { WakeDetector, type WakeClocks } from '../../src/connection/wake/wake-detector';

/** Clocks a test moves by hand; the detector's timer is only armed, never run by itself. */
function manualClocks(): WakeClocks & { advance(wallMs: number, monoMs: number, cpuMs: number): void } {
  let wall = 1_000_000;
  let mono = 0;
  let cpu = 0;
  return {
    wallNow: () => wall,
    monotonicNow: () => mono,
    cpuNow: () => cpu,
    setTimer: () => ({ cancel: () => undefined }),
    advance(w, m, c) {
      wall += w;
      mono += m;
      cpu += c;
    },
  };
}

describe('WakeDetector', () => {
  it('reports a machine suspend: the wall clock jumped past the monotonic clock', () => {
    const clocks = manualClocks();
    const woke: number[] = [];
    const d = new WakeDetector((ms) => woke.push(ms), { clocks, intervalMs: 2000, thresholdMs: 5000 });
    d.start();
    clocks.advance(2000, 2000, 10);
    d.check();
    assert.deepEqual(woke, [], 'an on-time tick is no wake');
    clocks.advance(182_000, 2000, 1); // three minutes asleep; the monotonic clock stood still
    d.check();
    assert.deepEqual(woke, [180_000]);
    d.dispose();
  });

  it('reports a stopped process (SIGSTOP): a tick minutes late while the process used no CPU', () => {
    const clocks = manualClocks();
    const woke: number[] = [];
    const d = new WakeDetector((ms) => woke.push(ms), { clocks, intervalMs: 2000, thresholdMs: 5000 });
    d.start();
    clocks.advance(62_000, 62_000, 3);
    d.check();
    assert.deepEqual(woke, [60_000]);
    d.dispose();
  });

  it('does not take a busy event loop for a wake: a late tick with the CPU busy all along', () => {
    const clocks = manualClocks();
    const woke: number[] = [];
    const d = new WakeDetector((ms) => woke.push(ms), { clocks, intervalMs: 2000, thresholdMs: 5000 });
    d.start();
    clocks.advance(12_000, 12_000, 11_500); // a 10 s synchronous loop
    d.check();
    clocks.advance(6000, 6000, 100); // late by 4 s only: under the threshold
    d.check();
    assert.deepEqual(woke, []);
    d.dispose();
  });
});
