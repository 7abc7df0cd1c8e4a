import assert from 'node:assert/strict';
import type { Clock, TimerHandle } from '../../src/base/clock';
import { watchSilenceGuard } from '../../src/connection/transport/http1-silence-guard';

/**
 * A clock whose time moves only when the test advances it, running the timers that fall due;
 * `jump` moves it without running them (a suspend: the overdue timers run at the next advance).
 */
function manualClock(): Clock & { advance(ms: number): void; jump(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void; live: boolean }[] = [];
  return {
    now: () => now,
    random: () => 0.5,
    setTimer(fn, ms): TimerHandle {
      const t = { at: now + Math.max(0, ms), fn, live: true };
      timers.push(t);
      return { cancel: () => (t.live = false) };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        due.live = false;
        timers = timers.filter((t) => t.live);
        due.fn();
      }
      now = end;
    },
    jump(ms) {
      now += ms;
    },
  };
}

const BOOKMARK = { type: 'BOOKMARK' };

describe('the HTTP/1.1 silence guard (F45)', () => {
  it('F45 a watch is judged only by its own bookmarks: without any, it is never found half-open', () => {
    const clock = manualClock();
    let silent = 0;
    const guard = watchSilenceGuard(clock, () => silent++);
    guard.noteData();
    clock.advance(24 * 3600_000);
    assert.equal(silent, 0);
    guard.dispose();
  });

  it('F45 a gap far beyond the learnt cadence (a suspend between two bookmarks) does not change it: silence past twice the cadence plus 30 s still counts', () => {
    const clock = manualClock();
    let silent = 0;
    const guard = watchSilenceGuard(clock, () => silent++);
    const bookmark = () => {
      guard.noteData();
      guard.noteLine(BOOKMARK);
    };
    bookmark();
    clock.advance(60_000);
    bookmark(); // cadence 60 s: silent for 150 s = half-open
    clock.advance(60_000);
    bookmark();
    clock.jump(3 * 3600_000); // the machine slept between two bookmarks: no timer ran meanwhile
    bookmark(); // the bookmark that arrives on resume ends a 3 h gap
    clock.advance(0); // the overdue timer runs now
    clock.advance(140_000);
    assert.equal(silent, 0, 'still alive 140 s after the last bookmark');
    clock.advance(20_000);
    assert.equal(silent, 1, 'half-open once silent for 2 x 60 s + 30 s, as before the suspend');
    assert.match(guard.verdict, /every 60 s/);
    guard.dispose();
  });

  it('F45 a bookmark later than the cadence (within reason) widens it: a healthy watch never looks dead for a late bookmark', () => {
    const clock = manualClock();
    let silent = 0;
    const guard = watchSilenceGuard(clock, () => silent++);
    const bookmark = () => {
      guard.noteData();
      guard.noteLine(BOOKMARK);
    };
    bookmark();
    clock.advance(60_000);
    bookmark();
    clock.advance(100_000);
    bookmark(); // 100 s: late, learnt
    clock.advance(200_000);
    assert.equal(silent, 0, 'alive 200 s after the last bookmark (limit 2 x 100 s + 30 s)');
    clock.advance(40_000);
    assert.equal(silent, 1);
    guard.dispose();
  });
});
