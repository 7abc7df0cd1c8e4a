import { CORE_SCHEMA, NOT_RESOLVED, defineScalarTag, intCoreTag, type Schema } from 'js-yaml';

/**
 * Integers beyond 2^53 (a CRD's int64 fields, some annotations' numbers) kept exact through an
 * edit (W11): JSON text read with each such integer as a BigInt (V8's `JSON.parse` source access),
 * YAML that shows and reads them digit for digit, and JSON written with their digits as they are
 * (`JSON.rawJSON`). Every other value is what `JSON.parse` and js-yaml's core schema give.
 * Invariant: an integer that fits a double stays a number, so nothing else changes shape.
 */

/** An integer's text that a double cannot hold exactly. */
function unsafeInteger(text: string, value: number): boolean {
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

/** js-yaml's core int tag, with integers a double cannot hold read as BigInts and BigInts written as digits. */
const exactIntTag = defineScalarTag<number | bigint>('tag:yaml.org,2002:int', {
  implicit: true,
  implicitFirstChars: ['-', '+', ...'0123456789'],
  resolve: (source, isExplicit, tagName) => {
    const value = intCoreTag.resolve(source, isExplicit, tagName);
    if (value === NOT_RESOLVED || typeof value !== 'number') return value;
    return unsafeInteger(source.replace(/^\+/, ''), value) ? BigInt(source.replace(/^\+/, '')) : value;
  },
  identify: (data: unknown) => typeof data === 'bigint' || intCoreTag.identify(data),
  represent: (data: unknown) => (typeof data === 'bigint' ? data.toString() : intCoreTag.represent(data)),
});

/** The schema an edit's YAML is written and read with: js-yaml's core schema, integers exact. */
export const EXACT_YAML_SCHEMA: Schema = CORE_SCHEMA.withTags(exactIntTag);

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
