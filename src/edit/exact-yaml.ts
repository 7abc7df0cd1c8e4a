import { CORE_SCHEMA, DUMP_SCHEMA, NOT_RESOLVED, defineScalarTag, type Schema, type ScalarTagDefinition } from 'js-yaml';
import { unsafeInteger } from '../base/exact-json';

/**
 * The YAML of an edit, integers exact (W11): js-yaml's schemas (written with its dump schema, which
 * quotes what a YAML 1.1 reader such as kubectl's would take for another type: `'yes'`, `'1_000'`;
 * read with its core schema), their int tag wrapped so that integers a double cannot hold are read
 * as BigInts and BigInts are written as their digits. The JSON side is base/exact-json.ts.
 */

const INT = 'tag:yaml.org,2002:int';

/** `schema`'s own int tag, with integers beyond 2^53 read as BigInts and BigInts written as digits. */
function exactIntOf(schema: Schema): ScalarTagDefinition<number | bigint> {
  const base = schema.tags.find((t): t is ScalarTagDefinition => t.tagName === INT && t.nodeKind === 'scalar');
  if (!base) throw new Error(`js-yaml's schema has no ${INT} tag`);
  return defineScalarTag<number | bigint>(INT, {
    implicit: base.implicit,
    implicitFirstChars: base.implicitFirstChars,
    resolve: (source, isExplicit, tagName) => {
      const value = base.resolve(source, isExplicit, tagName);
      if (value === NOT_RESOLVED || typeof value !== 'number') return value as number | typeof NOT_RESOLVED;
      const digits = source.replace(/^\+/, '');
      return unsafeInteger(digits, value) ? BigInt(digits) : value;
    },
    identify: (data: unknown) => typeof data === 'bigint' || base.identify(data),
    represent: (data: unknown) => (typeof data === 'bigint' ? data.toString() : base.represent(data)),
  });
}

/** The schema an edit's YAML is written with: js-yaml's dump schema, integers exact. */
export const EXACT_DUMP_SCHEMA: Schema = DUMP_SCHEMA.withTags(exactIntOf(DUMP_SCHEMA));

/** The schema an edit's YAML is read with: js-yaml's core schema (its loader's default), integers exact. */
export const EXACT_LOAD_SCHEMA: Schema = CORE_SCHEMA.withTags(exactIntOf(CORE_SCHEMA));
