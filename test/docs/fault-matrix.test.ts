import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

/**
 * docs/fault-matrix.md against mocha's own list of test titles (`mocha --dry-run --reporter
 * json`): a row that is not planned names test files holding a test titled by its id, and no
 * test title names an id the matrix lacks.
 */

const root = join(__dirname, '..', '..');
const matrixPath = join(root, 'docs', 'fault-matrix.md');

interface Row {
  id: string;
  tests: string;
}

interface MochaTest {
  title: string;
  fullTitle: string;
  file: string;
}

/** The rows of the matrix table: id and the tests cell (the last one). */
function matrixRows(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const m = /^\|\s*(F\d{2})\s*\|/.exec(line);
    if (!m) continue;
    const cells = line.trim().replace(/^\||\|$/g, '').split('|');
    rows.push({ id: m[1], tests: cells[cells.length - 1].trim() });
  }
  return rows;
}

/** Every test title mocha would run from `glob` (default `npm test`'s), without running any. */
async function mochaTitles(glob = 'test/**/*.test.ts'): Promise<MochaTest[]> {
  const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const { stdout } = await promisify(execFile)(process.execPath, [mocha, glob, '--dry-run', '--reporter', 'json'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { tests: MochaTest[] };
  return report.tests.map((t) => ({ ...t, file: relative(root, t.file) }));
}

describe('docs/fault-matrix.md', function () {
  this.timeout(120_000);
  let rows: Row[];
  let tests: MochaTest[];

  before(async () => {
    rows = matrixRows(readFileSync(matrixPath, 'utf8'));
    // npm test's files, and the real-server tier's (npm run test:real), whose titles are `Fxx [real] …`.
    tests = [...(await mochaTitles()), ...(await mochaTitles('test/real/**/*.real.ts'))];
  });

  it('has every row from F01 on, each once, in order', () => {
    const ids = rows.map((r) => r.id);
    assert.ok(ids.length >= 37, `at least F01 to F37 (${ids.length} rows)`);
    ids.forEach((id, i) => assert.equal(id, `F${String(i + 1).padStart(2, '0')}`, 'ids are F01, F02, … without gaps or repeats'));
  });

  it('every row that is not planned names test files that hold a test titled by its id', () => {
    const problems: string[] = [];
    for (const row of rows) {
      if (/^planned\b/.test(row.tests)) continue;
      const files = [...row.tests.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      const testFiles = files.filter((f) => f.endsWith('.test.ts'));
      if (testFiles.length === 0) problems.push(`${row.id}: names no test file (or say "planned (issue N)")`);
      for (const f of files) if (!existsSync(join(root, f))) problems.push(`${row.id}: ${f} does not exist`);
      for (const f of testFiles) {
        if (!tests.some((t) => t.file === f && t.title.startsWith(`${row.id} `))) problems.push(`${row.id}: no test in ${f} whose title starts with "${row.id} "`);
      }
      for (const f of files.filter((x) => x.endsWith('.real.ts'))) {
        if (!tests.some((t) => t.file === f && t.title.startsWith(`${row.id} [real] `))) problems.push(`${row.id}: no test in ${f} whose title starts with "${row.id} [real] "`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('no test title names an id that the matrix lacks', () => {
    const known = new Set(rows.map((r) => r.id));
    const unknown = tests.flatMap((t) => (t.fullTitle.match(/\bF\d{2}\b/g) ?? []).filter((id) => !known.has(id)).map((id) => `${id} in "${t.fullTitle}" (${t.file})`));
    assert.deepEqual(unknown, []);
  });

  it('finds the titles it checks (the dry run is not empty)', () => {
    assert.ok(tests.some((t) => t.title.startsWith('F01 ')), 'mocha lists the F01 tests');
    assert.ok(tests.some((t) => t.file === 'test/docs/fault-matrix.test.ts'), 'mocha lists this file too');
    assert.ok(tests.some((t) => t.file.startsWith('test/real/') && / \[real\] /.test(t.title)), 'mocha lists the real-server tier too');
  });
});
