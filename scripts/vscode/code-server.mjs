// Starting code-server (installed by scripts/vscode/install-code-server.sh) and Debian's Chromium
// for the tiers that run a real VS Code: the extension-host tests (code-server-launcher.mjs), the
// browser tests (test/e2e/) and the sandbox (`npm start`). Plain ESM with Node built-ins, plus
// playwright-core for the browser, so both `node` and `tsx` load it.
//
// Environment:
//   CODE_SERVER_HOME   where code-server is installed (default: <repo>/.cache/code-server)
//   CHROMIUM_PATH      the browser (default: `chromium` found on PATH)
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');

/** Chromium's flags for a headless run here (../shared/DESIGN.md, "Tests"). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Quiet defaults for a fresh profile: no gallery, AI, update or tips traffic to hosts we cannot reach. */
export const DEFAULT_SETTINGS = {
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
};

/** A calm, predictable window for people and screenshots (the e2e tests and the sandbox). */
export const SHOWCASE_SETTINGS = {
  ...DEFAULT_SETTINGS,
  'workbench.colorTheme': 'Default Dark Modern',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'window.commandCenter': false,
  'workbench.layoutControl.enabled': false,
  'editor.minimap.enabled': false,
  'output.smartScroll.enabled': true,
};

// Variables code-server reads for its own setup; given to it from the caller's environment they
// would change its port, host, config, password or make it talk to another instance.
export const CODE_SERVER_OWN_ENV = [
  'PORT', 'CODE_SERVER_HOST', 'CODE_SERVER_CONFIG', 'CODE_SERVER_PARENT_PID', 'CODE_SERVER_SESSION_SOCKET',
  'CODE_SERVER_IDLE_TIMEOUT_SECONDS', 'VSCODE_IPC_HOOK_CLI', 'VSCODE_OPTIONS', 'PASSWORD', 'HASHED_PASSWORD',
  'ELECTRON_RUN_AS_NODE',
];

export function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** The browser: CHROMIUM_PATH, else `chromium` on PATH; throws with what to run when there is none. */
export function chromiumPath() {
  const found = process.env.CHROMIUM_PATH || findOnPath('chromium');
  if (!found) throw new Error("no `chromium` on PATH: run scripts/vscode/install-code-server.sh (it installs Debian's chromium)");
  return found;
}

/** code-server's Node and entry script; throws with what to run when they are missing. */
export function codeServerPaths() {
  const home = path.resolve(process.env.CODE_SERVER_HOME || path.join(repoRoot, '.cache', 'code-server'));
  const node = path.join(home, 'bin', 'node');
  const entry = path.join(home, 'app', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  for (const file of [node, entry]) {
    if (!fs.existsSync(file)) {
      throw new Error(`code-server is not installed (${file} is missing): run scripts/vscode/install-code-server.sh`);
    }
  }
  return { home, node, entry };
}

/**
 * Makes a profile usable by code-server: the user data and extensions folders, `extensions.json`
 * containing `[]` (code-server expects it), and `settings` (default DEFAULT_SETTINGS) as
 * User/settings.json unless one is there already.
 */
export function prepareProfile({ userDataDir, extensionsDir, settings = DEFAULT_SETTINGS }) {
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const extensionsJson = path.join(extensionsDir, 'extensions.json');
  if (!fs.existsSync(extensionsJson)) fs.writeFileSync(extensionsJson, '[]');
  const settingsJson = path.join(userDataDir, 'User', 'settings.json');
  if (!fs.existsSync(settingsJson)) {
    fs.mkdirSync(path.dirname(settingsJson), { recursive: true });
    fs.writeFileSync(settingsJson, JSON.stringify(settings, null, 2));
  }
}

/** code-server's environment: the caller's, without the variables code-server reads for itself. */
export function codeServerEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const name of CODE_SERVER_OWN_ENV) delete env[name];
  return env;
}

/**
 * `code-server --install-extension VSIX` into `extensionsDir`. Synchronous (a few seconds);
 * throws with code-server's output when it fails. Returns that output.
 */
