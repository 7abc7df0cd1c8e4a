import { timeFormat } from '../../base/time-format';
import type { HealthRecorder, WatchTrack } from '../../health';
import type { InformerStats } from '../../informer';
import type { WatchEntry } from '../../manager';
import { humanDuration } from '../age';
import { oneLine } from '../log';
import { describeWatchState } from '../watch-state-text';
import type { HealthSnapshot, RateView, SpanView, WatchHealthView } from './health-messages';
import { stateLabel, stateStyles } from './health-state-style';

/** The shortest time axis the panel draws. */
const MIN_AXIS_MS = 60_000;

/** Where a resourceVersion came from, in words. */
const SOURCES: Record<string, string> = { list: 'a list', event: 'a watch event', bookmark: 'a bookmark' };

/**
 * Connection facts an informer may report in its stats once the connection layer records them
 * (protocol, last PING round trip). Absent today: the transport is HTTP/1.1.
 */
interface ConnectionStats {
  connection?: { protocol?: string; pingRttMs?: number };
}

/** The connection in words: "HTTP/2, PING 3 ms", or "HTTP/1.1" when the stats say nothing. */
export function connectionText(stats: InformerStats | undefined): string {
  const connection = (stats as (InformerStats & ConnectionStats) | undefined)?.connection;
  const protocol = connection?.protocol ?? 'HTTP/1.1';
  const ping = connection?.pingRttMs;
  return ping !== undefined ? `${protocol}, PING ${Math.round(ping)} ms` : protocol;
}

/** What a view of one track costs to build, cached until the track changes or a second passes. */
interface Cached {
  key: string;
  view: WatchHealthView;
}

/**
 * Builds the panel's snapshot from the recorder's tracks and the manager's entries. Keeps a view
 * per track, rebuilt only when the track changed or the second turned; pure otherwise.
 */
export class HealthViewModel {
  private readonly cache = new Map<string, Cached>();
  private serial = 0;

  constructor(
    private readonly recorder: HealthRecorder,
    private readonly entries: () => WatchEntry[],
  ) {}

  snapshot(now: number): HealthSnapshot {
    const byId = new Map(this.entries().map((e) => [e.id, e]));
    const tracks = this.recorder.tracks();
    const windowMs = this.recorder.windowMs;
    const watches = tracks
      .map((track) => {
        const entry = byId.get(track.id);
        const key = `${track.version}:${Math.floor(now / 1000)}:${windowMs}:${entry ? entrySignature(entry) : 'removed'}`;
        const hit = this.cache.get(track.id);
        if (hit && hit.key === key) return reachingNow(hit.view, now);
        const view = watchView(track, entry, now, windowMs);
        this.cache.set(track.id, { key, view });
        return view;
      })
      .sort((a, b) => Number(a.removed) - Number(b.removed) || a.label.localeCompare(b.label));
    for (const id of this.cache.keys()) if (!tracks.some((t) => t.id === id)) this.cache.delete(id);
    const recorded = Math.min(now, ...watches.map((w) => w.spans[0]?.from ?? now));
    const from = Math.max(now - windowMs, Math.min(recorded, now - MIN_AXIS_MS));
    return { type: 'snapshot', now, windowMs, from, serial: ++this.serial, states: stateStyles(), watches, timeFormat: timeFormat() };
  }
}

/** A view made earlier in the same second, its open span reaching this snapshot's `now` (the band ends at the panel's clock). */
function reachingNow(view: WatchHealthView, now: number): WatchHealthView {
  const last = view.spans.at(-1);
  if (!last?.open || last.to === now) return view;
  return { ...view, spans: [...view.spans.slice(0, -1), { ...last, to: now }] };
}

function entrySignature(entry: WatchEntry): string {
  const s = entry.stats;
  return `${entry.state.phase}|${entry.state.nextRetryAt ?? ''}|${s.resourceVersion ?? ''}|${s.resourceVersionAt ?? ''}|${connectionText(s)}`;
}

