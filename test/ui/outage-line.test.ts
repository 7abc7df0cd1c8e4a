import assert from 'node:assert/strict';
import { OutageLine } from '../../src/ui/logs';

/** The screen an xterm would show for the bytes written: `\r` back to the line start, `ESC[2K` erases it, CRLF ends it. */
function screen(bytes: string): string[] {
  const lines: string[] = [''];
  const plain = bytes.replace(/\x1b\[[0-9;]*m/g, '');
  for (let i = 0; i < plain.length; i++) {
    if (plain.startsWith('\x1b[2K', i)) {
      lines[lines.length - 1] = '';
      i += 3;
    } else if (plain[i] === '\r') {
      if (plain[i + 1] === '\n') {
        lines.push('');
        i++;
      }
    } else lines[lines.length - 1] += plain[i];
  }
  return lines;
}

describe('log terminal outage line (V30)', () => {
  it('V30 ten failed attempts of two streams are one line with a countdown, rewritten in place; a new kind ends it; reading again removes it', () => {
    const line = new OutageLine();
    let out = '';
    let now = 0;
    for (let attempt = 0; attempt < 5; attempt++) {
      out += line.failed('a', 'connect ECONNREFUSED 127.0.0.1:6443', now + 3000, now);
      out += line.failed('b', 'connect ECONNREFUSED 127.0.0.1:6443', now + 3000, now);
      now += 1000;
      out += line.redraw(now);
      now += 2000;
    }
    assert.deepEqual(screen(out), ['── cannot read the log (2 streams): connect ECONNREFUSED 127.0.0.1:6443 · 10 failed attempts · next try in 2 s ──']);
    // A log line of another stream goes above the open line, which is drawn again under it.
    out += line.clear() + 'a line\r\n' + line.redraw(now);
    assert.deepEqual(screen(out), ['a line', '── cannot read the log (2 streams): connect ECONNREFUSED 127.0.0.1:6443 · 10 failed attempts · trying again… ──']);
    // Another kind: the first line stays, with how many attempts over how long; a new one opens.
    out += line.failed('a', 'the server answered 503', now + 5000, now);
    assert.deepEqual(screen(out).slice(1), [
      '── cannot read the log: connect ECONNREFUSED 127.0.0.1:6443 · 10 failed attempts over 15 s ──',
      '── cannot read the log: the server answered 503 · 1 failed attempt · next try in 5 s ──',
    ]);
    // Both streams read again: the open line ends, the next marker follows it.
    out += line.recovered('a', now + 5000);
    assert.equal(line.active, true, 'b still fails');
    out += line.recovered('b', now + 5000) + line.clear() + '── reconnected, 20 s gap ──\r\n';
    assert.equal(line.active, false);
    assert.deepEqual(screen(out).slice(1), [
      '── cannot read the log: connect ECONNREFUSED 127.0.0.1:6443 · 10 failed attempts over 15 s ──',
      '── cannot read the log: the server answered 503 · 1 failed attempt over 5 s ──',
      '── reconnected, 20 s gap ──',
      '',
    ]);
  });

  it('V30 the open line never wraps: cut to the terminal\'s width, the reason giving way to the count and countdown', () => {
    const line = new OutageLine();
    line.columns = 60;
    const out = line.failed('a', 'connect ECONNREFUSED 127.0.0.1:6443 (a long reason that goes on and on)', 4000, 0);
    const [shown] = screen(out);
    assert.ok(shown.length <= 59, `${shown.length}: ${shown}`);
    assert.match(shown, /^── cannot read the.*… · 1 failed attempt · next try in 4 s ──$/);
  });
});