export function installExtension(paths, { vsix, extensionsDir, userDataDir, configFile }) {
  const args = [paths.entry, '--install-extension', path.resolve(vsix), '--force', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir];
  if (configFile) args.push('--config', configFile);
  const result = spawnSync(paths.node, args, { env: codeServerEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.error) throw new Error(`code-server --install-extension: ${result.error.message}\n${output}`);
  if (result.status !== 0) throw new Error(`code-server --install-extension exited with ${result.status ?? result.signal}:\n${output}`);
  return output;
}

/** Calls `onLine` with each line of `stream` as it arrives. */
export function forEachLine(stream, onLine) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (rest) onLine(rest);
  });
}

/**
 * Starts code-server on 127.0.0.1 (a free port unless `bindAddr` says otherwise), in its own
 * process group, with auth, telemetry, update checks, workspace trust and the getting-started page
 * off. Returns the child and `listening`, which resolves with its base URL
 * (`http://127.0.0.1:PORT`) once it listens and rejects if it exits first. Each line code-server
 * prints goes to `onOutput` (default: ignored).
 *
 * - `env`: added to the caller's environment (the extension host sees it; KUBECONFIG, say).
 * - `smokeTestDriver`: `--vscode-option enable-smoke-test-driver`, needed for the test payload route.
 * - `extraArgs`: more code-server arguments.
 */
/**
 * code-server 4.134 and later pass VS Code options through `--vscode-option`; earlier releases
 * know no such option (nor VS Code's own flag) and run the test payload without it.
 */
function smokeTestDriverArgs(paths) {
  const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(paths.entry), '..', '..', 'package.json'), 'utf8'));
  const [major, minor] = String(pkg.version).split('.').map(Number);
  return major > 4 || (major === 4 && minor >= 134) ? ['--vscode-option', 'enable-smoke-test-driver'] : [];
}

export function startCodeServer(paths, { userDataDir, extensionsDir, configFile, env = {}, bindAddr = '127.0.0.1:0', smokeTestDriver = false, extraArgs = [], onOutput = () => {}, log = () => {} }) {
  const args = [
    paths.entry,
    '--bind-addr', bindAddr,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--config', configFile,
    '--extensions-dir', extensionsDir,
    '--user-data-dir', userDataDir,
    ...(smokeTestDriver ? smokeTestDriverArgs(paths) : []),
    ...extraArgs,
  ];
  log(`starting code-server: ${paths.node} ${args.join(' ')}`);
  const child = spawn(paths.node, args, { env: codeServerEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  forEachLine(child.stdout, onOutput);
  forEachLine(child.stderr, onOutput);
  const listening = new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk.toString();
      const match = /HTTP server listening on (http:\/\/[^\s/]+)/.exec(seen);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`code-server exited before listening (${code ?? signal})`)));
  });
  // Whoever awaits `listening` sees the rejection; no unhandled one when nobody does.
  listening.catch(() => {});
  return { child, listening };
}

/** SIGTERM to the child's process group (code-server and its extension host, pty host, ...), SIGKILL after 5 s. */
export async function stopProcessGroup(child, name = 'process', log = () => {}) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      try { child.kill(signal); } catch { /* gone */ }
    }
  };
  kill('SIGTERM');
  const timer = setTimeout(() => {
    log(`${name} still running 5 s after SIGTERM; sending SIGKILL`);
    kill('SIGKILL');
  }, 5000);
  await exited;
  clearTimeout(timer);
}

/** Headless Chromium through playwright-core, with CHROMIUM_ARGS. */
export async function launchChromium({ executablePath = chromiumPath(), headless = true, args = [] } = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless, args: [...CHROMIUM_ARGS, ...args] });
}

/** `vscode-remote://AUTHORITY/abs/path`: a path on code-server's machine as the workbench names it. */
export function toRemoteUri(authority, fsPath) {
  const absolute = path.resolve(fsPath);
  const encoded = absolute.split(path.sep).map((part) => encodeURIComponent(part)).join('/');
  return `vscode-remote://${authority}${encoded.startsWith('/') ? '' : '/'}${encoded}`;
}
