/**
 * The cluster overview's webview: draws the snapshots the extension sends (counts per kind, each
 * a link; warnings of the last hour; nodes with usage; the watches' health) and sends back
 * "ready" and "open" (a count was clicked). Text only through textContent; loads nothing from the
 * network; runs under a nonce'd CSP. Each count carries `data-kind`, `data-group` and `data-count`.
 */
import type { KindCount, NodeLine, OverviewHostMessage, OverviewSnapshot, OverviewWebviewMessage, WarningLine } from '../../ui/overview/overview-messages';
import { clockTime } from '../../base/time-format';

const vscode = acquireVsCodeApi();
const post = (message: OverviewWebviewMessage) => vscode.postMessage(message);
let serial = 0;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function byId(id: string): HTMLElement {
  return document.getElementById(id)!;
}

window.addEventListener('message', (event: MessageEvent<OverviewHostMessage>) => {
  if (event.data?.type === 'snapshot') render(event.data);
});

function render(s: OverviewSnapshot): void {
  document.body.dataset.serial = String(++serial);
  document.body.dataset.context = s.context;
  byId('title').textContent = `Cluster overview: ${s.title}`;
  const health = byId('health');
  health.textContent = `Watches: ${s.health || 'nothing watched'}`;
  health.className = `health tone-${s.healthTone}`;
  renderCounts(s.counts);
  renderWarnings(s);
  renderNodes(s);
}

function renderCounts(counts: readonly KindCount[]): void {
  const box = byId('counts');
  box.replaceChildren();
  if (counts.length === 0) box.append(el('p', 'Nothing is watched on this cluster yet.', 'muted'));
  for (const c of counts) {
    const b = el('button', undefined, 'count');
    b.dataset.kind = c.kind;
    b.dataset.group = c.group;
    if (c.count !== undefined) b.dataset.count = String(c.count);
    b.title = `Open ${c.resource}${c.note ? ` (${c.note})` : ''}`;
    b.append(el('span', c.count !== undefined ? String(c.count) : '–', 'number'), el('span', c.kind, 'kind'));
    if (c.group) b.append(el('span', c.group, 'group'));
    if (c.note) b.append(el('span', c.note, 'note'));
    b.addEventListener('click', () => post({ type: 'open', group: c.group, kind: c.kind, resource: c.resource }));
    box.append(b);
  }
}

function renderWarnings(s: OverviewSnapshot): void {
  const box = byId('warnings');
  box.replaceChildren();
  const heading = byId('warnings-heading');
  heading.textContent = s.warningCount !== undefined ? `Warnings in the last hour: ${s.warningCount}` : 'Warnings in the last hour';
  if (s.eventsNote) box.append(el('p', s.eventsNote, 'muted'));
  if (!s.warnings) return;
  if (s.warnings.length === 0 && !s.eventsNote) box.append(el('p', 'No warning events in the last hour.', 'muted'));
  const list = el('ul', undefined, 'warnings');
  for (const w of s.warnings) list.append(warningItem(w));
  box.append(list);
}

function warningItem(w: WarningLine): HTMLElement {
  const li = el('li');
  li.append(el('span', clockTime(w.at), 'time'), el('span', w.reason, 'reason'), el('span', w.object, 'object'), el('span', w.count > 1 ? `${w.message} (x${w.count})` : w.message, 'message'));
  return li;
}

function bar(percent: number | undefined): HTMLElement {
  const outer = el('span', undefined, 'bar');
  if (percent === undefined) return outer;
  const inner = el('span', undefined, percent >= 90 ? 'fill high' : 'fill');
  inner.style.width = `${Math.min(100, Math.max(0, percent))}%`;
  outer.append(inner);
  return outer;
}

function renderNodes(s: OverviewSnapshot): void {
  const box = byId('nodes');
  box.replaceChildren();
  if (s.nodesNote) box.append(el('p', s.nodesNote, 'muted'));
  if (!s.nodes) return;
  const table = el('table', undefined, 'nodes');
  const head = el('tr');
  for (const h of ['NAME', 'STATUS', 'CPU', '', 'MEM', '']) head.append(el('th', h));
  table.append(head);
  for (const n of s.nodes) table.append(nodeRow(n));
  box.append(table);
}

function nodeRow(n: NodeLine): HTMLElement {
  const tr = el('tr');
  tr.dataset.node = n.name;
  tr.append(el('td', n.name), el('td', n.ready));
  if (n.cpu === undefined) {
    const td = el('td', n.note ?? '', 'muted');
    td.colSpan = 4;
    tr.append(td);
    return tr;
  }
  const cpuBar = el('td');
  cpuBar.append(bar(n.cpuPercent));
  const memBar = el('td');
  memBar.append(bar(n.memPercent));
  tr.append(el('td', n.cpu), cpuBar, el('td', n.mem ?? ''), memBar);
  if (n.note) tr.title = n.note;
  return tr;
}

post({ type: 'ready' });
