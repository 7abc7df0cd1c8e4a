import assert from 'node:assert/strict';
import { ListStreamParser, ListTooLargeError } from '../../../src/connection/wire/list-stream-parser';

const body = JSON.stringify({
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', note: 'a "quoted" } ] { [ string' },
  items: [
    { metadata: { name: 'a', resourceVersion: '1' }, data: { k: '}{][ "\\\\' } },
    { metadata: { name: 'b', resourceVersion: '2' }, data: { nested: { deep: [1, { x: 2 }] } } },
    { metadata: { name: 'ü', resourceVersion: '3' } },
  ],
  trailing: { items: [{ notAnItem: true }] },
});

function parse(chunks: Buffer[], max?: number): { items: unknown[]; envelope: unknown } {
  const items: unknown[] = [];
  const p = new ListStreamParser((b, s, e) => items.push(JSON.parse(b.toString('utf8', s, e))), max);
  for (const c of chunks) p.push(c);
  return { items, envelope: JSON.parse(p.end()) };
}

describe('list stream parser: the items of an unpaginated list one by one', () => {
  it('gives every item and the envelope without items, whatever the chunk boundaries', () => {
    const whole = Buffer.from(body);
    const expected = JSON.parse(body) as { items: unknown[] };
    for (let cut = 1; cut < whole.length; cut++) {
      const { items, envelope } = parse([whole.subarray(0, cut), whole.subarray(cut)]);
      assert.deepEqual(items, expected.items, `cut at ${cut}`);
      assert.deepEqual(envelope, { ...expected, items: [] }, `cut at ${cut}`);
    }
    const bytes = [...whole].map((b) => Buffer.from([b]));
    assert.deepEqual(parse(bytes).items, expected.items, 'one byte per chunk');
  });

  it('fails an item above the byte bound', () => {
    const big = Buffer.from(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [{ metadata: { name: 'x' }, data: { v: 'y'.repeat(2000) } }] }));
    assert.throws(() => parse([big], 1000), ListTooLargeError);
    assert.equal(parse([big], 4000).items.length, 1);
  });
});
