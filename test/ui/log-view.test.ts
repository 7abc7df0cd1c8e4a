import assert from 'node:assert/strict';
import { KeptLog, LogView, parseLogQuery, plainText, type LogEntry, type LogQuery } from '../../src/ui/logs';

const CLEAR = '\x1b[2J\x1b[3J\x1b[H';
const line = (text: string, timestamp?: string): LogEntry => ({ kind: 'line', text, timestamp });
const q = (input: string): LogQuery => {
  const parsed = parseLogQuery(input);
  assert.equal(parsed.error, undefined);
  return parsed.query!;
};
/** The rows a redraw shows, plain. */
const rowsOf = (bytes: string) => plainText(bytes.slice(bytes.lastIndexOf(CLEAR) + CLEAR.length)).split('\n');

describe('log terminal view model (src/ui/logs/log-view.ts)', () => {
  it('X13 search: every match highlighted in inverse, the shown one in black on yellow; n/N move newer/older and wrap; lines that arrive meanwhile wait below', () => {
    const view = new LogView({ screenLines: 100 });
    view.rows = 4;
    for (const t of ['boot', 'timeout one', 'ok', 'timeout two, timeout three', 'ok again']) view.append(line(t));

    // The newest match first (the last occurrence on the line).
    let screen = view.setSearch(q('timeout'));
    assert.deepEqual(view.searchStatus(), { matches: 3, current: 3 });
    assert.ok(screen.includes(' two, \x1b[30;43mtimeout\x1b[39;49m three'), JSON.stringify(screen));
    assert.ok(screen.includes('\x1b[7mtimeout\x1b[27m two'), 'the other match on the line in inverse');
    assert.ok(screen.includes('\x1b[7mtimeout\x1b[27m one'));
    assert.equal(rowsOf(screen).at(-1), ' match 3 of 3 · n next · N previous · Esc back to the live end ');

    screen = view.previous();
    assert.deepEqual(view.searchStatus(), { matches: 3, current: 2 });
    assert.ok(screen.includes('\x1b[30;43mtimeout\x1b[39;49m two'));
    view.previous();
    assert.deepEqual(view.searchStatus(), { matches: 3, current: 1 });
    view.previous();
    assert.deepEqual(view.searchStatus(), { matches: 3, current: 3 }, 'previous wraps to the newest');
    view.next();
    assert.deepEqual(view.searchStatus(), { matches: 3, current: 1 }, 'next wraps to the oldest');

    // Paused at a match: a new line is kept, not written, and counted as a match.
    assert.equal(view.append(line('timeout four')), '');
    assert.deepEqual(view.searchStatus(), { matches: 4, current: 1 });
    // The shown match sits mid-screen: the lines further below are said, not drawn.
    screen = view.next();
    assert.deepEqual(view.searchStatus(), { matches: 4, current: 2 });
    assert.deepEqual(rowsOf(screen).slice(-3), ['timeout two, timeout three', 'ok again', ' match 2 of 4 · n next · N previous · Esc back to the live end · 1 line below ']);
    // Back to the live end: everything, and new lines written as they come, highlighted.
    screen = view.live();
    assert.deepEqual(rowsOf(screen).filter((r) => !r.startsWith('──') && r !== ''), ['boot', 'timeout one', 'ok', 'timeout two, timeout three', 'ok again', 'timeout four']);
    assert.equal(view.append(line('a timeout')), 'a \x1b[7mtimeout\x1b[27m\r\n');
    assert.equal(view.append(line('nothing')), 'nothing\r\n');
    // No search: back to plain lines.
    view.setSearch(undefined);
    assert.equal(view.append(line('timeout')), 'timeout\r\n');
    assert.equal(view.next(), '', 'next without a search does nothing');
  });

  it('X13 filter: only matching lines, as they arrive too; notes (gaps) always shown; text is case-insensitive, /regex/ as written; with a search, only what the filter shows is searched', () => {
    const view = new LogView({ screenLines: 100 });
    view.append(line('GET /a 200'));
    view.append(line('get /b 500'));
    view.append({ kind: 'note', bytes: '\x1b[2m── reconnected, 3 s gap ──\x1b[0m\r\n' });
    const screen = view.setFilter(q('GET'));
    assert.deepEqual(rowsOf(screen), ['── filter "GET": only matching lines are shown ──', 'GET /a 200', 'get /b 500', '── reconnected, 3 s gap ──']);
    assert.equal(view.append(line('POST /c 201')), '', 'hidden by the filter');
    assert.equal(view.append(line('GET /d 200')), 'GET /d 200\r\n');
    view.setFilter(q('/^GET/'));
    assert.equal(view.append(line('get /e 200')), '', 'a regex is case-sensitive unless /i');
    assert.equal(view.append(line('GET /f 200')), 'GET /f 200\r\n');
    view.setSearch(q('/ 200/'));
    assert.deepEqual(view.searchStatus().matches, 3, 'GET /a, GET /d and GET /f: the hidden ones are not searched');
    // A pattern that can match nothing at all keeps every line and highlights nothing.
    view.setSearch(undefined);
    view.setFilter(q('/x*/'));
    assert.equal(view.append(line('plain')), 'plain\r\n');
  });

  it('X13 a bad regular expression is a message in words, never a throw; plain text needs no escaping', () => {
    assert.match(parseLogQuery('/a(b/').error ?? '', /^\/a\(b\/ is not a valid regular expression: Unterminated group\. Fix the pattern, or type it without the slashes to search for the text itself\.$/);
    assert.match(parseLogQuery('/[z-a]/').error ?? '', /is not a valid regular expression: Range out of order in character class/);
    assert.match(parseLogQuery('/x/g').error ?? '', /^"g" are not flags a log search takes: use any of i, m, s, u/);
    assert.match(parseLogQuery('//').error ?? '', /empty/);
    assert.deepEqual(parseLogQuery(''), { query: undefined });
    const text = q('a(b [c]*');
    assert.equal(text.regex, false);
    const view = new LogView({ screenLines: 10 });
    view.setSearch(text);
    assert.equal(view.append(line('x A(B [C]* y')), 'x \x1b[7mA(B [C]*\x1b[27m y\r\n');
  });

  it('X13 timestamps: off by default; on, the user\'s time format before the text (after the prefix); a line without one keeps its column', () => {
    const view = new LogView({ screenLines: 10, timeFormat: { locale: 'en-US', timeZone: 'UTC', hourCycle: 'h23' } });
    view.append({ kind: 'line', text: 'hello', timestamp: '2026-01-02T10:00:00.123456789Z', source: { prefix: '[pod/p/app] ', colourIndex: 0 } });
    view.append(line('no time'));
    assert.deepEqual(rowsOf(view.redraw()), ['[pod/p/app] hello', 'no time']);
    assert.deepEqual(rowsOf(view.setTimestamps(true)), ['[pod/p/app] 2026-01-02 10:00:00.123 hello', `${'-'.padEnd(23)} no time`]);
    assert.equal(view.savedText(), '[pod/p/app] 2026-01-02T10:00:00.123456789Z hello\nno time\n');
  });

  it('memory is bounded: at most `capacity` lines kept, the oldest dropped; Save says how many were not kept; a redraw writes at most the screen lines', () => {
    const view = new LogView({ screenLines: 3, capacity: 5 });
    for (let i = 1; i <= 8; i++) view.append(line(`line ${i}`));
    assert.deepEqual(rowsOf(view.redraw()), ['line 6', 'line 7', 'line 8']);
    assert.equal(view.savedText(), '── the first 3 lines received are not kept (at most 5 are) ──\nline 4\nline 5\nline 6\nline 7\nline 8\n');
    const kept = new KeptLog<number>(2);
    assert.deepEqual([kept.push(1), kept.push(2), kept.push(3)], [0, 1, 2]);
    assert.deepEqual([...kept.entries()], [[1, 2], [2, 3]]);
    assert.equal(kept.get(0), undefined);
    kept.clear();
    assert.equal(kept.size, 0);
    assert.equal(kept.push(4), 3, 'sequence numbers go on after a clear');
    assert.throws(() => new KeptLog(0), /capacity must be a whole number of at least 1/);
  });
});
