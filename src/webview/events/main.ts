/**
 * The Events panel's webview: draws the snapshots the extension sends (warnings first, one row
 * per object, gap rows between them) and sends back "ready", the filter and "clear-subject".
 * Loads nothing from the network; runs under a nonce'd CSP. A table (role=grid) whose rows are
 * reached with the arrow keys (one tab stop), opened and closed with Enter or Space.
 */
import type { EventsFilter, EventsRowView, EventsSnapshot, HostMessage, WebviewMessage } from '../../ui/events/events-messages';

const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage) => vscode.postMessage(message);

const body = document.getElementById('rows')!;
const scope = document.getElementById('scope')!;
const memory = document.getElementById('memory')!;
const problem = document.getElementById('problem')!;
const subject = document.getElementById('subject')!;
const subjectText = document.getElementById('subject-text')!;
const text = document.getElementById('filter-text') as HTMLInputElement;
const namespace = document.getElementById('filter-namespace') as HTMLSelectElement;
const warningsOnly = document.getElementById('filter-warnings') as HTMLInputElement;
/** Groups the user opened, by key; kept across snapshots. */
const expanded = new Set<string>();
/** The row that holds the tab stop, by its key. */
let activeKey: string | undefined;
let typingTimer: ReturnType<typeof setTimeout> | undefined;
let last: EventsSnapshot | undefined;

const sendFilter = () => post({ type: 'filter', filter: currentFilter() });
text.addEventListener('input', () => {
  if (typingTimer) clearTimeout(typingTimer);
  typingTimer = setTimeout(sendFilter, 150);
});
namespace.addEventListener('change', sendFilter);
warningsOnly.addEventListener('change', sendFilter);
document.getElementById('subject-clear')!.addEventListener('click', () => post({ type: 'clear-subject' }));

function currentFilter(): EventsFilter {
  return { text: text.value, namespace: namespace.value, warningsOnly: warningsOnly.checked };
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  if (event.data?.type === 'snapshot') render(event.data);
});

function render(s: EventsSnapshot): void {
  last = s;
  document.body.dataset.warnings = String(s.warnings);
  document.body.dataset.dropped = String(s.dropped);
  scope.textContent = s.scope;
  memory.textContent = s.memory;
  problem.textContent = s.problem ?? '';
  problem.hidden = !s.problem;
  subject.hidden = !s.subject;
  subjectText.textContent = s.subject ? `Events of ${s.subject.kind} ${s.subject.namespace ? `${s.subject.namespace}/` : ''}${s.subject.name}${s.subject.withOwned ? ' and what it owns' : ''}` : '';
  // The filter the host holds wins, unless the user is typing in it.
  if (document.activeElement !== text) text.value = s.filter.text;
  warningsOnly.checked = s.filter.warningsOnly;
  const options = ['', ...s.namespaces];
  if (s.filter.namespace && !options.includes(s.filter.namespace)) options.push(s.filter.namespace);
  namespace.replaceChildren(...options.map((ns) => new Option(ns || 'All namespaces', ns, false, ns === s.filter.namespace)));
  const hadFocus = body.contains(document.activeElement);
  body.replaceChildren(...s.rows.flatMap(rowElements));
  const rows = focusable();
  const active = rows.find((r) => r.dataset.key === activeKey) ?? rows[0];
  for (const r of rows) r.tabIndex = r === active ? 0 : -1;
  if (hadFocus) active?.focus();
}

function rowElements(row: EventsRowView): HTMLTableRowElement[] {
  if (row.kind === 'section') {
    const tr = cellRow([row.label], 'section');
    tr.dataset.key = `section:${row.label}`;
    tr.cells[0].colSpan = 4;
    tr.cells[0].setAttribute('role', 'rowheader');
    return [tr];
  }
  if (row.kind === 'gap') {
    const tr = cellRow([row.text], 'gap');
    tr.dataset.key = `gap:${row.text}`;
    tr.cells[0].colSpan = 4;
    tr.title = 'The events watch was not delivering here: events may have happened that this view did not see.';
    return [tr];
  }
  const open = expanded.has(row.key);
  const tr = cellRow([row.object, row.warnings > 0 ? `${row.warnings} warning${row.warnings === 1 ? '' : 's'}` : '', `×${row.count}`, row.lastSeen], row.warnings > 0 ? 'group warning' : 'group');
  tr.dataset.key = row.key;
  tr.setAttribute('aria-expanded', String(open));
  tr.title = row.latest;
  const toggle = () => {
    if (expanded.has(row.key)) expanded.delete(row.key);
    else expanded.add(row.key);
    activeKey = row.key;
    if (last) render(last);
    (body.querySelector(`tr[data-key="${CSS.escape(row.key)}"]`) as HTMLElement | null)?.focus();
  };
  tr.addEventListener('click', toggle);
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      toggle();
    }
  });
  if (!open) return [tr];
  const children = row.events.map((ev) => {
    const child = cellRow([`${ev.type} ${ev.reason}${ev.deleted ? ' (expired on the server, kept here)' : ''}`, ev.message, `×${ev.count}`, `${ev.lastSeen}${ev.reporter ? ` · ${ev.reporter}` : ''}`], ev.type === 'Warning' ? 'event warning' : 'event');
    child.dataset.parent = row.key;
    child.dataset.key = `${row.key}#${ev.reason}#${ev.lastSeen}#${ev.message.slice(0, 40)}`;
    return child;
  });
  return [tr, ...children];
}

function cellRow(cells: string[], className: string): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = className;
  tr.dataset.kind = className.split(' ')[0];
  tr.setAttribute('role', 'row');
  for (const c of cells) {
    const td = document.createElement('td');
    td.setAttribute('role', 'gridcell');
    td.textContent = c;
    tr.append(td);
  }
  tr.addEventListener('focus', () => (activeKey = tr.dataset.key));
  return tr;
}

function focusable(): HTMLTableRowElement[] {
  return [...body.querySelectorAll('tr')] as HTMLTableRowElement[];
}

body.addEventListener('keydown', (e) => {
  const rows = focusable();
  const i = rows.indexOf(document.activeElement as HTMLTableRowElement);
  if (i < 0) return;
  const next = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : undefined;
  if (next === undefined || next < 0 || next >= rows.length) return;
  e.preventDefault();
  rows[i].tabIndex = -1;
  rows[next].tabIndex = 0;
  rows[next].focus();
});

post({ type: 'ready' });
