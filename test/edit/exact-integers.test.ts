import assert from 'node:assert/strict';
import { dump, load } from 'js-yaml';
import { parseExactJson, sameNumber, stringifyExactJson } from '../../src/base/exact-json';
import { EXACT_DUMP_SCHEMA, EXACT_LOAD_SCHEMA } from '../../src/edit/exact-yaml';

describe('edit: integers beyond 2^53 kept exact (W11)', () => {
  const text = '{"spec":{"maxBytes":9223372036854775807,"min":-9223372036854775808,"replicas":3,"ratio":0.5,"big":1e21,"asString":"18446744073709551615"}}';

  it('W11 JSON read with its int64 values as BigInts, every other value as JSON.parse gives it, and written back digit for digit', () => {
    const obj = parseExactJson<{ spec: Record<string, unknown> }>(text);
    assert.deepEqual(obj.spec, { maxBytes: 9223372036854775807n, min: -9223372036854775808n, replicas: 3, ratio: 0.5, big: 1e21, asString: '18446744073709551615' });
    assert.equal(stringifyExactJson(obj), '{"spec":{"maxBytes":9223372036854775807,"min":-9223372036854775808,"replicas":3,"ratio":0.5,"big":1e+21,"asString":"18446744073709551615"}}');
    assert.notEqual(JSON.stringify(JSON.parse(text)).includes('9223372036854775807'), true, 'JSON.parse alone rounds it (the reason for all this)');
  });

  it('W11 the edit\'s YAML shows them digit for digit and reads them back as BigInts; small integers stay numbers', () => {
    const obj = parseExactJson(text);
    const yaml = dump(obj, { schema: EXACT_DUMP_SCHEMA, noRefs: true, lineWidth: -1 });
    assert.match(yaml, /maxBytes: 9223372036854775807\n/);
    assert.match(yaml, /min: -9223372036854775808\n/);
    assert.match(yaml, /asString: '18446744073709551615'\n/);
    const back = load(yaml.replace('9223372036854775807', '9223372036854775806'), { schema: EXACT_LOAD_SCHEMA }) as { spec: Record<string, unknown> };
    assert.equal(back.spec.maxBytes, 9223372036854775806n, 'an edit of one digit is kept');
    assert.equal(back.spec.replicas, 3);
    assert.equal(typeof back.spec.replicas, 'number');
    assert.equal((load('n: +12345678901234567891', { schema: EXACT_LOAD_SCHEMA }) as { n: unknown }).n, 12345678901234567891n);
    assert.equal(dump({ a: 'yes', b: '1_000', c: '0o17' }, { schema: EXACT_DUMP_SCHEMA }), "a: 'yes'\nb: '1_000'\nc: '0o17'\n", 'strings a YAML 1.1 reader (kubectl) would read as other types stay quoted');
  });

  it('W11 a watched copy (parsed by JSON.parse, rounded) is the same number as the exact one, never a change', () => {
    const exact = 9223372036854775807n;
    const watched = (JSON.parse('{"v":9223372036854775807}') as { v: number }).v;
    assert.equal(sameNumber(exact, watched), true);
    assert.equal(sameNumber(watched, exact), true);
    assert.equal(sameNumber(9223372036854775806n, 9223372036854775000), false);
    assert.equal(sameNumber(3, 3), false, 'plain numbers are compared as plain numbers elsewhere');
  });
});
