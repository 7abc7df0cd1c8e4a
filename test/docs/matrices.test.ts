import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

/**
 * The matrices in docs/ (the fault matrix, F01 on; the write-safety matrix, W01 on) against mocha's
 * own list of test titles (`mocha --dry-run --reporter json`): a row that is not planned names test
 * files holding a test titled by its id, and no test title names an id its matrix lacks.
 */

const root = join(__dirname, '..', '..');

/** A matrix: its file, the letter of its ids, and how many rows it has at least. */
interface Matrix {
  file: string;
  letter: 'F' | 'W';
  atLeast: number;
}

const MATRICES: Matrix[] = [
  { file: 'docs/fault-matrix.md', letter: 'F', atLeast: 37 },
  { file: 'docs/write-safety.md', letter: 'W', atLeast: 16 },
];

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
function matrixRows(markdown: string, letter: Matrix['letter']): Row[] {
  const rows: Row[] = [];
  const rowId = new RegExp(`^\\|\\s*(${letter}\\d{2})\\s*\\|`);
  for (const line of markdown.split('\n')) {
    const m = rowId.exec(line);
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

/** Every test title of the tiers: `npm test`'s files, the real-server tier's (`W03 [real] …`) and the browser tier's. */
let titles: Promise<MochaTest[]> | undefined;
function allTitles(): Promise<MochaTest[]> {
  titles ??= Promise.all([mochaTitles(), mochaTitles('test/real/**/*.real.ts'), mochaTitles('test/e2e/*.e2e.ts')]).then((lists) => lists.flat());
  return titles;
}

for (const matrix of MATRICES) {
  const { letter } = matrix;
  describe(matrix.file, function () {
    this.timeout(120_000);
    let rows: Row[];
    let tests: MochaTest[];

    before(async () => {
      rows = matrixRows(readFileSync(join(root, matrix.file), 'utf8'), letter);
      tests = await allTitles();
    });

    it(`has every row from ${letter}01 on, each once, in order`, () => {
      const ids = rows.map((r) => r.id);
      assert.ok(ids.length >= matrix.atLeast, `at least ${matrix.atLeast} rows (${ids.length} rows)`);
      ids.forEach((id, i) => assert.equal(id, `${letter}${String(i + 1).padStart(2, '0')}`, `ids are ${letter}01, ${letter}02, … without gaps or repeats`));
    });

    it('every row that is not planned names test files that hold a test titled by its id', () => {
      const problems: string[] = [];
      for (const row of rows) {
        if (/^planned\b/.test(row.tests)) continue;
        const files = [...row.tests.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
        const testFiles = files.filter((f) => /\.(test|real|e2e)\.ts$/.test(f));
        if (testFiles.length === 0) problems.push(`${row.id}: names no test file (or say "planned (issue N)")`);
        for (const f of files) if (!existsSync(join(root, f))) problems.push(`${row.id}: ${f} does not exist`);
        for (const f of testFiles) {
          // `W01 …` or `W01: …`; a real-server test `W01 [real] …`.
          const prefix = f.endsWith('.real.ts') ? new RegExp(`^${row.id} \\[real\\] `) : new RegExp(`^${row.id}[ :]`);
          if (!tests.some((t) => t.file === f && prefix.test(t.title))) problems.push(`${row.id}: no test in ${f} whose title starts with "${row.id}${f.endsWith('.real.ts') ? ' [real]' : ''} "`);
        }
      }
      assert.deepEqual(problems, []);
    });

    it('no test title names an id that the matrix lacks', () => {
      const known = new Set(rows.map((r) => r.id));
      const idPattern = new RegExp(`\\b${letter}\\d{2}\\b`, 'g');
      const unknown = tests.flatMap((t) => (t.fullTitle.match(idPattern) ?? []).filter((id) => !known.has(id)).map((id) => `${id} in "${t.fullTitle}" (${t.file})`));
      assert.deepEqual(unknown, []);
    });
  });
}

describe('the matrices\' title lists', function () {
  this.timeout(120_000);
  it('finds the titles it checks (the dry runs are not empty)', async () => {
    const tests = await allTitles();
    assert.ok(tests.some((t) => t.title.startsWith('F01 ')), 'mocha lists the F01 tests');
    assert.ok(tests.some((t) => t.file === 'test/docs/matrices.test.ts'), 'mocha lists this file too');
    assert.ok(tests.some((t) => t.file.startsWith('test/real/') && / \[real\] /.test(t.title)), 'mocha lists the real-server tier too');
    assert.ok(tests.some((t) => t.file.startsWith('test/e2e/')), 'mocha lists the browser tier too');
  });
});
