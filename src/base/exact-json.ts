/**
 * Integers beyond 2^53 (a CRD's int64 fields) kept exact where an edit reads and writes them
 * (W11): JSON text read with each such integer as a BigInt (V8's `JSON.parse` source access), and
 * JSON written with their digits as they are (`JSON.rawJSON`). Every other value is what
 * `JSON.parse` gives. Invariant: an integer that fits a double stays a number, so nothing else
 * changes shape; only callers that ask for exact integers ever see a BigInt.
 */

/** An integer's text that a double cannot hold exactly. */
export function unsafeInteger(text: string, value: number): boolean {
  return !Number.isSafeInteger(value) && /^-?\d+$/.test(text);
}

/** JSON text as an object, its unsafe integers as BigInts. */
export function parseExactJson<T = unknown>(text: string): T {
  // The reviver's third argument (the value's source text) is V8's; Node 22 and 24 have it.
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined && unsafeInteger(context.source, value) ? BigInt(context.source) : value,
  ) as T;
}

/** `JSON.rawJSON` (V8 11.4 on; Node 22 and 24): TypeScript's lib does not declare it yet. */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** JSON text of a value, BigInts written as their digits. */
export function stringifyExactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? rawJSON(v.toString()) : v));
}

/**
 * Whether two values are the same number where one of them went through a double (the watch
 * delivers objects parsed by `JSON.parse`): a BigInt and the double nearest to it count as equal,
 * so a watched copy never looks like a change of a field nobody touched.
 */
export function sameNumber(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  return false;
}

/** Whether a value parsed by `JSON.parse` holds an integer a double could not hold (so it was rounded). */
export function hasInexactInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (Array.isArray(value)) return value.some(hasInexactInteger);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasInexactInteger);
  return false;
}
