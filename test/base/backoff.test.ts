import assert from 'node:assert/strict';
import { Backoff } from '../../src/base/backoff';
import type { Clock } from '../../src/base/clock';

function manualClock(randomValue: number): Clock & { advance(ms: number): void } {
  let now = 0;
  return {
    now: () => now,
    setTimer: () => ({ cancel() {} }),
    random: () => randomValue,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('Backoff', () => {
  it('doubles from 800 ms to a 30 s cap, jittered within [ceiling/2, ceiling)', () => {
    const clock = manualClock(0.999999);
    const b = new Backoff(clock);
    const ceilings = Array.from({ length: 8 }, () => Math.round(b.next().delayMs));
    assert.deepEqual(ceilings, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    const low = new Backoff(manualClock(0));
    assert.equal(low.next().delayMs, 400);
  });

  it('starts over after two minutes without a failure', () => {
    const clock = manualClock(0.999999);
    const b = new Backoff(clock);
    for (let i = 0; i < 5; i++) b.next();
    clock.advance(120_001);
    assert.equal(Math.round(b.next().delayMs), 800);
  });
});
