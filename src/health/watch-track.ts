import type { HealthState } from './health-state';
import { DEFAULT_LAYOUT, RateHistory, type ChangeKind, type RateLayout } from './rate-buckets';

/** A stretch of time a watch spent in one state. `to` is absent while it lasts. */
export interface StateSpan {
  state: HealthState;
  from: number;
  to?: number;
  /** The engine's reason (a server message, a network error), one line; absent when none. */
  reason?: string;
}

/** Something that happened at an instant and is drawn as a marker on the band. */
export type MarkerKind = 'expired' | 'relist' | 'bookmark' | 'restart';

export interface Marker {
  kind: MarkerKind;
  at: number;
  /** The line the log shows for it (src/ui/log formatting), without credentials. */
  line: string;
}

/** Rough bytes of a span or marker object and its strings, for the memory cap. */
const OBJECT_BYTES = 96;

/**
 * What the recorder keeps about one watch entry: its state spans, its markers and its event rate,
 * over the window. Spans are contiguous and in time order; at most one is open (the last). A
 * track outlives its entry (`removedAt`) until its last span leaves the window.
 */
export class WatchTrack {
  readonly spans: StateSpan[] = [];
  readonly markers: Marker[] = [];
  readonly rate: RateHistory;
  /** Bumped on every change, so that a reader can cache what it derived from the track. */
  version = 0;
  /** Bytes of the spans' and markers' strings and objects (the rate rings are counted apart). */
  private variableBytes = 0;
  removedAt?: number;

  constructor(
    readonly id: string,
    public label: string,
    layout: RateLayout = DEFAULT_LAYOUT,
  ) {
    this.rate = new RateHistory(layout);
  }

  /** The state now (the open span's), if any. */
  get state(): HealthState | undefined {
    const last = this.spans[this.spans.length - 1];
    return last && last.to === undefined ? last.state : undefined;
  }

  /**
   * Enters `state` at `at`: closes the open span and opens a new one, unless the state and reason
   * are the same (then nothing changes). Times never go backwards: an earlier `at` is clamped.
   */
  enter(state: HealthState, at: number, reason?: string): void {
    const last = this.spans[this.spans.length - 1];
    if (last && last.to === undefined) {
      if (last.state === state && last.reason === reason) return;
      at = Math.max(at, last.from);
      last.to = at;
    }
    this.spans.push(reason ? { state, from: at, reason } : { state, from: at });
    this.variableBytes += spanBytes(this.spans[this.spans.length - 1]);
    this.version++;
  }

  /**
   * Draws the open span as `state` from `at`: when the open span began at `at` (a span of no time
   * yet, as a suspension leaves), it is relabelled rather than followed by another.
   */
  restate(state: HealthState, at: number): void {
    const last = this.spans[this.spans.length - 1];
    if (!last || last.to !== undefined || last.from !== at || last.state === state) return this.enter(state, at);
    this.variableBytes -= spanBytes(last);
    this.spans[this.spans.length - 1] = { state, from: at };
    this.variableBytes += spanBytes(this.spans[this.spans.length - 1]);
    this.version++;
  }

  /** Closes the open span at `at` (the entry went away). */
  close(at: number): void {
    const last = this.spans[this.spans.length - 1];
    if (last && last.to === undefined) {
      last.to = Math.max(at, last.from);
      this.version++;
    }
  }

