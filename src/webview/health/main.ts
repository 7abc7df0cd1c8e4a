/**
 * The Watch Health panel's webview: draws the snapshots the extension sends (a band and a rate
 * chart per watch) and sends back "ready" and "copy-markdown". Loads nothing from the network;
 * runs under a nonce'd CSP. The latest snapshot's clock and serial are on `<body>` as
 * `data-now` and `data-serial`, each watch's state on its row, for tests and screen readers.
 */
import type { HostMessage, HealthSnapshot, WatchHealthView, WebviewMessage } from '../../ui/health/health-messages';
import { clockTime } from '../../base/time-format';
import { bandKeys, drawBand } from './band';
import { RateChart } from './rate-chart';

const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage) => vscode.postMessage(message);

interface Row {
  root: HTMLElement;
  title: HTMLElement;
  state: HTMLElement;
  facts: HTMLElement;
  band: HTMLElement;
  chart: RateChart;
  chartBox: HTMLElement;
}

const rows = new Map<string, Row>();
const list = document.getElementById('watches')!;
const legend = document.getElementById('legend')!;
const summary = document.getElementById('summary')!;
let focusId: string | undefined;
let lastShown: HealthSnapshot | undefined;

document.getElementById('copy')!.addEventListener('click', () => post({ type: 'copy-markdown' }));

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message.type === 'snapshot') render(message);
  else if (message.type === 'focus') focus(message.id);
});

window.addEventListener('resize', () => {
  for (const row of rows.values()) row.chart.resize(chartWidth(row));
});

// A theme change swaps the --vscode-* variables (on <html>) and body's class: the charts, whose canvas
// took concrete colours, are rebuilt from the last snapshot.
const themeChanged = new MutationObserver(() => {
  for (const row of rows.values()) {
    row.chart.destroy();
    row.root.remove();
  }
  rows.clear();
  if (lastShown) render(lastShown);
});
themeChanged.observe(document.body, { attributes: true, attributeFilter: ['class'] });
themeChanged.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });

function render(snapshot: HealthSnapshot): void {
  lastShown = snapshot;
  document.body.dataset.now = String(snapshot.now);
  document.body.dataset.serial = String(snapshot.serial);
  document.body.dataset.window = String(snapshot.windowMs);
  const from = snapshot.from;
  if (legend.childElementCount === 0) drawLegend(snapshot);
  const shown = Math.round((snapshot.now - from) / 60_000);
  const recorded = snapshot.now - from < snapshot.windowMs - 1000 ? ` (recorded since ${clockTime(from, true, snapshot.timeFormat)})` : '';
  summary.textContent = `${snapshot.watches.length} watch${snapshot.watches.length === 1 ? '' : 'es'} · the last ${minutesText(shown)}${recorded} · window ${minutesText(Math.round(snapshot.windowMs / 60_000))}`;

  const seen = new Set<string>();
  for (const w of snapshot.watches) {
    seen.add(w.id);
    const row = rows.get(w.id) ?? addRow(w);
    list.append(row.root); // keeps the snapshot's order
    fill(row, w, snapshot, from);
  }
  for (const [id, row] of rows) {
    if (seen.has(id)) continue;
    row.chart.destroy();
    row.root.remove();
    rows.delete(id);
  }
  document.getElementById('empty')!.hidden = snapshot.watches.length > 0;
  if (focusId) focus(focusId);
}

function addRow(w: WatchHealthView): Row {
  const root = document.createElement('section');
  root.className = 'watch';
  root.dataset.watchId = w.id;
  const header = document.createElement('header');
  const title = document.createElement('h2');
  const state = document.createElement('span');
  state.className = 'state';
  header.append(title, state);
  const facts = document.createElement('div');
  facts.className = 'facts';
  const band = document.createElement('div');
  band.className = 'band';
  // One tab stop per band, its summary read out; the arrow keys walk its spans and markers.
  band.tabIndex = 0;
  band.setAttribute('role', 'group');
  band.setAttribute('aria-roledescription', 'timeline');
  bandKeys(band);
  const chartBox = document.createElement('div');
  chartBox.className = 'rate';
  // The chart is a picture with a text alternative: its numbers in words.
  chartBox.setAttribute('role', 'img');
  root.append(header, facts, band, chartBox);
  list.append(root);
  const row: Row = { root, title, state, facts, band, chartBox, chart: undefined as unknown as RateChart };
  row.chart = new RateChart(chartBox, chartWidth(row));
  rows.set(w.id, row);
  return row;
}

function fill(row: Row, w: WatchHealthView, snapshot: HealthSnapshot, from: number): void {
  row.root.dataset.state = w.state;
  row.root.classList.toggle('removed', w.removed);
  row.title.textContent = w.label;
  row.state.textContent = w.stateText;
  row.state.dataset.state = w.state;
  const style = snapshot.states.find((s) => s.state === w.state);
  row.state.style.borderColor = style?.color ?? '';
  const rv = w.resourceVersion ? `resourceVersion ${w.resourceVersion.text}` : 'no resourceVersion yet';
  row.facts.textContent = `${rv} · ${w.connection} · ${w.totals.adds} adds, ${w.totals.updates} updates, ${w.totals.deletes} deletes`;
  row.band.setAttribute('aria-label', w.summary);
  row.chartBox.setAttribute('aria-label', w.rateSummary);
  row.chart.update(w.rate, from, snapshot.now, snapshot.timeFormat);
  // The band spans the chart's plotting area, so a span and the rate under it line up.
  const area = row.chart.plotArea();
  row.band.style.marginLeft = `${area.left}px`;
  row.band.style.width = `${area.width}px`;
  drawBand(row.band, w.spans, w.markers, snapshot.states, from, snapshot.now, area.width, snapshot.timeFormat);
}

function drawLegend(snapshot: HealthSnapshot): void {
  const seen = new Set<string>();
  for (const s of snapshot.states) {
    if (seen.has(s.label)) continue;
    seen.add(s.label);
    const item = document.createElement('span');
    item.className = 'legend-item';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = s.color;
    item.append(swatch, document.createTextNode(s.label));
    legend.append(item);
  }
  const markers = document.createElement('span');
  markers.className = 'legend-item';
  markers.textContent = 'markers: E expired · R relist · B bookmark · S restart';
  legend.append(markers);
}

function focus(id: string): void {
  const row = rows.get(id);
  if (!row) {
    focusId = id; // not drawn yet: the next snapshot will
    return;
  }
  focusId = undefined;
  for (const r of rows.values()) r.root.classList.toggle('focused', r === row);
  row.root.scrollIntoView({ block: 'nearest' });
}

function chartWidth(row: Row): number {
  return Math.max(200, row.chartBox.clientWidth || list.clientWidth || 600);
}

post({ type: 'ready' });

function minutesText(minutes: number): string {
  if (minutes < 1) return 'minute';
  return minutes >= 60 && minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}
