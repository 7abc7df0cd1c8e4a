/**
 * The resource table's page: a windowed grid of the rows the host sends (it sorts and filters;
 * the page asks for the rows its scroll position shows), keyboard-first with k9s's keys, and
 * the toolbar (namespace, filter, columns, help). Loads nothing from the network; runs under a
 * nonce'd CSP; theme colours only. The last snapshot's counts are on `<body>` as
 * `data-total`, `data-start` and `data-serial` for tests.
 */
import type { ColumnView, HostMessage, TableAction, TableSnapshot, WebviewMessage } from '../../ui/table/table-protocol';
import { fillColumns, fillHelp, fillKinds } from './dialogs';
import { cellId, cellLabel, describeGrid, drawHeader, drawRows, flashLog, ROW_HEIGHT, type GridElements } from './grid';
import { covers, scrollToShow, windowFor, type RowRange } from './window-math';

const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage) => vscode.postMessage(message);
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const el: GridElements = { grid: $('grid'), head: $('head'), viewport: $('viewport'), spacer: $('spacer'), body: $('rows') };
const filter = $<HTMLInputElement>('filter');
const namespace = $<HTMLSelectElement>('namespace');
const banner = $('banner');
const problem = $('problem');
const count = $('count');
const live = $('live');
const help = $('help-box');
const columnBox = $('column-box');
const gotoBox = $('goto');
const gotoInput = $<HTMLInputElement>('goto-input');

let last: TableSnapshot | undefined;
let shown: ColumnView[] = [];
/** The focused row's index among all (filtered) rows, its key, and the focused column. */
let focusIndex = 0;
let focusKey: string | undefined;
let focusColumn = 0;
let requested: RowRange = { start: 0, count: 0 };
let serial = 0;
const flashSeen = new Set<string>();

const ACTION_KEYS: Record<string, TableAction> = { Enter: 'describe', y: 'yaml', e: 'edit', l: 'logs', s: 'shell', f: 'forward' };

/**
 * The viewport's scroll position and height as last measured: read in its scroll event and by a
 * ResizeObserver, never right after a draw wrote the DOM (reading layout then forces the browser
 * to lay the new rows out at once, inside the draw, and again in the frame: PERF B15).
 */
let scrollTop = 0;
let viewportHeight = 0;

function setScrollTop(top: number): void {
  el.viewport.scrollTop = top;
  scrollTop = Math.max(0, top);
}

function wanted(): RowRange {
  return windowFor(scrollTop, rowsHeight(), ROW_HEIGHT, last?.total ?? 1_000_000);
}

/** The height rows have under the sticky header. */
function rowsHeight(): number {
  return Math.max(ROW_HEIGHT, (viewportHeight || 400) - ROW_HEIGHT);
}

function requestWindow(force = false): void {
  const need = wanted();
  if (!force && last && covers({ start: last.start, count: last.rows.length }, need, last.total) && covers(requested, need, last.total)) return;
  requested = need;
  post({ type: 'window', start: need.start, count: need.count });
}

/** How long each snapshot took to draw (ms, the last 500): read by the benchmark (B15) as `window.__kwTableRenderMs`. */
const renderMs: number[] = [];
(window as unknown as { __kwTableRenderMs: number[] }).__kwTableRenderMs = renderMs;

/**
 * Snapshots are drawn at most once per animation frame, the newest one: when they come faster than
 * the page draws (2,000 events a second on a loaded machine), the older ones are dropped instead of
 * queueing up, and the cells they marked changed are carried into the one drawn, so none is lost.
 */
let queued: TableSnapshot | undefined;
const carried = new Map<string, Set<number>>();
function enqueue(s: TableSnapshot): void {
  if (queued) {
    for (const r of queued.rows) if (r.changed) carried.set(r.key, new Set([...(carried.get(r.key) ?? []), ...r.changed]));
  } else requestAnimationFrame(() => {
    const next = queued!;
    queued = undefined;
    const rows = carried.size === 0 ? next.rows : next.rows.map((r) => (carried.has(r.key) ? { ...r, changed: [...new Set([...(r.changed ?? []), ...carried.get(r.key)!])] } : r));
    carried.clear();
    render(rows === next.rows ? next : { ...next, rows });
  });
  queued = s;
}

/**
 * Each snapshot drawn (the last 500): when (Date.now()), when the host sent it, its row count, filter and sort. Read by
 * the benchmark (B15) as `window.__kwTableDraws` after the fact, so it times a change without
 * polling the page while it works.
 */
