/**
 * What the user searches or filters a log for: plain text (case-insensitive), or a regular
 * expression written between slashes (`/time(out|d out)/i`). Pure: parsing, matching and the
 * ranges to highlight.
 */

/** A parsed query. `source` is what the user typed, kept to show and to edit again. */
export interface LogQuery {
  readonly source: string;
  readonly regex: boolean;
  /** Global (`g`): `matchRanges` walks every occurrence. Never matched with `test` (lastIndex). */
  readonly pattern: RegExp;
}

/** The answer to what was typed: a query, nothing (empty: clear it), or why it is not valid. */
export type ParsedQuery = { readonly query: LogQuery | undefined; readonly error?: undefined } | { readonly query?: undefined; readonly error: string };

const SLASHED = /^\/(.*)\/([a-z]*)$/s;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `input` as a query: empty clears it; `/pattern/flags` is a regular expression (flags among
 * `i`, `m`, `s`, `u`); anything else is plain text matched case-insensitively. A bad regular
 * expression is a message in words, never a throw.
 */
export function parseLogQuery(input: string): ParsedQuery {
  if (input === '') return { query: undefined };
  const slashed = SLASHED.exec(input);
  if (!slashed) return { query: { source: input, regex: false, pattern: new RegExp(escapeRegExp(input), 'gi') } };
  const [, body, flags] = slashed;
  if (body === '') return { error: 'The regular expression between the slashes is empty: type some text, or a pattern such as /error|warn/.' };
  const bad = flags.replace(/[imsu]/g, '');
  if (bad !== '' || new Set(flags).size !== flags.length) return { error: `"${flags}" are not flags a log search takes: use any of i, m, s, u after the closing slash, as in /${body}/i.` };
  try {
    return { query: { source: input, regex: true, pattern: new RegExp(body, `${flags}g`) } };
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(err);
    return { error: `/${body}/ is not a valid regular expression: ${why}. Fix the pattern, or type it without the slashes to search for the text itself.` };
  }
}

/** The [start, end) ranges of `text` that `query` matches, in order, none empty. */
export function matchRanges(query: LogQuery, text: string): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  const re = query.pattern;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      if (re.lastIndex > text.length) break;
      continue;
    }
    out.push([m.index, m.index + m[0].length]);
  }
  re.lastIndex = 0;
  return out;
}

/** True when `query` matches `text` somewhere (an empty match counts: `/^/` keeps every line). */
export function matches(query: LogQuery, text: string): boolean {
  const re = query.pattern;
  re.lastIndex = 0;
  const found = re.exec(text) !== null;
  re.lastIndex = 0;
  return found;
}

/** How a query reads in the terminal's status: `"timeout"` or `/time(out)?/i`. */
export function queryText(query: LogQuery): string {
  return query.regex ? query.source : `"${query.source}"`;
}
