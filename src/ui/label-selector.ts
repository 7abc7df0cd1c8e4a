/**
 * Client-side check of a Kubernetes label selector, so that a typo is explained where it is
 * typed instead of as a 400 from every watch. Accepts what the API server accepts:
 * `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, comma-separated.
 */
const KEY = String.raw`(?:[a-z0-9A-Z](?:[-a-z0-9A-Z_.]{0,251}[a-z0-9A-Z])?\/)?[a-z0-9A-Z](?:[-a-z0-9A-Z_.]{0,61}[a-z0-9A-Z])?`;
const VALUE = String.raw`(?:[a-z0-9A-Z](?:[-a-z0-9A-Z_.]{0,61}[a-z0-9A-Z])?)?`;
const REQUIREMENT = new RegExp(
  String.raw`^(?:!\s*${KEY}|${KEY}\s*(?:(?:==|=|!=)\s*${VALUE}|\s(?:in|notin)\s*\(\s*${VALUE}(?:\s*,\s*${VALUE})*\s*\))?)$`,
);

/** Returns undefined for a valid selector (or an empty one), else a one-line explanation. */
export function labelSelectorProblem(selector: string): string | undefined {
  const s = selector.trim();
  if (s === '') return undefined;
  for (const part of splitRequirements(s)) {
    const req = part.trim();
    if (req === '') return 'empty requirement: remove the extra comma';
    if (!REQUIREMENT.test(req)) return `"${req}" is not a valid requirement (use key=value, key!=value, key in (a,b), key notin (a,b), key or !key)`;
  }
  return undefined;
}

/** Splits on commas that are not inside parentheses. */
export function splitRequirements(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}