/** One watch's view at `now`: spans clipped to the window, markers in it, its rate per second. */
export function watchView(track: WatchTrack, entry: WatchEntry | undefined, now: number, windowMs: number): WatchHealthView {
  const start = now - windowMs;
  const spans: SpanView[] = [];
  for (const s of track.spans) {
    const to = s.to ?? now;
    if (to < start) continue;
    const label = stateLabel(s.state);
    spans.push({ state: s.state, from: Math.max(s.from, start), to, open: s.to === undefined, title: s.state === 'suspended' && s.reason ? s.reason : s.reason ? `${label}: ${oneLine(s.reason, 200)}` : label });
  }
  const markers = track.markers.filter((m) => m.at >= start).map((m) => ({ kind: m.kind, at: m.at, line: m.line }));
  const rate: RateView = { t: [], adds: [], updates: [], deletes: [] };
  const totals = { adds: 0, updates: 0, deletes: 0 };
  for (const p of track.rate.series(now)) {
    const per = 1000 / p.widthMs;
    rate.t.push(p.at / 1000);
    rate.adds.push(p.adds * per);
    rate.updates.push(p.updates * per);
    rate.deletes.push(p.deletes * per);
    totals.adds += p.adds;
    totals.updates += p.updates;
    totals.deletes += p.deletes;
  }
  const state = track.state ?? 'stopped';
  const stateText = entry ? describeWatchState(entry, now).text : `no longer watched (${stateLabel(state)})`;
  const stats = entry?.stats;
  const rv = stats?.resourceVersion;
  return {
    id: track.id,
    label: track.label,
    removed: entry === undefined,
    state,
    stateText,
    spans,
    markers,
    rate,
    totals,
    resourceVersion: rv
      ? {
          value: rv,
          source: stats?.resourceVersionSource,
          at: stats?.resourceVersionAt,
          text: `${rv}${stats?.resourceVersionSource ? ` from ${SOURCES[stats.resourceVersionSource] ?? stats.resourceVersionSource}` : ''}${stats?.resourceVersionAt !== undefined ? `, ${humanDuration(now - stats.resourceVersionAt)} ago` : ''}`,
        }
      : undefined,
    connection: entry?.informer ? connectionText(stats) : 'none',
    summary: bandSummary(track.label, stateText, spans, markers, now - Math.max(start, spans[0]?.from ?? now)),
    rateSummary: rateSummary(totals, rate, now - Math.max(start, spans[0]?.from ?? now)),
  };
}

const MARKER_WORDS: Record<string, [string, string]> = { expired: ['expiry', 'expiries'], relist: ['relist', 'relists'], bookmark: ['bookmark', 'bookmarks'], restart: ['restart', 'restarts'] };

/** The band in words: the state now, the time in each state over the recording (longest first), and the markers by kind. */
export function bandSummary(label: string, stateText: string, spans: readonly SpanView[], markers: readonly { kind: string }[], shownMs: number): string {
  const byState = new Map<string, number>();
  for (const s of spans) {
    const name = s.state === 'suspended' ? 'process suspended' : s.title.split(':')[0];
    byState.set(name, (byState.get(name) ?? 0) + (s.to - s.from));
  }
  const times = [...byState].filter(([, ms]) => ms >= 1000).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${humanDuration(ms)}`);
  const counts = new Map<string, number>();
  for (const m of markers) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  const marks = [...counts].map(([kind, n]) => `${n} ${MARKER_WORDS[kind]?.[n === 1 ? 0 : 1] ?? kind}`);
  const parts = [`${label}: ${stateText}`];
  if (times.length > 0) parts.push(`over the last ${humanDuration(shownMs)}: ${times.join(', ')}`);
  parts.push(marks.length > 0 ? `${markers.length} marker${markers.length === 1 ? '' : 's'}: ${marks.join(', ')}` : 'no markers');
  return parts.join('; ');
}

/** The rate chart in words. */
export function rateSummary(totals: { adds: number; updates: number; deletes: number }, rate: RateView, shownMs: number): string {
  const peak = Math.max(0, ...rate.adds.map((a, i) => a + (rate.updates[i] ?? 0) + (rate.deletes[i] ?? 0)));
  return `events over the last ${humanDuration(shownMs)}: ${totals.adds} adds, ${totals.updates} updates, ${totals.deletes} deletes; at most ${Number(peak.toFixed(1))}/s`;
}
