// `npm run test:stress [N]`: runs the plain-Node tests (mocha only: no type-check, no build)
// N times (default 10), one after another, while one busy loop per core competes for the CPU.
// Each run is both passes of `npm test`: every test over HTTP/1.1, then the suites of
// `npm run test:h2` with the local API server speaking HTTP/2.
// Unlike `npm test`, each pass runs in one mocha process: the busy loops, not a second worker,
// are what this tier adds (a chaos seed once missed its bound with both under load 12).
// A run's output is shown only when it fails. The last line is `N passed, M failed` (runs);
// the exit code is non-zero when any run failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The spec globs of `npm run test:h2`, read from its script so the two never drift apart. */
const h2Specs = [...pkg.scripts['test:h2'].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
if (h2Specs.length === 0) {
  console.error('test:stress: found no spec globs in the test:h2 script of package.json');
  process.exit(2);
}

function mocha(specs, env) {
  return new Promise((resolve) => {
    const bin = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const child = spawn(process.execPath, [bin, ...specs, '--reporter', 'dot'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code, signal) => resolve({ ok: code === 0, output, code: code ?? signal }));
  });
}

async function runOnce() {
  const h1 = await mocha(['test/**/*.test.ts'], {});
  if (!h1.ok) return { ...h1, output: `HTTP/1.1 pass:\n${h1.output}` };
  const h2 = await mocha(h2Specs, { FAKE_APISERVER_HTTP2: '1' });
  if (!h2.ok) return { ...h2, output: `HTTP/2 pass (test:h2):\n${h2.output}` };
  return h2;
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
