/**
 * How often the server sends bookmarks to one quiet watch, as that watch saw them (a 1.34 server
 * about every 60 s; a 1.26 server, or any server without its watch cache, never). On HTTP/1.1
 * nothing else can tell a frozen middlebox from a quiet watch: once the cadence is known, the
 * watch silent for well past it counts as half-open.
 * Invariants: no limit until two bookmarks in a row were seen with nothing between; a gap far
 * beyond the cadence already learnt (a suspend between two bookmarks) never changes it.
 */
export class BookmarkCadence {
  private intervalMs: number | undefined;

  /** Two bookmarks in a row, `gapMs` apart, nothing else in between. */
  noteQuietGap(gapMs: number): void {
    if (gapMs <= 0) return;
    // A gap far beyond the cadence is time the process or the machine was away, not a cadence (F45).
    if (this.intervalMs !== undefined && gapMs > FAR_BEYOND * this.intervalMs) return;
    // The longest gap seen: a late bookmark must never make a healthy watch look dead.
    this.intervalMs = Math.max(this.intervalMs ?? 0, gapMs);
  }

  /** The bookmark interval seen, if any. */
  get interval(): number | undefined {
    return this.intervalMs;
  }

  /** How long the watch may stay silent before it counts as half-open: twice the interval plus 30 s. */
  silenceLimitMs(): number | undefined {
    return this.intervalMs === undefined ? undefined : 2 * this.intervalMs + 30_000;
  }
}

/** A gap more than this many times the learnt interval is not taken as the cadence. */
const FAR_BEYOND = 3;
