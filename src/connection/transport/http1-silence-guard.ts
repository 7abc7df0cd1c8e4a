import type { Clock, TimerHandle } from '../../base/clock';
import { BookmarkCadence } from '../http1/bookmark-cadence';

/** What the watch tells its guard: bytes arrived, a line was parsed; and its end. */
export interface SilenceGuard {
  noteData(): void;
  noteLine(parsed: unknown): void;
  /** Why the watch was judged half-open (for its error), once `onSilent` ran. */
  readonly verdict: string;
  dispose(): void;
}

/**
 * Watches one HTTP/1.1 watch for silence against its own bookmark cadence (HTTP/1.1 has no
 * PING: where the server sends this watch bookmarks, silence well past their cadence is a dead
 * connection). The cadence is learnt from this watch's bookmarks only, so a healthy watch that
 * gets none (watch cache off, a quiet type) is never judged by another's (F45); after a wake the
 * transport replaces its HTTP/1.1 connections, so no watch measures a gap across a suspend, and a
 * gap far beyond the cadence is not learnt (BookmarkCadence). `onSilent` runs once.
 */
export function watchSilenceGuard(clock: Clock, onSilent: () => void): SilenceGuard {
  const bookmarks = new BookmarkCadence();
  let lastData = clock.now();
  let lastBookmark: number | undefined;
  let timer: TimerHandle | undefined;
  let done = false;
  const arm = () => {
    timer?.cancel();
    timer = undefined;
    const limit = bookmarks.silenceLimitMs();
    if (limit === undefined || done) return;
    timer = clock.setTimer(() => {
      timer = undefined;
      if (done) return;
      if (clock.now() - lastData >= (bookmarks.silenceLimitMs() ?? limit)) {
        done = true;
        onSilent();
      } else arm();
    }, Math.max(1000, lastData + limit - clock.now()));
  };
  return {
    noteData: () => {
      lastData = clock.now();
    },
    noteLine: (parsed) => {
      const now = clock.now();
      if ((parsed as { type?: unknown } | undefined)?.type === 'BOOKMARK') {
        if (lastBookmark !== undefined) bookmarks.noteQuietGap(now - lastBookmark);
        lastBookmark = now;
        if (!timer) arm();
      } else lastBookmark = undefined;
    },
    get verdict() {
      return `no bookmark for ${Math.round((bookmarks.silenceLimitMs() ?? 0) / 1000)} s although the server sends this watch one every ${Math.round((bookmarks.interval ?? 0) / 1000)} s: the connection looks half-open`;
    },
    dispose: () => {
      done = true;
      timer?.cancel();
    },
  };
}
