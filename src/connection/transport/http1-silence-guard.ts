import type { Clock, TimerHandle } from '../../base/clock';
import type { BookmarkCadence } from '../http1/bookmark-cadence';

/** What the watch tells its guard: bytes arrived, a line was parsed; and its end. */
export interface SilenceGuard {
  noteData(): void;
  noteLine(parsed: unknown): void;
  dispose(): void;
}

/**
 * Watches an HTTP/1.1 watch for silence against the cluster's bookmark cadence, and learns
 * the cadence from two bookmarks in a row with nothing between. `onSilent` runs once.
 * (HTTP/1.1 has no PING: where the server's bookmark cadence is known, silence well past it is
 * a dead connection.)
 */
export function watchSilenceGuard(clock: Clock, bookmarks: BookmarkCadence, onSilent: () => void): SilenceGuard {
  let lastData = clock.now();
  let lastBookmark: number | undefined;
  let timer: TimerHandle | undefined;
  let done = false;
  const arm = () => {
    timer?.cancel();
    const limit = bookmarks.silenceLimitMs();
    if (limit === undefined || done) return;
    timer = clock.setTimer(() => {
      const limitNow = bookmarks.silenceLimitMs() ?? limit;
      if (clock.now() - lastData >= limitNow) {
        done = true;
        onSilent();
      } else arm();
    }, Math.max(1000, lastData + limit - clock.now()));
  };
  arm();
  return {
    noteData: () => {
      lastData = clock.now();
      if (!timer) arm();
    },
    noteLine: (parsed) => {
      const now = clock.now();
      if ((parsed as { type?: unknown } | undefined)?.type === 'BOOKMARK') {
        if (lastBookmark !== undefined) bookmarks.noteQuietGap(now - lastBookmark);
        lastBookmark = now;
        arm();
      } else lastBookmark = undefined;
    },
    dispose: () => {
      done = true;
      timer?.cancel();
    },
  };
}
