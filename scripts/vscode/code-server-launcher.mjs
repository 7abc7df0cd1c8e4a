#!/usr/bin/env node
// Stands in for the VS Code executable that @vscode/test-electron's `runTests` launches, on
// machines where no desktop VS Code can be downloaded: give its path as `vscodeExecutablePath`.
//
// It takes the arguments runTests passes (`--extensionDevelopmentPath=`, `--extensionTestsPath=`,
// `--user-data-dir=`, `--extensions-dir=`, an optional folder or .code-workspace to open; every
// other flag is ignored), starts code-server (installed by scripts/vscode/install-code-server.sh)
// on 127.0.0.1 with a free port and VS Code's smoke-test driver enabled, and opens the workbench
// in headless Chromium (Debian's `chromium`, driven by playwright-core) with a payload that runs
// the extension tests in code-server's Node extension host. The tests' exit code arrives through
// `window.codeAutomationExit`; the launcher then closes the browser and code-server and exits
// with it. The environment is passed through to code-server, so the extension host and the tests
// see it (KUBECONFIG, say), except the variables code-server itself reads for its own setup.
//
// Output: the tests' report goes to stdout. The launcher sets VSCODE_TESTS_OUTPUT_FILE for the
// extension host; test/vscode/suite/index.ts writes mocha's report there and the launcher copies
// it to stdout as it grows (the extension host's own stdout reaches us only through code-server's
// log, re-wrapped). Diagnostics go to stderr: the launcher's steps, code-server's log, and the
// page's console warnings and errors (all of its console with VSCODE_TEST_VERBOSE=1).
//
// Environment:
//   CODE_SERVER_HOME              where code-server is installed (default: <repo>/.cache/code-server)
//   CHROMIUM_PATH                 the browser (default: `chromium` found on PATH)
//   VSCODE_TEST_TIMEOUT_SECONDS   give up after this long (default 600) and exit 124
//   VSCODE_TEST_LOGS_DIR          on failure, VS Code's log files and a screenshot go here
//                                 (default: <user-data-dir>/automation-logs)
//   VSCODE_TEST_VERBOSE=1         forward the page's whole console, not only warnings and errors
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import { chromiumPath as findChromium, codeServerPaths, launchChromium, prepareProfile, startCodeServer, stopProcessGroup, toRemoteUri } from './code-server.mjs';

const started = Date.now();

