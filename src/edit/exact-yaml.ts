import { CORE_SCHEMA, NOT_RESOLVED, defineScalarTag, intCoreTag, type Schema } from 'js-yaml';
import { unsafeInteger } from '../base/exact-json';

/**
 * The YAML of an edit, integers exact (W11): js-yaml's core schema, with integers a double cannot
 * hold read as BigInts and BigInts written as their digits (the JSON side is base/exact-json.ts).
 */

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
