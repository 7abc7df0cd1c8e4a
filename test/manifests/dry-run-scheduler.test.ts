import assert from 'node:assert/strict';
import { DryRunScheduler } from '../../src/manifests/dry-run-scheduler';
import { ManualClock } from '../support/manual-clock';

/** A dry run the test ends by hand. */
function work(log: string[], name: string) {
  let end!: () => void;
  let signal!: AbortSignal;
  const done = new Promise<void>((r) => (end = r));
  return {
    fn: (s: AbortSignal) => {
      signal = s;
      log.push(`start ${name}`);
      s.addEventListener('abort', () => log.push(`abort ${name}`));
      return done;
    },
    end: () => end(),
    aborted: () => signal?.aborted,
  };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('manifests: when dry runs are made', () => {
  it('debounces typing: only the last text of a burst is dry-run', async () => {
    const clock = new ManualClock();
    const s = new DryRunScheduler({ clock, debounceMs: 400 });
    const log: string[] = [];
    for (let i = 0; i < 5; i++) {
      s.request('a', `v${i}`, work(log, `v${i}`).fn);
      clock.advance(100);
    }
    assert.deepEqual(log, []);
    clock.advance(400);
    assert.deepEqual(log, ['start v4']);
    s.dispose();
  });

  it('never dry-runs the same text and live object twice', async () => {
    const clock = new ManualClock();
    const s = new DryRunScheduler({ clock, debounceMs: 0 });
    const log: string[] = [];
    const w = work(log, 'x');
    s.request('a', 'x', w.fn);
    w.end();
    await settle();
    s.request('a', 'x', work(log, 'x again').fn);
    clock.advance(1000);
    assert.deepEqual(log, ['start x']);
    s.dispose();
  });

  it('a newer input aborts the running dry run it supersedes', async () => {
    const clock = new ManualClock();
    const s = new DryRunScheduler({ clock, debounceMs: 0 });
    const log: string[] = [];
    const first = work(log, 'old');
    s.request('a', 'old', first.fn);
    s.request('a', 'new', work(log, 'new').fn);
    assert.ok(first.aborted());
    first.end();
    await settle();
    clock.advance(20); // the spacing between starts
    assert.deepEqual(log, ['start old', 'abort old', 'start new']);
    s.dispose();
  });

  it('rate-limited: at most `concurrency` at once, and at most `concurrency` starts in any `spacingMs`', async () => {
    const clock = new ManualClock();
    const s = new DryRunScheduler({ clock, debounceMs: 0, concurrency: 2, spacingMs: 50 });
    const log: string[] = [];
    const ws = ['a', 'b', 'c', 'd'].map((k) => work(log, k));
    ['a', 'b', 'c', 'd'].forEach((k, i) => s.request(k, '1', ws[i].fn));
    assert.deepEqual(log, ['start a', 'start b'], 'a wave of `concurrency` starts at once');
    ws[0].end();
    await settle();
    clock.advance(49);
    assert.deepEqual(log, ['start a', 'start b'], 'c has a free place but waits for the spacing since the wave started');
    clock.advance(1);
    assert.deepEqual(log, ['start a', 'start b', 'start c']);
    clock.advance(500);
    assert.deepEqual(log, ['start a', 'start b', 'start c'], 'd waits for a free place');
    ws[1].end();
    await settle();
    assert.deepEqual(log, ['start a', 'start b', 'start c', 'start d']);
    ws[2].end();
    ws[3].end();
    await settle();
    s.dispose();
    assert.equal(clock.pending(), 0);
  });
});
