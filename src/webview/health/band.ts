import { clockTime, type TimeFormat } from '../../base/time-format';
import type { MarkerView, SpanView, StateStyle } from '../../ui/health/health-messages';

/** Marker width in CSS pixels: a marker closer than this to another goes to another lane. */
const MARKER_PX = 13;
/** Lane tops: on the band, then above it. */
const LANE_TOPS = [3, -12, -27];

/** Marker glyphs, one letter each, readable without colour. */
const GLYPH: Record<MarkerView['kind'], string> = { expired: 'E', relist: 'R', bookmark: 'B', restart: 'S' };

/** What a marker is, in words, for screen readers. */
const KIND_WORDS: Record<MarkerView['kind'], string> = { expired: 'expiry', relist: 'relist', bookmark: 'bookmark', restart: 'restart' };

/**
 * Draws a watch's timeline band: one absolutely placed element per span (coloured by state,
 * `data-state`, `data-from`, `data-to` in epoch ms, hover text), one per marker (`data-kind`,
 * `data-at`, the log line as hover text). DOM only, through the CSSOM (the CSP forbids inline
 * style attributes). Spans and markers carry what they show as their accessible name and are
 * focusable (`tabindex=-1`): the band is one tab stop, and the arrow keys move through them in
 * time order (see `bandKeys`), so the band is readable by keyboard and screen reader alone.
 */
export function drawBand(band: HTMLElement, spans: readonly SpanView[], markers: readonly MarkerView[], styles: readonly StateStyle[], from: number, to: number, widthPx: number, format: TimeFormat): void {
  const time = (at: number) => clockTime(at, true, format);
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
    el.tabIndex = -1;
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', `${s.title}, from ${time(s.from)} ${s.open ? 'until now' : `to ${time(s.to)}`}`);
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
    el.tabIndex = -1;
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', `${KIND_WORDS[m.kind]} at ${time(m.at)}: ${m.line}`);
    fragment.append(el);
  }
  band.replaceChildren(fragment);
}

/**
 * The band's keys: it is one tab stop; Right and Left move to the next and previous span or
 * marker in time, Home and End to the first and last, Escape back to the band.
 */
export function bandKeys(band: HTMLElement): void {
  band.addEventListener('keydown', (event) => {
    const items = [...band.querySelectorAll<HTMLElement>('.span, .marker')].sort((a, b) => at(a) - at(b));
    if (items.length === 0) return;
    const current = items.indexOf(document.activeElement as HTMLElement);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = current < 0 ? 0 : Math.min(items.length - 1, current + 1);
    else if (event.key === 'ArrowLeft') next = current < 0 ? items.length - 1 : Math.max(0, current - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'Escape' && current >= 0) {
      band.focus();
      event.preventDefault();
      return;
    }
    if (next === undefined) return;
    items[next].focus();
    event.preventDefault();
  });
}

function at(el: HTMLElement): number {
  return Number(el.dataset.at ?? el.dataset.from ?? 0);
}
