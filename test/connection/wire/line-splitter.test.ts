import assert from 'node:assert/strict';
import { LineSplitter, MessageTooLargeError } from '../../../src/connection/wire/line-splitter';

describe('LineSplitter', () => {
  it('splits lines inside and across chunks, skipping blank lines and CRs', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    s.push(Buffer.from('{"a":1}\n{"b"'));
    s.push(Buffer.from(':2}\r\n\n{"c'));
    s.push(Buffer.from('":"é'));
    s.push(Buffer.from('"}\n{"d":4}'));
    s.end();
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":"é"}', '{"d":4}']);
  });

  it('keeps multi-byte characters split between chunks intact', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('"ü€"\n');
    for (let i = 0; i < bytes.length; i++) s.push(bytes.subarray(i, i + 1));
    assert.deepEqual(lines, ['"ü€"']);
  });

  it('fails a line longer than its bound instead of buffering it, inside one chunk or across chunks', () => {
    const lines: string[] = [];
    const s = LineSplitter.bytes((b, st, en) => lines.push(b.toString('utf8', st, en)), 8);
    s.push(Buffer.from('12345678\n'));
    assert.throws(() => s.push(Buffer.from('123456789\n')), MessageTooLargeError);
    const t = LineSplitter.bytes(() => undefined, 8);
    t.push(Buffer.from('12345'));
    assert.throws(() => t.push(Buffer.from('6789')), (e: unknown) => e instanceof MessageTooLargeError && /larger than 8 bytes/.test(e.message));
    assert.deepEqual(lines, ['12345678']);
  });

  it('joins lines of every size across random chunk boundaries, reusing its buffer, longer than it keeps too', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Sizes from a few bytes to past the 1 MiB the splitter keeps, in no order: a short line after a long one must not carry its tail.
    const sizes = [3, 5000, 12, 70_000, 1, 1_200_000, 40, 4096, 4097, 900_000, 7, 2_000_000, 10];
    const expected = sizes.map((n, i) => `${i}:` + 'xü€'.repeat(Math.ceil(n / 3)).slice(0, n));
    const stream = Buffer.from(expected.join('\n') + '\n');
    const got: string[] = [];
    const s = LineSplitter.bytes((b, st, en) => got.push(b.toString('utf8', st, en)));
    for (let at = 0; at < stream.length; ) {
      const n = 1 + Math.floor(rnd() * 9000);
      s.push(stream.subarray(at, at + n));
      at += n;
    }
    s.end();
    assert.deepEqual(got.map((l) => l.length), expected.map((l) => l.length));
    assert.deepEqual(got, expected);
  });
});
