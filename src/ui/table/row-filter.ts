import { labelSelectorProblem, splitRequirements } from '../label-selector';

/** What a filter reads of a row: the text of its cells and its labels. */
export interface FilterableRow {
  /** The cells' text joined by spaces (name included), lower-cased. */
  readonly text: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** A parsed filter: a predicate, or why the text is not one (in the user's words; the text is kept as typed). */
export type RowFilter = { readonly matches: (row: FilterableRow) => boolean; readonly problem?: undefined } | { readonly matches?: undefined; readonly problem: string };

const EVERYTHING: RowFilter = { matches: () => true };

/**
 * A filter as k9s reads it: plain text (case-insensitive, anywhere in the row), `/regex/` (with
 * flags, `/web-\d+/i`), `-l app=web,tier!=db` (a label selector, as the API server reads it), and
 * `!` before any of these for the rows that do not match. Empty text keeps every row.
 */
export function parseRowFilter(input: string): RowFilter {
  let text = input.trim();
  if (text === '') return EVERYTHING;
  const negated = text.startsWith('!');
  if (negated) text = text.slice(1).trim();
  const inner = parsePositive(text);
  if (!inner.matches || !negated) return inner;
  const positive = inner.matches;
  return { matches: (row) => !positive(row) };
}

function parsePositive(text: string): RowFilter {
  if (text === '') return EVERYTHING;
  if (text === '-l' || text.startsWith('-l ')) return labelFilter(text.slice(2).trim());
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (regex && regex[1] !== '') {
    let re: RegExp;
    try {
      re = new RegExp(regex[1], regex[2].includes('i') ? regex[2] : `${regex[2]}i`);
    } catch (e) {
      return { problem: `"${regex[1]}" is not a regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}` };
    }
    return { matches: (row) => { re.lastIndex = 0; return re.test(row.text); } };
  }
  const needle = text.toLowerCase();
  return { matches: (row) => row.text.includes(needle) };
}

/** One requirement of a label selector. */
type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

function labelFilter(selector: string): RowFilter {
  if (selector === '') return { problem: 'type a label selector after -l, such as -l app=web' };
  const problem = labelSelectorProblem(selector);
  if (problem) return { problem };
  const requirements = splitRequirements(selector).map((r) => requirement(r.trim()));
  return { matches: (row) => requirements.every((r) => r(row.labels)) };
}

/** A requirement the selector check accepted: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. */
function requirement(req: string): Requirement {
  const has = (labels: Readonly<Record<string, string>>, key: string) => Object.hasOwn(labels, key);
  if (req.startsWith('!')) {
    const key = req.slice(1).trim();
    return (labels) => !has(labels, key);
  }
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(req);
  if (set) {
    const [, key, op, list] = set;
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in' ? (labels) => has(labels, key) && values.has(labels[key]) : (labels) => !has(labels, key) || !values.has(labels[key]);
  }
  const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(req);
  if (eq) {
    const [, key, op, value] = eq;
    return op === '!=' ? (labels) => labels[key] !== value : (labels) => has(labels, key) && labels[key] === value;
  }
  return (labels) => has(labels, req);
}
