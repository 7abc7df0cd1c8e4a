import { humanDuration } from '../age';
import type { HealthSnapshot, WatchHealthView } from './health-messages';

/** Markers listed per watch in the Markdown summary, newest last. */
const MARKERS_LISTED = 10;

/**
 * The panel's summary as Markdown for a bug report: per watch its state now, time spent in each
 * state over the window, the resourceVersion, the connection, the changes counted and the last
 * markers with their log lines. Pure.
 */
export function healthMarkdown(snapshot: HealthSnapshot): string {
  const at = new Date(snapshot.now).toISOString();
  const lines = [`# Kube Watch: watch health`, '', `Over the last ${humanDuration(snapshot.windowMs)}, at ${at}.`, ''];
  lines.push('| watch | now | resourceVersion | connection | adds / updates / deletes | time per state |', '|---|---|---|---|---|---|');
  for (const w of snapshot.watches) {
    lines.push(`| ${cell(w.label)} | ${cell(w.stateText)} | ${cell(w.resourceVersion?.text ?? '(none)')} | ${cell(w.connection)} | ${w.totals.adds} / ${w.totals.updates} / ${w.totals.deletes} | ${cell(timePerState(w, snapshot))} |`);
  }
  for (const w of snapshot.watches) {
    const trouble = w.spans.filter((s) => s.state !== 'watching' && s.state !== 'listing' && s.state !== 'connecting');
    if (w.markers.length === 0 && trouble.length === 0) continue;
    lines.push('', `## ${w.label}`, '');
    for (const s of trouble.slice(-MARKERS_LISTED)) lines.push(`- ${new Date(s.from).toISOString()} ${s.title} for ${humanDuration(s.to - s.from)}${s.open ? ' (still)' : ''}`);
    if (w.markers.length > 0) {
      lines.push('', '```');
      for (const m of w.markers.slice(-MARKERS_LISTED)) lines.push(`${new Date(m.at).toISOString()} ${m.line}`);
      lines.push('```');
    }
  }
  return `${lines.join('\n')}\n`;
}

function timePerState(w: WatchHealthView, snapshot: HealthSnapshot): string {
  const totals = new Map<string, number>();
  for (const s of w.spans) totals.set(s.state, (totals.get(s.state) ?? 0) + (s.to - s.from));
  const label = (state: string) => snapshot.states.find((x) => x.state === state)?.label ?? state;
  return [...totals].sort((a, b) => b[1] - a[1]).map(([state, ms]) => `${label(state)} ${humanDuration(ms)}`).join(', ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
