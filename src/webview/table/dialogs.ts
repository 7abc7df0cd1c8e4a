/**
 * The table's small dialogs: the key help (`?`), the column chooser (show, hide, move), and
 * the `:` line that goes to another kind. Each is a plain element shown over the grid, closed
 * by Escape, and gives the focus back to the grid.
 */
import type { ColumnView } from '../../ui/table/table-protocol';

/** The keys, as the help lists them. */
export const KEYS: ReadonlyArray<[string, string]> = [
  ['↑ ↓  j k', 'previous / next row'],
  ['← →', 'previous / next column'],
  ['PgUp PgDn  Home End', 'a page up or down, first or last row'],
  ['/', 'filter: text, /regex/, -l app=web, ! to negate'],
  [':', 'go to a kind (:pods, :deploy, :svc, a CRD)'],
  ['Enter', 'describe'],
  ['y', 'YAML'],
  ['e', 'edit'],
  ['l', 'logs'],
  ['s', 'shell'],
  ['f', 'port-forward'],
  ['Ctrl+D', 'delete (asks first)'],
  ['Shift+O', 'sort by the focused column (again: reverse, again: kubectl order)'],
  ['Alt+← Alt+→', 'move the focused column'],
  ['Shift+H', 'hide the focused column'],
  ['c', 'choose columns'],
  ['Shift+F10', 'the row’s actions'],
  ['?', 'this help'],
  ['Esc', 'close a dialog, clear the filter'],
];

/** Fills the help dialog once. */
export function fillHelp(box: HTMLElement): void {
  const list = document.createElement('dl');
  for (const [key, what] of KEYS) {
    const dt = document.createElement('dt');
    dt.textContent = key;
    const dd = document.createElement('dd');
    dd.textContent = what;
    list.append(dt, dd);
  }
  const title = document.createElement('h2');
  title.textContent = 'Keys';
  box.replaceChildren(title, list);
}

/**
 * Fills the column chooser: a checkbox per column (checked: shown) and buttons to move it.
 * `change` gets the new order and hidden ids; NAME cannot be hidden.
 */
export function fillColumns(box: HTMLElement, columns: readonly ColumnView[], change: (order: string[], hidden: string[]) => void): void {
  const title = document.createElement('h2');
  title.textContent = 'Columns';
  const list = document.createElement('ul');
  const order = columns.map((c) => c.id);
  const hidden = new Set(columns.filter((c) => c.hidden).map((c) => c.id));
  const send = () => change([...order], [...hidden]);
  columns.forEach((c, i) => {
    const item = document.createElement('li');
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = !c.hidden;
    box.disabled = c.id === 'name';
    box.dataset.column = c.id;
    box.addEventListener('change', () => {
      if (box.checked) hidden.delete(c.id);
      else hidden.add(c.id);
      send();
    });
    label.append(box, document.createTextNode(` ${c.header}`));
    const up = moveButton('↑', `Move ${c.header} left`, i > 0, () => {
      order.splice(i - 1, 0, order.splice(i, 1)[0]);
      send();
    });
    const down = moveButton('↓', `Move ${c.header} right`, i < columns.length - 1, () => {
      order.splice(i + 1, 0, order.splice(i, 1)[0]);
      send();
    });
    item.append(label, up, down);
    list.append(item);
  });
  const done = document.createElement('button');
  done.textContent = 'Done';
  done.className = 'close';
  box.replaceChildren(title, list, done);
}

function moveButton(text: string, label: string, enabled: boolean, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.textContent = text;
  b.title = label;
  b.setAttribute('aria-label', label);
  b.disabled = !enabled;
  b.addEventListener('click', onClick);
  return b;
}

/** Fills the `:` line's suggestions. */
export function fillKinds(list: HTMLDataListElement, kinds: readonly string[]): void {
  list.replaceChildren(
    ...kinds.map((k) => {
      const o = document.createElement('option');
      o.value = k;
      return o;
    }),
  );
}