  /**
   * Time the process could not see, [from, to): drawn as `suspended` whatever the watch's state
   * was, since nothing was observed then. The span that ran across it is cut at `from` and goes
   * on from `to` (where spans already begin after `to`, they stay). Spans stay contiguous; a
   * track that began after `from` is suspended from its start; nothing changes when `to` is not
   * after the track's start or after its removal.
   */
  suspend(from: number, to: number, reason: string): void {
    const first = this.spans[0];
    if (!first) return;
    from = Math.max(from, first.from);
    if (this.removedAt !== undefined) to = Math.min(to, this.removedAt);
    if (to <= from) return;
    const before = this.spans.filter((s) => s.from < from);
    const after = this.spans.filter((s) => s.from >= to);
    const across = this.spans.find((s) => s.from < to && (s.to === undefined || s.to > to) && !after.includes(s));
    const last = before[before.length - 1];
    const resumed: StateSpan[] = [];
    if (across) {
      const { to: end, ...rest } = across;
      resumed.push(end === undefined ? { ...rest, from: to } : { ...rest, from: to, to: end });
    }
    if (last && (last.to === undefined || last.to > from)) last.to = from;
    const suspended: StateSpan = { state: 'suspended', from, to, reason };
    const kept = [...before.map((s) => ({ ...s })), suspended, ...resumed, ...after];
    // Re-link: each span ends where the next begins, the last stays as it was.
    for (let i = 0; i < kept.length - 1; i++) kept[i].to = kept[i + 1].from;
    for (const s of this.spans) this.variableBytes -= spanBytes(s);
    this.spans.splice(0, this.spans.length, ...kept);
    for (const s of this.spans) this.variableBytes += spanBytes(s);
    this.version++;
  }

  mark(kind: MarkerKind, at: number, line: string): void {
    this.markers.push({ kind, at, line });
    this.variableBytes += markerBytes(this.markers[this.markers.length - 1]);
    this.version++;
  }

  count(at: number, kind: ChangeKind): void {
    this.rate.add(at, kind);
    this.version++;
  }

  /** Drops spans that ended and markers that happened before `cutoff`. */
  forgetBefore(cutoff: number): void {
    let spans = 0;
    while (spans < this.spans.length && this.spans[spans].to !== undefined && this.spans[spans].to! < cutoff) spans++;
    let markers = 0;
    while (markers < this.markers.length && this.markers[markers].at < cutoff) markers++;
    this.drop(spans, markers);
  }

  /**
   * Frees about `bytes`: the oldest bookmarks first (the most numerous and the least telling),
   * then the oldest of the other markers and ended spans; the open span is kept.
   * Returns the bytes freed.
   */
  shed(bytes: number): number {
    const before = this.variableBytes;
    // Bookmarks first, oldest first.
    if (bytes > 0 && this.markers.some((m) => m.kind === 'bookmark')) {
      let freed = 0;
      const kept = this.markers.filter((m) => {
        if (freed >= bytes || m.kind !== 'bookmark') return true;
        freed += markerBytes(m);
        return false;
      });
      this.markers.splice(0, this.markers.length, ...kept);
      this.variableBytes -= freed;
      bytes -= freed;
      this.version++;
    }
    // Then whatever is oldest, marker or ended span; the open span stays.
    let spans = 0;
    let markers = 0;
    while (bytes > 0) {
      const span = spans < this.spans.length - 1 ? this.spans[spans] : undefined;
      const marker = markers < this.markers.length ? this.markers[markers] : undefined;
      if (!span && !marker) break;
      if (marker && (!span || marker.at <= span.from)) {
        bytes -= markerBytes(marker);
        markers++;
      } else if (span) {
        bytes -= spanBytes(span);
        spans++;
      }
    }
    this.drop(spans, markers);
    return before - this.variableBytes;
  }

  get bytes(): number {
    return this.rate.bytes + this.variableBytes + OBJECT_BYTES;
  }

  private drop(spans: number, markers: number): void {
    if (spans === 0 && markers === 0) return;
    for (const s of this.spans.splice(0, spans)) this.variableBytes -= spanBytes(s);
    for (const m of this.markers.splice(0, markers)) this.variableBytes -= markerBytes(m);
    this.version++;
  }
}

function spanBytes(s: StateSpan): number {
  return OBJECT_BYTES + (s.reason?.length ?? 0) * 2;
}

function markerBytes(m: Marker): number {
  return OBJECT_BYTES + m.line.length * 2;
}