function log(message) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[code-server-launcher +${seconds}s] ${message}\n`);
}

/** Parses VS Code's command line as runTests builds it; unknown flags are kept aside and ignored. */
function parseArgs(argv) {
  const out = { extensionDevelopmentPaths: [], extensionTestsPath: undefined, userDataDir: undefined, extensionsDir: undefined, open: undefined, ignored: [] };
  const valueFlags = new Map([
    ['--extensionDevelopmentPath', (v) => out.extensionDevelopmentPaths.push(v)],
    ['--extensionTestsPath', (v) => (out.extensionTestsPath = v)],
    ['--user-data-dir', (v) => (out.userDataDir = v)],
    ['--extensions-dir', (v) => (out.extensionsDir = v)],
  ]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const setter = valueFlags.get(name);
    if (setter) {
      // Both `--flag=value` and `--flag value`.
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new Error(`${name} needs a value`);
      setter(value);
    } else if (!arg.startsWith('-') && out.open === undefined) {
      out.open = arg;
    } else {
      out.ignored.push(arg);
    }
  }
  if (out.extensionDevelopmentPaths.length === 0) throw new Error('--extensionDevelopmentPath= is required');
  if (!out.extensionTestsPath) throw new Error('--extensionTestsPath= is required');
  return out;
}

/** Copies what is appended to `file` to stdout, every 200 ms and once more on stop(). */
function tailToStdout(file) {
  let offset = 0;
  const buffer = Buffer.alloc(64 * 1024);
  const pump = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return; // not written yet
    }
    try {
      for (;;) {
        const n = fs.readSync(fd, buffer, 0, buffer.length, offset);
        if (n <= 0) break;
        offset += n;
        process.stdout.write(buffer.subarray(0, n));
      }
    } finally {
      fs.closeSync(fd);
    }
  };
  const timer = setInterval(pump, 200);
  return { stop: () => { clearInterval(timer); pump(); } };
}

/**
 * The text of a page console message, formatted as the browser's console would show it. VS Code's
 * console logger writes `('%c INFO', 'color: …', message, ...args)`; the message may itself be a
 * format string (mocha's are), which Playwright's `text()` leaves unformatted.
 */
async function consoleText(message) {
  let values;
  try {
    values = await Promise.all(message.args().map((arg) => arg.jsonValue()));
  } catch {
    return message.text();
  }
  if (values.length === 0) return message.text();
  let label = '';
  if (typeof values[0] === 'string' && values[0].startsWith('%c') && values.length >= 2) {
    label = values[0].slice(2).trim() + ' ';
    values = values.slice(2);
  }
  return label + format(...values);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.ignored.length) log(`ignoring: ${args.ignored.join(' ')}`);
  const timeoutSeconds = Number(process.env.VSCODE_TEST_TIMEOUT_SECONDS || 600);
  const verbose = process.env.VSCODE_TEST_VERBOSE === '1';

  const codeServer = codeServerPaths();
  const chromiumPath = findChromium();

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-code-server-'));
  const userDataDir = path.resolve(args.userDataDir ?? path.join(scratch, 'user-data'));
  const extensionsDir = path.resolve(args.extensionsDir ?? path.join(scratch, 'extensions'));
  // extensions.json with `[]`, and quiet defaults for a fresh profile (no gallery, AI or update
  // traffic to hosts we cannot reach); a settings.json that is already there is left alone.
  prepareProfile({ userDataDir, extensionsDir });
  const logsDir = path.resolve(process.env.VSCODE_TEST_LOGS_DIR || path.join(userDataDir, 'automation-logs'));

  const reportFile = path.join(scratch, 'tests-output.txt');
  const report = tailToStdout(reportFile);

  let exitCode = 1;
  let codeServerChild;
  let browser;
  let page;
  let timer;
  let consoleQueue = Promise.resolve();
  const cleanup = async () => {
    clearTimeout(timer);
    report.stop();
    await Promise.race([consoleQueue, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (page && exitCode !== 0) {
      const shot = path.join(logsDir, 'workbench.png');
      fs.mkdirSync(logsDir, { recursive: true });
      await page.screenshot({ path: shot, timeout: 10_000 }).then(
        () => log(`screenshot of the workbench: ${shot}`),
        (error) => log(`no screenshot: ${error.message}`),
      );
    }
    if (browser) await browser.close().catch((error) => log(`closing the browser: ${error.message}`));
    if (codeServerChild) await stopProcessGroup(codeServerChild, 'code-server', log);
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: stopping`);
      cleanup().finally(() => process.exit(130));
    });
  }

  try {
    const { child, listening } = startCodeServer(codeServer, {
      userDataDir,
      extensionsDir,
      configFile: path.join(scratch, 'code-server.yaml'),
      env: { VSCODE_TESTS_OUTPUT_FILE: reportFile },
      smokeTestDriver: true,
      onOutput: (line) => process.stderr.write(`[code-server] ${line}\n`),
      log,
    });
    codeServerChild = child;

    const outcome = new Promise((resolve, reject) => {
      timer = setTimeout(() => {
        log(`no result after ${timeoutSeconds} s; giving up`);
        resolve(124);
      }, timeoutSeconds * 1000);
      child.once('exit', (code, signal) => reject(new Error(`code-server exited during the tests (${code ?? signal})`)));
      listening.catch(reject);
      run(resolve).catch(reject);
    });

    async function run(resolveExit) {
      const baseUrl = await listening;
      const authority = new URL(baseUrl).host;
      log(`code-server listens on ${baseUrl}`);

      browser = await launchChromium({ executablePath: chromiumPath });
      log(`browser: ${chromiumPath} ${browser.version()}`);
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.on('console', (message) => {
        const type = message.type();
        if (!verbose && type !== 'error' && type !== 'warning') return;
        // In order, though formatting is asynchronous.
        consoleQueue = consoleQueue.then(async () => {
          process.stderr.write(`[page ${type}] ${await consoleText(message)}\n`);
        });
      });
      page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.stack ?? error.message}\n`));
      page.on('crash', () => log('the page crashed'));
      await page.exposeFunction('codeAutomationExit', (code, logs) => {
        log(`codeAutomationExit(${code})`);
        if (code !== 0 && Array.isArray(logs)) {
          // VS Code hands over its log files; keep them for a look.
          for (const { relativePath, contents } of logs) {
            const file = path.join(logsDir, relativePath);
            if (!file.startsWith(logsDir + path.sep)) continue;
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.writeFileSync(file, contents);
          }
          log(`the workbench's logs are in ${logsDir}`);
        }
        resolveExit(typeof code === 'number' ? code : 1);
      });

      const payload = [
        ...args.extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', toRemoteUri(authority, p)]),
        ['extensionTestsPath', toRemoteUri(authority, args.extensionTestsPath)],
      ];
      const query = new URLSearchParams();
      if (args.open) {
        const target = path.resolve(args.open);
        query.set(target.endsWith('.code-workspace') ? 'workspace' : 'folder', target);
      } else {
        query.set('ew', 'true'); // an empty window
      }
      query.set('payload', JSON.stringify(payload));
      const url = `${baseUrl}/?${query}`;
      log(`opening ${url}`);
      await page.goto(url, { waitUntil: 'domcontentloaded' });
    }

    exitCode = await outcome;
  } catch (error) {
    log(`failed: ${error?.stack ?? error}`);
    exitCode = 1;
  } finally {
    await cleanup();
  }
  log(`exit ${exitCode}`);
  process.exit(exitCode);
}

main().catch((error) => {
  log(`failed: ${error?.stack ?? error}`);
  process.exit(1);
});
