// Runs the extension-host tests (test/vscode/suite/, built to out/test/vscode/suite/ by
// scripts/vscode/build-tests.mjs) with @vscode/test-electron's `runTests`. Where a desktop VS Code
// can be downloaded, VSCODE_TEST_DESKTOP=1 uses it as usual; otherwise (the default here, where
// only the npm registry and Debian are reachable) the "executable" is
// scripts/vscode/code-server-launcher.mjs, which runs the same tests in code-server driven by
// headless Chromium (install both with scripts/vscode/install-code-server.sh).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(__dirname, '..', '..');

async function main(): Promise<number> {
  const extensionTestsPath = path.join(root, 'out', 'test', 'vscode', 'suite', 'index.js');
  if (!fs.existsSync(extensionTestsPath)) {
    throw new Error(`${extensionTestsPath} is missing: run node scripts/vscode/build-tests.mjs`);
  }
  if (!fs.existsSync(path.join(root, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: run npm run build');
  }
  // A fresh profile per run, so nothing from an earlier run (state, settings) leaks in.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-vscode-test-'));
  const desktop = process.env.VSCODE_TEST_DESKTOP === '1';
  const workspace = process.env.VSCODE_TEST_WORKSPACE ?? path.join(profile, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  // Where the launcher leaves VS Code's logs and a screenshot when the tests fail.
  const logsDir = process.env.VSCODE_TEST_LOGS_DIR ?? path.join(root, 'test-results', 'vscode', 'failure');
  fs.rmSync(logsDir, { recursive: true, force: true });
  try {
    return await runTests({
      vscodeExecutablePath: desktop ? undefined : path.join(root, 'scripts', 'vscode', 'code-server-launcher.mjs'),
      extensionDevelopmentPath: root,
      extensionTestsPath,
      launchArgs: [
        workspace,
        `--user-data-dir=${path.join(profile, 'user-data')}`,
        `--extensions-dir=${path.join(profile, 'extensions')}`,
        '--disable-extensions',
      ],
      // The user data dir, for tests that look at what VS Code writes there (hot-exit backups: W12).
      extensionTestsEnv: { VSCODE_TEST_LOGS_DIR: logsDir, VSCODE_TEST_USER_DATA_DIR: path.join(profile, 'user-data') },
    });
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
