// `npm run test:stress [N]`: runs the plain-Node tests (mocha only: no type-check, no build)
// N times (default 10), one after another, while one busy loop per core competes for the CPU.
// A run's output is shown only when it fails. The last line is `N passed, M failed` (runs);
// the exit code is non-zero when any run failed.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = process.argv[2];
const runs = arg === undefined ? 10 : Number(arg);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`test:stress: N must be a whole number of runs, at least 1 (got "${arg}")`);
  process.exit(2);
}

const cores = availableParallelism();
const busy = Array.from({ length: cores }, () => new Worker('for (;;) {}', { eval: true }));
console.log(`test:stress: ${runs} run(s) of the plain-Node tests with ${cores} busy loop(s) competing`);

function runOnce() {
  return new Promise((resolve) => {
    const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const child = spawn(process.execPath, [mocha, 'test/**/*.test.ts', '--reporter', 'dot'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code, signal) => resolve({ ok: code === 0, output, code: code ?? signal }));
  });
}

let passed = 0;
let failed = 0;
const started = Date.now();
try {
  for (let i = 1; i <= runs; i++) {
    const t0 = Date.now();
    const r = await runOnce();
    const secs = ((Date.now() - t0) / 1000).toFixed(0);
    if (r.ok) {
      passed++;
      console.log(`run ${i}/${runs}: passed (${secs} s)`);
    } else {
      failed++;
      console.log(`run ${i}/${runs}: FAILED with ${r.code} (${secs} s)\n${r.output.trimEnd()}\n`);
    }
  }
} finally {
  await Promise.all(busy.map((w) => w.terminate()));
}
console.log(`test:stress: ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
