import { parseDocument } from 'yaml';
import { stringifyExactJson } from '../base';
import type { MergeConflict } from './three-way-merge';

/**
 * The three texts VS Code's merge editor is given (where the edit started, the edit, the server),
 * shaped so that its line-by-line merge cannot undo a conflict the three-way merge found in a
 * whole list (W05: both sides reordered it, a key twice, an item that cannot be placed).
 *
 * Line by line, a list reordered on both sides looks like non-overlapping insertions plus the
 * same deletion on both sides: the merge editor merges them into a list with an item twice and
 * says "0 Conflicts Remaining". Written on one line (a JSON flow sequence, which is YAML) in all
 * three texts, the list is one line both sides changed differently: one conflict the user must
 * decide, as the three-way merge said.
 * Invariant: texts without such a conflict, or whose YAML does not parse, come back unchanged;
 * the rewritten texts parse to the same objects as before.
 */
export interface MergeViewTexts {
  base: string;
  ours: string;
  theirs: string;
}

const PLACEHOLDER = (i: number) => `__kube_watch_conflicting_list_${i}__`;

/** `texts` with each whole list a conflict names written on one line in each of them. */
export function conflictingListsOnOneLine(texts: MergeViewTexts, conflicts: readonly MergeConflict[]): MergeViewTexts {
  const lists = conflicts.filter((c) => c.reason !== undefined && [c.base, c.ours, c.theirs].some(Array.isArray));
  if (lists.length === 0) return texts;
  const out = { base: oneLine(texts.base, lists, 'base'), ours: oneLine(texts.ours, lists, 'ours'), theirs: oneLine(texts.theirs, lists, 'theirs') };
  // All three or none: a list on one line in one text only would make the whole list a change there.
  return out.base && out.ours && out.theirs ? { base: out.base, ours: out.ours, theirs: out.theirs } : texts;
}

function oneLine(text: string, lists: readonly MergeConflict[], side: 'base' | 'ours' | 'theirs'): string | undefined {
  const doc = parseDocument(text, { intAsBigInt: true });
  if (doc.errors.length > 0) return undefined;
  const values: unknown[] = [];
  for (const [i, c] of lists.entries()) {
    const path = [...c.path];
    if (!Array.isArray(c[side]) || !doc.hasIn(path)) continue;
    doc.setIn(path, PLACEHOLDER(i));
    values[i] = c[side];
  }
  let rendered = doc.toString({ lineWidth: 0 });
  // JSON on one line is YAML; integers beyond 2^53 written digit for digit.
  for (const [i, value] of values.entries()) if (value !== undefined) rendered = rendered.replace(PLACEHOLDER(i), stringifyExactJson(value));
  return rendered;
}