const draws: { at: number; sent?: number; total: number; filter: string; sort: string }[] = [];
(window as unknown as { __kwTableDraws: typeof draws }).__kwTableDraws = draws;

function render(s: TableSnapshot): void {
  const t0 = performance.now();
  draw(s);
  renderMs.push(performance.now() - t0);
  if (renderMs.length > 500) renderMs.shift();
  draws.push({ at: Date.now(), sent: s.sentAt, total: s.total, filter: s.filter, sort: s.sort ? `${s.sort.column}${s.sort.descending ? ' descending' : ''}` : '' });
  if (draws.length > 500) draws.shift();
}

/** The state as last given to `vscode.setState` (JSON). */
let stateSaved: string | undefined;

/** The `:` suggestions as last filled. */
let kindsShown: string | undefined;

function draw(s: TableSnapshot): void {
  const previousIndex = focusIndex;
  last = s;
  serial++;
  // The state goes to the workbench (a message each time): only when it changed, not on each of 10 draws a second.
  const state = JSON.stringify(s.state);
  if (state !== stateSaved) {
    stateSaved = state;
    vscode.setState(s.state);
  }
  shown = s.columns.filter((c) => !c.hidden);
  focusColumn = Math.min(focusColumn, Math.max(0, shown.length - 1));
  // The focused row stays where it is on screen when rows come or go above it.
  if (s.focusKey !== undefined && s.focusKey === focusKey && s.focusIndex >= 0 && s.focusIndex !== previousIndex) {
    setScrollTop(scrollTop + (s.focusIndex - previousIndex) * ROW_HEIGHT);
    focusIndex = s.focusIndex;
  } else if (s.focusKey === focusKey && s.focusIndex < 0) focusIndex = Math.min(focusIndex, Math.max(0, s.total - 1));
  document.title = s.title;
  $('title').textContent = s.title;
  if (document.activeElement !== filter && filter.value !== s.filter) filter.value = s.filter;
  problem.hidden = !s.filterProblem;
  problem.textContent = s.filterProblem ?? '';
  filter.setAttribute('aria-invalid', String(!!s.filterProblem));
  banner.hidden = !s.banner;
  banner.textContent = s.banner ?? '';
  // In the user's digit grouping: "100 of 100,000 rows".
  count.textContent = s.total === s.all ? `${s.total.toLocaleString()} ${s.total === 1 ? 'row' : 'rows'}` : `${s.total.toLocaleString()} of ${s.all.toLocaleString()} rows`;
  fillNamespaces(s);
  if (s.kinds && s.kinds.join('\n') !== kindsShown) {
    kindsShown = s.kinds.join('\n');
    fillKinds($<HTMLDataListElement>('kinds'), s.kinds);
  }
  describeGrid(el, s.title, s.total, shown.length);
  sizeColumns(s);
  drawHeader(el, shown, s.sort, focusColumn, (id) => post({ type: 'sort', column: id }));
  drawRows(el, s, shown, focusIndex, focusColumn, flashSeen);
  if (flashSeen.size > 5000) flashSeen.clear();
  markFocus(false);
  document.body.dataset.total = String(s.total);
  document.body.dataset.start = String(s.start);
  document.body.dataset.serial = String(serial);
  document.body.dataset.flashes = flashLog.join('\n');
  requestWindow();
}

/** Column widths in characters: the widest header or cell seen since the columns last changed (they only grow, so scrolling never jolts). */
const widths = new Map<string, number>();
let widthsFor = '';
function sizeColumns(s: TableSnapshot): void {
  const ids = shown.map((c) => c.id).join('\n');
  if (ids !== widthsFor) {
    widths.clear();
    widthsFor = ids;
  }
  shown.forEach((c, i) => {
    let w = Math.max(widths.get(c.id) ?? 0, c.header.length + 2);
    for (const r of s.rows) w = Math.max(w, Math.min(60, (r.cells[i]?.length ?? 0) + (c.id === 'name' && r.stale ? 2 : 0)));
    widths.set(c.id, w);
  });
  const template = shown.map((c) => `${(widths.get(c.id) ?? 8) + 2}ch`).join(' ');
  if (el.grid.style.getPropertyValue('--columns') !== template) el.grid.style.setProperty('--columns', template);
}

