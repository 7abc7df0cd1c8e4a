// Entry point VS Code loads in the extension host (`--extensionTestsPath`): runs every
// `*.vscode-test.js` beside it with mocha. Built to out/test/vscode/suite/ by
// scripts/vscode/build-tests.mjs; the files are named `.vscode-test.ts` so that the plain-Node
// tier's `test/**/*.test.ts` glob does not pick them up (they need the `vscode` module).
//
// Where the report goes: in desktop VS Code, console.log of the extension host reaches the
// terminal. Under scripts/vscode/code-server-launcher.mjs it would reach only the browser's
// console, so the launcher names a file in VSCODE_TESTS_OUTPUT_FILE, the report is appended there,
// and the launcher copies it to its stdout.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const outputFile = process.env.VSCODE_TESTS_OUTPUT_FILE;
  const print = outputFile
    ? // Without colour codes: mocha's ✔ comes coloured from log-symbols whatever `color` says.
      (...args: unknown[]) => fs.appendFileSync(outputFile, format(...args).replace(/\x1b\[[0-9;]*m/g, '') + '\n')
    : (...args: unknown[]) => console.log(...args);
  Mocha.reporters.Base.consoleLog = print;

  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: Number(process.env.VSCODE_TEST_MOCHA_TIMEOUT_MS || 60_000),
    grep: process.env.VSCODE_TEST_GREP || undefined,
  });
  const files = fs
    .readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.vscode-test.js'))
    .sort();
  if (files.length === 0) throw new Error(`no *.vscode-test.js files in ${__dirname}`);
  for (const file of files) mocha.addFile(path.join(__dirname, file));

  const { passes, failures, pending } = await new Promise<Mocha.Stats>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats ?? { passes: 0, failures: 1, pending: 0 } as Mocha.Stats));
  });
  // The plain closing line CI reads.
  print(`vscode: ${passes} passed, ${failures} failed` + (pending ? `, ${pending} skipped` : ''));
  if (failures > 0) throw new Error(`${failures} extension test(s) failed`);
  if (passes === 0) throw new Error('no extension test ran');
}
