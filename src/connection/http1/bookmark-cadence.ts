/**
 * How often a cluster sends bookmarks on quiet watches, as seen (a 1.34 server about every
 * 60 s; a 1.26 server never). On HTTP/1.1 nothing else can tell a frozen middlebox from a
 * quiet watch: once the cadence is known, a watch silent for well past it counts as half-open.
 * Invariant: no limit until two bookmarks in a row were seen on one watch with nothing between.
 */
export class BookmarkCadence {
  private intervalMs: number | undefined;

  /** Two bookmarks in a row on one watch, `gapMs` apart, nothing else in between. */
  noteQuietGap(gapMs: number): void {
    if (gapMs <= 0) return;
    // The longest gap seen: a late bookmark must never make a healthy watch look dead.
    this.intervalMs = Math.max(this.intervalMs ?? 0, gapMs);
  }

  /** The bookmark interval seen, if any. */
  get interval(): number | undefined {
    return this.intervalMs;
  }

  /** How long a watch may stay silent before it counts as half-open: twice the interval plus 30 s. */
  silenceLimitMs(): number | undefined {
    return this.intervalMs === undefined ? undefined : 2 * this.intervalMs + 30_000;
  }
}
