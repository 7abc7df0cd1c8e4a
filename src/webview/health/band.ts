import type { MarkerView, SpanView, StateStyle } from '../../ui/health/health-messages';

/** Marker width in CSS pixels: a marker closer than this to another goes to another lane. */
const MARKER_PX = 13;
/** Lane tops: on the band, then above it. */
const LANE_TOPS = [3, -12, -27];

/** Marker glyphs, one letter each, readable without colour. */
const GLYPH: Record<MarkerView['kind'], string> = { expired: 'E', relist: 'R', bookmark: 'B', restart: 'S' };

/**
 * Draws a watch's timeline band: one absolutely placed element per span (coloured by state,
 * `data-state`, `data-from`, `data-to` in epoch ms, hover text), one per marker (`data-kind`,
 * `data-at`, the log line as hover text). DOM only, through the CSSOM (the CSP forbids inline
 * style attributes).
 */
export function drawBand(band: HTMLElement, spans: readonly SpanView[], markers: readonly MarkerView[], styles: readonly StateStyle[], from: number, to: number, widthPx: number): void {
  const width = Math.max(1, to - from);
  const pct = (t: number) => `${(((Math.min(Math.max(t, from), to) - from) / width) * 100).toFixed(3)}%`;
  const colorOf = new Map(styles.map((s) => [s.state, s.color]));
  const fragment = document.createDocumentFragment();
  for (const s of spans) {
    const el = document.createElement('div');
    el.className = 'span';
    el.dataset.state = s.state;
    el.dataset.from = String(s.from);
    el.dataset.to = String(s.to);
    if (s.open) el.dataset.open = 'true';
    el.title = `${s.title}\n${time(s.from)} – ${s.open ? 'now' : time(s.to)}`;
    el.style.left = pct(s.from);
    el.style.width = `calc(${pct(s.to)} - ${pct(s.from)})`;
    el.style.background = colorOf.get(s.state) ?? 'var(--vscode-disabledForeground)';
    fragment.append(el);
  }
  // Markers closer than a glyph to the one before go to the next lane, so none hides another.
  const lanes: number[] = [];
  for (const m of markers) {
    const x = ((Math.min(Math.max(m.at, from), to) - from) / width) * widthPx;
    let lane = lanes.findIndex((lastX) => x - lastX >= MARKER_PX);
    if (lane < 0) lane = lanes.length < LANE_TOPS.length ? lanes.length : LANE_TOPS.length - 1;
    lanes[lane] = x;
    const el = document.createElement('div');
    el.className = `marker marker-${m.kind}`;
    el.dataset.kind = m.kind;
    el.dataset.at = String(m.at);
    el.title = `${time(m.at)} ${m.line}`;
    el.textContent = GLYPH[m.kind];
    el.style.left = pct(m.at);
    el.style.top = `${LANE_TOPS[lane]}px`;
    el.setAttribute('aria-label', el.title);
    fragment.append(el);
  }
  band.replaceChildren(fragment);
}

function time(at: number): string {
  return new Date(at).toLocaleTimeString();
}
