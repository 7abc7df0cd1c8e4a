import assert from 'node:assert/strict';
import { compareKeys, durationSeconds, parseRowFilter, quantityValue, sortKeyOf, type FilterableRow } from '../../../src/ui/table';

const row = (text: string, labels: Record<string, string> = {}): FilterableRow => ({ text: text.toLowerCase(), labels });
const sorted = (cells: string[], kind: 'auto' | 'duration' = 'auto') =>
  [...cells].sort((a, b) => {
    const x = sortKeyOf(a, kind);
    const y = sortKeyOf(b, kind);
    if (x === undefined) return y === undefined ? 0 : 1;
    if (y === undefined) return -1;
    return compareKeys(x, y);
  });

describe('table sort keys', () => {
  it('reads durations, quantities, restarts and READY as numbers', () => {
    assert.equal(durationSeconds('3d5h'), 3 * 86400 + 5 * 3600);
    assert.equal(durationSeconds('5m30s'), 330);
    assert.equal(quantityValue('128Mi'), 128 * 2 ** 20);
    assert.equal(quantityValue('250m'), 0.25);
    assert.equal(sortKeyOf('3 (5m ago)', 'auto'), 3);
    assert.equal(sortKeyOf('<none>', 'auto'), undefined);
  });

  it('orders numbers by value, not as text', () => {
    assert.deepEqual(sorted(['10', '9', '100', '2 (1h ago)']), ['2 (1h ago)', '9', '10', '100']);
  });

  it('orders durations by length of time, AGE as minutes not milli-units', () => {
    assert.deepEqual(sorted(['2d', '45s', '5m', '3h20m', '1y'], 'duration'), ['45s', '5m', '3h20m', '2d', '1y']);
  });

  it('orders quantities across suffixes, empty cells last', () => {
    assert.deepEqual(sorted(['1Gi', '<none>', '512Mi', '2', '250m']), ['250m', '2', '512Mi', '1Gi', '<none>']);
  });

  it('orders text naturally', () => {
    assert.deepEqual(sorted(['web-10', 'web-2', 'api']), ['api', 'web-2', 'web-10']);
  });
});

describe('table filter', () => {
  it('keeps every row for empty text', () => {
    assert.equal(parseRowFilter('  ').matches?.(row('x')), true);
  });

  it('matches text anywhere, case-insensitively', () => {
    const f = parseRowFilter('CrashLoop');
    assert.equal(f.matches?.(row('web-1 0/1 CrashLoopBackOff')), true);
    assert.equal(f.matches?.(row('web-2 1/1 Running')), false);
  });

  it('matches /regex/, and says why a bad one is none', () => {
    const f = parseRowFilter('/web-\\d+ 1\\/1/');
    assert.equal(f.matches?.(row('web-12 1/1 Running')), true);
    assert.equal(f.matches?.(row('api-1 1/1 Running')), false);
    const bad = parseRowFilter('/web-(/');
    assert.equal(bad.matches, undefined);
    assert.match(bad.problem!, /is not a regular expression/);
  });

  it('matches -l label selectors as the API server reads them', () => {
    const labels = { app: 'web', tier: 'front' };
    const yes = (s: string) => parseRowFilter(`-l ${s}`).matches?.(row('x', labels));
    assert.equal(yes('app=web'), true);
    assert.equal(yes('app==web,tier=front'), true);
    assert.equal(yes('app!=web'), false);
    assert.equal(yes('app in (api,web)'), true);
    assert.equal(yes('tier notin (front)'), false);
    assert.equal(yes('app'), true);
    assert.equal(yes('!app'), false);
    assert.equal(yes('missing!=x'), true);
    assert.match(parseRowFilter('-l app=we b').problem!, /not a valid requirement/);
  });

  it('negates any filter with !', () => {
    assert.equal(parseRowFilter('!running').matches?.(row('web-1 Running')), false);
    assert.equal(parseRowFilter('!running').matches?.(row('web-1 Pending')), true);
    assert.equal(parseRowFilter('!-l app=web').matches?.(row('x', { app: 'api' })), true);
    assert.equal(parseRowFilter('!/^web/').matches?.(row('web-1')), false);
  });
});

describe('table natural order', () => {
  it('compares digit runs as numbers, letters without case, shorter first on a common start', async () => {
    const { naturalCompare } = await import('../../../src/ui/table');
    const sorted = ['web-10', 'Web-2', 'web-002b', 'api', 'web-2a', 'web', 'team-0100', 'team-0099'].sort(naturalCompare);
    assert.deepEqual(sorted, ['api', 'team-0099', 'team-0100', 'web', 'Web-2', 'web-2a', 'web-002b', 'web-10']);
  });

  it('a natural key in plain string order sorts as the natural comparison does: 20,000 random pairs, digit runs of 1 to 25 digits with leading zeros, case, punctuation on both sides of the digits', async () => {
    const { naturalCompare, naturalKey } = await import('../../../src/ui/table');
    const { seededRandom } = await import('../../../src/base');
    const random = seededRandom(30);
    const pieces = ['web', 'Web', 'WEB', 'a', 'z', '-', '.', ':', '_', '~', ' ', '/', 'é', '0', '00', '7', '9', '10', '0099', '12345678901', '1234567890123456789012345'];
    const text = () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
    for (let i = 0; i < 20_000; i++) {
      const a = text();
      const b = text();
      const ka = naturalKey(a);
      const kb = naturalKey(b);
      assert.equal(sign(ka < kb ? -1 : ka > kb ? 1 : 0), sign(naturalCompare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}: keys ${JSON.stringify(ka)} and ${JSON.stringify(kb)}`);
    }
  });
});
