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
});