/** The namespace choices as last drawn (1,000 options are not re-read from the DOM on every snapshot). */
let namespaceOptions: string | undefined;
function fillNamespaces(s: TableSnapshot): void {
  namespace.hidden = s.namespaces.length === 0 && s.namespace === '';
  const options = ['', ...s.namespaces];
  if (s.namespace && !options.includes(s.namespace)) options.push(s.namespace);
  const wantedOptions = options.join('\n');
  if (wantedOptions !== namespaceOptions) {
    namespaceOptions = wantedOptions;
    namespace.replaceChildren(
      ...options.map((ns) => {
        const o = document.createElement('option');
        o.value = ns;
        o.textContent = ns || 'All namespaces';
        return o;
      }),
    );
  }
  if (namespace.value !== s.namespace) namespace.value = s.namespace;
}

/** The cell that carries the active descendant's id and spoken label, as last marked. */
let markedCell: HTMLElement | undefined;

/** Points the grid's active descendant at the focused cell, tells the host the focused row, announces it when asked. */
function markFocus(announce: boolean): void {
  const row = last?.rows[focusIndex - (last?.start ?? 0)];
  const rowElement = row ? (el.body.children[focusIndex - (last?.start ?? 0)] as HTMLElement | undefined) : undefined;
  const cell = rowElement?.dataset.key === row?.key ? (rowElement?.children[focusColumn] as HTMLElement | undefined) : undefined;
  for (const old of el.body.querySelectorAll('.focused, .focused-cell')) old.classList.remove('focused', 'focused-cell');
  for (const old of el.head.querySelectorAll('.focus-column')) old.classList.remove('focus-column');
  el.head.querySelector(`[aria-colindex="${focusColumn + 1}"]`)?.classList.add('focus-column');
  if (markedCell && markedCell !== cell) {
    markedCell.removeAttribute('id');
    markedCell.removeAttribute('aria-label');
    markedCell = undefined;
  }
  el.body.querySelectorAll('[aria-selected]').forEach((r) => r.removeAttribute('aria-selected'));
  if (cell && row) {
    const id = cellId(focusIndex, focusColumn);
    cell.id = id;
    cell.setAttribute('aria-label', cellLabel(row, shown[focusColumn], focusColumn));
    markedCell = cell;
    el.grid.setAttribute('aria-activedescendant', id);
    cell.classList.add('focused-cell');
    rowElement!.classList.add('focused');
    rowElement!.setAttribute('aria-selected', 'true');
  } else el.grid.removeAttribute('aria-activedescendant');
  if (row && row.key !== focusKey) {
    focusKey = row.key;
    post({ type: 'focus', key: row.key });
  }
  if (announce && cell) live.textContent = `${cell.getAttribute('aria-label')}, row ${focusIndex + 1} of ${last?.total ?? 0}`;
}

function moveFocus(rows: number, columns = 0): void {
  if (!last || last.total === 0) return;
  focusIndex = Math.max(0, Math.min(last.total - 1, focusIndex + rows));
  focusColumn = Math.max(0, Math.min(shown.length - 1, focusColumn + columns));
  setScrollTop(scrollToShow(focusIndex, scrollTop, rowsHeight(), ROW_HEIGHT));
  const inWindow = focusIndex >= last.start && focusIndex < last.start + last.rows.length;
  if (inWindow) markFocus(true);
  requestWindow(!inWindow);
}

function focusedRowKey(): string | undefined {
  return last?.rows[focusIndex - last.start]?.key;
}

function moveColumn(by: number): void {
  if (!last) return;
  const order = last.columns.map((c) => c.id);
  const id = shown[focusColumn]?.id;
  const from = order.indexOf(id);
  const target = shown[focusColumn + by]?.id;
  if (from < 0 || target === undefined) return;
  order.splice(from, 1);
  order.splice(order.indexOf(target) + (by > 0 ? 1 : 0), 0, id);
  focusColumn += by;
  post({ type: 'columns', order, hidden: last.columns.filter((c) => c.hidden).map((c) => c.id) });
}

function hideColumn(): void {
  const id = shown[focusColumn]?.id;
  if (!last || !id || id === 'name') return;
  post({ type: 'columns', order: last.columns.map((c) => c.id), hidden: [...last.columns.filter((c) => c.hidden).map((c) => c.id), id] });
}

function openDialog(box: HTMLElement): void {
  box.hidden = false;
  (box.querySelector('input, button') as HTMLElement | null)?.focus();
}

function closeDialogs(): void {
  for (const box of [help, columnBox, gotoBox]) box.hidden = true;
  el.grid.focus();
}

