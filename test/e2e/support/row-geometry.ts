/**
 * Where the parts of tree rows end on screen, against the edge that clips them: the tests of what
 * a narrow side bar cuts (DOM ranges over the label and the description, measured in the page).
 */
import type { Locator } from 'playwright-core';

/** One rendered row: its texts, and the right edge (px) of each ` · `-separated field of its label and description, cumulative. */
export interface RowFields {
  index: number;
  label: string;
  description: string;
  /** Right edge of the label's first field, first two fields, …: `ready · svc/web 80 → …` gives [right of `ready`, right of the whole]. */
  labelFieldRights: number[];
  /** Likewise for the description: `watching · 6 · rv 48213` gives [right of `watching`, of `watching · 6`, of the whole]. */
  descriptionFieldRights: number[];
  /** Where the row's text is clipped: the label container's or the list's right edge, whichever is nearer. */
  clipRight: number;
}

/**
 * VS Code ends a description that goes past the edge with an ellipsis, drawn over the last
 * characters that fit: a field within this many pixels of the edge is hidden by it.
 */
export const ELLIPSIS_PX = 12;

/** Runs in the page on the tree's list (a string, so the test's compiler adds nothing to it). */
const MEASURE = `(list) => {
  const listRight = list.getBoundingClientRect().right;
  const fieldRights = (el) => {
    if (!el) return [];
    const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode();
    if (!text) return [];
    const content = text.textContent || '';
    const ends = [];
    let at = content.indexOf(' · ');
    while (at >= 0) { ends.push(at); at = content.indexOf(' · ', at + 3); }
    ends.push(content.length);
    return ends.map((end) => {
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, end);
      return range.getBoundingClientRect().right;
    });
  };
  return [...list.querySelectorAll('.monaco-list-row')].map((row) => {
    const name = row.querySelector('.label-name');
    const description = row.querySelector('.label-description');
    const container = row.querySelector('.monaco-icon-label-container');
    return {
      index: Number(row.getAttribute('data-index')),
      label: ((name && name.textContent) || '').replace(/\\u00a0/g, ' '),
      description: ((description && description.textContent) || '').replace(/\\u00a0/g, ' '),
      labelFieldRights: fieldRights(name),
      descriptionFieldRights: fieldRights(description),
      clipRight: Math.min(container ? container.getBoundingClientRect().right : listRight, listRight),
    };
  });
}`;

/** Every rendered row of the tree `list` with where its fields end. */
export async function measureRows(list: Locator): Promise<RowFields[]> {
  const measure = new Function('list', `return (${MEASURE})(list);`) as (list: unknown) => unknown;
  return (await list.evaluate(measure)) as RowFields[];
}

/**
 * Whether the first `fields` fields of the row's description are whole on screen: they end before
 * the clipping edge, and before VS Code's ellipsis when the description goes on past it.
 */
export function descriptionFieldsShown(row: RowFields, fields: number): boolean {
  const rights = row.descriptionFieldRights;
  if (rights.length < fields) return false;
  const overflows = rights[rights.length - 1] > row.clipRight + 0.5;
  return rights[fields - 1] <= (overflows ? row.clipRight - ELLIPSIS_PX : row.clipRight + 0.5);
}

/** Whether the first `fields` fields of the row's label are whole on screen (VS Code ends a cut label with an ellipsis too). */
export function labelFieldsShown(row: RowFields, fields: number): boolean {
  const rights = row.labelFieldRights;
  if (rights.length < fields) return false;
  const overflows = rights[rights.length - 1] > row.clipRight + 0.5;
  return rights[fields - 1] <= (overflows ? row.clipRight - ELLIPSIS_PX : row.clipRight + 0.5);
}