function onGridKey(e: KeyboardEvent): void {
  const page = Math.max(1, Math.floor(rowsHeight() / ROW_HEIGHT) - 1);
  const key = e.key;
  if (e.ctrlKey && (key === 'd' || key === 'D')) return act(e, 'delete');
  if (e.ctrlKey || e.metaKey) return;
  if (e.altKey && key === 'ArrowLeft') return handled(e, () => moveColumn(-1));
  if (e.altKey && key === 'ArrowRight') return handled(e, () => moveColumn(1));
  if (e.altKey) return;
  if (key === 'ArrowDown' || key === 'j') return handled(e, () => moveFocus(1));
  if (key === 'ArrowUp' || key === 'k') return handled(e, () => moveFocus(-1));
  if (key === 'ArrowLeft') return handled(e, () => moveFocus(0, -1));
  if (key === 'ArrowRight') return handled(e, () => moveFocus(0, 1));
  if (key === 'PageDown') return handled(e, () => moveFocus(page));
  if (key === 'PageUp') return handled(e, () => moveFocus(-page));
  if (key === 'Home') return handled(e, () => moveFocus(-Infinity));
  if (key === 'End') return handled(e, () => moveFocus(Infinity));
  if (key === '/') return handled(e, () => filter.focus());
  if (key === ':') return handled(e, () => openDialog(gotoBox));
  if (key === '?') return handled(e, () => openDialog(help));
  if (key === 'c') return handled(e, () => last && (fillColumns(columnBox, last.columns, (order, hidden) => post({ type: 'columns', order, hidden })), openDialog(columnBox)));
  if (key === 'O') return handled(e, () => shown[focusColumn] && post({ type: 'sort', column: shown[focusColumn].id }));
  if (key === 'H') return handled(e, hideColumn);
  if (key === 'Escape' && filter.value) return handled(e, () => setFilter(''));
  const action = ACTION_KEYS[key];
  if (action) act(e, action);
}

function act(e: KeyboardEvent, action: TableAction): void {
  const key = focusedRowKey();
  handled(e, () => key && post({ type: 'action', action, key }));
}

function handled(e: Event, fn: () => unknown): void {
  e.preventDefault();
  e.stopPropagation();
  fn();
}

function setFilter(text: string): void {
  filter.value = text;
  post({ type: 'filter', text });
}

// The grid's keys also when the focus fell back to the page itself (VS Code refocuses a webview's
// document when its tab is clicked or shown): nothing typed is lost between two focus moves.
document.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement | null;
  if (target === el.grid || target === document.body || target === document.documentElement || target === null) onGridKey(e);
});
el.viewport.addEventListener(
  'scroll',
  () => {
    scrollTop = el.viewport.scrollTop;
    requestWindow();
  },
  { passive: true },
);
new ResizeObserver(() => {
  viewportHeight = el.viewport.clientHeight;
  requestWindow();
}).observe(el.viewport);
el.body.addEventListener('mousedown', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('[role=row]');
  const cell = (e.target as HTMLElement).closest<HTMLElement>('[role=gridcell]');
  if (!row) return;
  focusIndex = Number(row.dataset.index);
  if (cell) focusColumn = Array.prototype.indexOf.call(row.children, cell) as number;
  markFocus(false);
});
el.body.addEventListener('dblclick', () => {
  const key = focusedRowKey();
  if (key) post({ type: 'action', action: 'describe', key });
});
filter.addEventListener('input', () => post({ type: 'filter', text: filter.value }));
filter.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' || e.key === 'ArrowDown') handled(e, () => el.grid.focus());
  else if (e.key === 'Escape') handled(e, () => (filter.value ? setFilter('') : el.grid.focus()));
});
namespace.addEventListener('change', () => post({ type: 'namespace', namespace: namespace.value }));
gotoInput.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    handled(e, () => post({ type: 'goto', text: gotoInput.value }));
    gotoInput.value = '';
    closeDialogs();
  } else if (e.key === 'Escape') handled(e, closeDialogs);
});
for (const box of [help, columnBox]) {
  box.addEventListener('keydown', (e) => e.key === 'Escape' && handled(e, closeDialogs));
  box.addEventListener('click', (e) => (e.target as HTMLElement).classList.contains('close') && closeDialogs());
}
$('help').addEventListener('click', () => openDialog(help));
$('columns').addEventListener('click', () => last && (fillColumns(columnBox, last.columns, (order, hidden) => post({ type: 'columns', order, hidden })), openDialog(columnBox)));
window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  if (m.type === 'snapshot') enqueue(m);
  else if (m.type === 'focus-filter') filter.focus();
  else if (m.type === 'problem') live.textContent = m.text;
});

fillHelp(help);
const close = document.createElement('button');
close.textContent = 'Close';
close.className = 'close';
help.append(close);
el.grid.focus();
viewportHeight = el.viewport.clientHeight;
post({ type: 'ready' });
requestWindow(true);
