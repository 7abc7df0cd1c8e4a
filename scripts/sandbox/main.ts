/**
 * `npm start`: Kube Watch in a browser on a simulated cluster, in one command.
 *
 *   npm start [-- OPTIONS]
 *   node --import tsx scripts/sandbox/main.ts [OPTIONS]
 *
 * 1. installs code-server when it is missing (scripts/vscode/install-code-server.sh: Debian's
 *    chromium and build tools, then code-server and its Node 24 into .cache/; minutes, once);
 * 2. packages the extension (scripts/package.mjs, into the sandbox's temporary folder);
 * 3. starts the simulated cluster (simulated-cluster.ts) on 127.0.0.1 with steady churn, and
 *    writes its kubeconfig into a temporary folder (linked at .cache/sandbox/kubeconfig, the path
 *    .vscode/launch.json gives a desktop VS Code, while the sandbox runs);
 * 4. installs the .vsix into a fresh code-server profile in that folder, with a tiny helper
 *    extension (opener/) that shows the Kube Watch view and its log when the window opens;
 * 5. starts code-server on 127.0.0.1 (port 8080 or the first free one after it) with KUBECONFIG
 *    pointing at the cluster, opening scripts/sandbox/workspace/ (whose settings make Kube Watch
 *    watch every type the cluster has), and prints the address to open;
 * 6. runs the fault timeline (fault-timeline.ts) once a client watches, announcing each fault.
 *
 * With --no-vscode only 3 and 6 run: the cluster and its kubeconfig, for a desktop VS Code (F5
 * "Run Extension") or the CLI. Ctrl-C (or SIGTERM, SIGHUP) stops everything it started: the
 * fault timeline, code-server's whole process group, the cluster, the temporary folder and the
 * link; then it exits 0. Everything listens on 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import {
  SHOWCASE_SETTINGS,
  codeServerPaths,
  installExtension,
  prepareProfile,
  repoRoot,
  startCodeServer,
  stopProcessGroup,
} from '../vscode/code-server.mjs';
import { FAULT_NAMES, FaultTimeline, LOG_FAULT_NAMES, clock } from './fault-timeline';
import { STREAM_FAULT_NAMES } from './stream-faults';
import { workspaceResources } from './workspace-resources';
import { SimulatedCluster } from './simulated-cluster';

const USAGE = `usage: npm start [-- OPTIONS]   (or: node --import tsx scripts/sandbox/main.ts [OPTIONS])

  --no-vscode          only the simulated cluster: print its kubeconfig and address, for a desktop
                       VS Code (F5 "Run Extension") or the CLI
  --port N             code-server's port on 127.0.0.1 (default: 8080, or the first free one after
                       it; 0: any free port)
  --api-port N         the API server's port on 127.0.0.1 (default: any free port)
  --vsix FILE          install this package instead of building one
  --no-faults          no fault timeline (faults can still be typed: ${FAULT_NAMES.join(', ')})
  --first-fault S      seconds from the first watch to the first fault (default 40)
  --fault-gap S        seconds between faults (default 60)
  --churn MS           milliseconds between churn steps (default 3000; 0: no churn)
  --metrics MODE       metrics.k8s.io: served (default), absent (no metrics-server) or forbidden
                       (403 for the sandbox's user)
  --no-link            do not link the kubeconfig at .cache/sandbox/kubeconfig
  --verbose            also print code-server's output and the cluster's own log
  --help               this text`;

interface SandboxOptions {
  vscode: boolean;
  port: number | undefined;
  apiPort: number;
  vsix: string | undefined;
  faults: boolean;
  firstFaultMs: number;
  faultGapMs: number;
  churnMs: number;
  link: boolean;
  verbose: boolean;
  metrics: 'served' | 'absent' | 'forbidden';
}

class UsageError extends Error {}

function parseArgs(argv: string[]): SandboxOptions | 'help' {
  const o: SandboxOptions = { vscode: true, port: undefined, apiPort: 0, vsix: undefined, faults: true, firstFaultMs: 40_000, faultGapMs: 60_000, churnMs: 3000, link: true, verbose: false, metrics: 'served' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const number = (min: number, max: number): number => {
      const raw = value();
      const n = Number(raw);
      if (!/^\d+(\.\d+)?$/.test(raw) || n < min || n > max) throw new UsageError(`${flag} wants a number from ${min} to ${max}, not "${raw}"`);
      return n;
    };
    switch (flag) {
      case '--no-vscode':
        o.vscode = false;
        break;
      case '--port':
        o.port = number(0, 65535);
        break;
      case '--api-port':
        o.apiPort = number(0, 65535);
        break;
      case '--vsix':
        o.vsix = path.resolve(value());
        break;
      case '--no-faults':
        o.faults = false;
        break;
      case '--first-fault':
        o.firstFaultMs = number(0, 86_400) * 1000;
        break;
      case '--fault-gap':
        o.faultGapMs = number(0, 86_400) * 1000;
        break;
      case '--churn':
        o.churnMs = number(0, 3_600_000);
        break;
      case '--metrics': {
        const mode = value();
        if (mode !== 'served' && mode !== 'absent' && mode !== 'forbidden') throw new UsageError(`--metrics wants served, absent or forbidden, not "${mode}"`);
        o.metrics = mode;
        break;
      }
      case '--no-link':
        o.link = false;
        break;
      case '--verbose':
        o.verbose = true;
        break;
      case '--help':
      case '-h':
        return 'help';
      default:
        throw new UsageError(`unknown argument "${arg}"`);
    }
  }
  return o;
}

// ---- terminal output ------------------------------------------------------------------------------

const tty = process.stdout.isTTY === true && !process.env.NO_COLOR;
const paint = (code: string, text: string) => (tty ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = (t: string) => paint('1', t);
const yellow = (t: string) => paint('1;33', t);
const green = (t: string) => paint('32', t);
const dim = (t: string) => paint('2', t);

function say(line: string): void {
  process.stdout.write(`${dim(`[sandbox ${clock()}]`)} ${line}\n`);
}

// ---- helpers --------------------------------------------------------------------------------------

/** Whether 127.0.0.1:port can be listened on right now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The port for code-server: exactly `wanted` when given, else 8080 or the first free one up to 8099. */
async function choosePort(wanted: number | undefined): Promise<number> {
  if (wanted === 0) return 0;
  if (wanted !== undefined) {
    if (await portIsFree(wanted)) return wanted;
    throw new Error(`127.0.0.1:${wanted} is in use; choose another port with --port N (0: any free port)`);
  }
  for (let p = 8080; p < 8100; p++) if (await portIsFree(p)) return p;
  throw new Error('ports 8080 to 8099 on 127.0.0.1 are all in use; choose one with --port N (0: any free port)');
}

/** Runs a command to its end; resolves with its exit code (or the signal's name). */
function run(command: string, args: string[], opts: { cwd?: string; capture?: boolean; onChild?: (child: ChildProcess) => void }): Promise<{ code: number | string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? repoRoot, stdio: ['ignore', opts.capture ? 'pipe' : 'inherit', opts.capture ? 'pipe' : 'inherit'], env: { ...process.env, npm_config_update_notifier: 'false' } });
    opts.onChild?.(child);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? signal ?? 'unknown', output }));
  });
}

/**
 * Copies an unpacked extension into `extensionsDir` and registers it in the profile's
 * `extensions.json` (VS Code loads only what that file lists), with an entry shaped like the one
 * `--install-extension` wrote for Kube Watch.
 */
function installUnpacked(source: string, extensionsDir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = `${id}-${manifest.version}`;
  const target = path.join(extensionsDir, folder);
  fs.cpSync(source, target, { recursive: true });
  const listFile = path.join(extensionsDir, 'extensions.json');
  const list = JSON.parse(fs.readFileSync(listFile, 'utf8')) as { identifier: { id: string }; [key: string]: unknown }[];
  const template = list[0] as { location?: Record<string, unknown>; metadata?: Record<string, unknown> } | undefined;
  const uri = pathToFileURL(target);
  list.push({
    identifier: { id },
    version: manifest.version,
    location: { ...(template?.location ?? { $mid: 1, scheme: 'file' }), fsPath: target, external: uri.href, path: uri.pathname },
    relativeLocation: folder,
    metadata: { ...(template?.metadata ?? {}), installedTimestamp: Date.now(), source: 'vsix' },
  });
  fs.writeFileSync(listFile, JSON.stringify(list));
}

/** Sends `signal` to the process group `pgid`; false when it has no process left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits up to `boundMs` for the process group `pgid` to have no process left. */
async function groupGone(pgid: number, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (signalGroup(pgid, 0)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** The repo's Node 24 (node_modules/.bin/node), else this process's node. */
function nodeBinary(): string {
  const local = path.join(repoRoot, 'node_modules', '.bin', 'node');
  return fs.existsSync(local) ? local : process.execPath;
}

// ---- the sandbox ----------------------------------------------------------------------------------

/** The known kubeconfig path .vscode/launch.json gives a desktop VS Code. */
const LINKED_KUBECONFIG = path.join(repoRoot, '.cache', 'sandbox', 'kubeconfig');
/** The folder code-server (and F5) opens; its .vscode/settings.json lists what Kube Watch watches. */
const WORKSPACE = path.join(repoRoot, 'scripts', 'sandbox', 'workspace');
const OPENER = path.join(repoRoot, 'scripts', 'sandbox', 'opener');


class Sandbox {
  private readonly cleanups: { name: string; run: () => Promise<void> | void }[] = [];
  private stopping: Promise<void> | undefined;
  private stopRequestedAt = 0;
  /** A command we wait for (install, package): stopped with us. */
  private step: ChildProcess | undefined;
  private timeline: FaultTimeline | undefined;
  /** The sandbox user's access (typed `read-only` or `read-write`); set once the cluster runs. */
  private switchAccess: ((mode: 'read-only' | 'read-write') => string) | undefined;

  constructor(private readonly o: SandboxOptions) {}

  async start(): Promise<void> {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-sandbox-'));
    this.defer('temporary folder', () => fs.rmSync(tmp, { recursive: true, force: true }));
    const total = this.o.vscode ? 5 : 1;
    let n = 0;
    const stepLine = (text: string) => say(`${bold(`${++n}/${total}`)} ${text}`);

    let vsix = this.o.vsix;
    if (this.o.vscode) {
      stepLine('code-server: checking its install (the first run installs Debian\'s chromium and build tools with apt, then code-server into .cache/code-server: a few minutes)');
      const install = await run('bash', [path.join(repoRoot, 'scripts', 'vscode', 'install-code-server.sh')], { onChild: (c) => (this.step = c) });
      this.step = undefined;
      if (this.stopping) return;
      if (install.code !== 0) {
        throw new Error(`scripts/vscode/install-code-server.sh failed (exit ${install.code}); its output is above. (It needs root, or sudo without a password, for apt-get. Without code-server, \`npm start -- --no-vscode\` runs only the simulated cluster.)`);
      }

      if (vsix) {
        if (!fs.existsSync(vsix)) throw new Error(`--vsix ${vsix}: no such file`);
        stepLine(`using the package ${vsix} (--vsix)`);
      } else {
        vsix = path.join(tmp, 'kube-watch.vsix');
        stepLine('building the extension: production bundle and .vsix (scripts/package.mjs, as npm run package)');
        const started = Date.now();
        const pack = await run(nodeBinary(), [path.join(repoRoot, 'scripts', 'package.mjs'), '--out', vsix], { capture: true, onChild: (c) => (this.step = c) });
        this.step = undefined;
        if (this.stopping) return;
        if (pack.code !== 0) {
          process.stdout.write(pack.output);
          throw new Error(`building the extension failed (exit ${pack.code}); the output is above`);
        }
        say(`built ${path.basename(vsix)} (${(fs.statSync(vsix).size / 1024).toFixed(0)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    }

    stepLine(`starting the simulated cluster on 127.0.0.1${this.o.churnMs > 0 ? `, with a change every ${(this.o.churnMs / 1000).toFixed(1)} s` : ''}`);
    const kubeconfig = path.join(tmp, 'kubeconfig');
    const cluster = await SimulatedCluster.start({
      port: this.o.apiPort,
      kubeconfigPath: kubeconfig,
      metrics: this.o.metrics,
      log: this.o.verbose ? (m) => say(dim(`cluster: ${m}`)) : undefined,
    });
    this.defer('simulated cluster', () => cluster.stop());
    if (this.o.churnMs > 0) cluster.startChurn(this.o.churnMs);
    cluster.startControllers();
    this.switchAccess = (mode) => cluster.switchAccess(mode);
    // The server remembers every request; a sandbox may run for hours.
    const trim = setInterval(() => {
      const r = cluster.server.requests;
      if (r.length > 5000) r.splice(0, r.length - 2000);
    }, 30_000);
    trim.unref();
    this.defer('request log trimming', () => clearInterval(trim));
    const counts = ['namespaces', 'pods', 'deployments.apps', 'replicasets.apps', 'configmaps', 'events', 'widgets.example.com'].map((r) => `${cluster.server.list(r).length} ${r}`);
    say(`API server ${cluster.url} with ${counts.join(', ')}`);
    say(`kubeconfig ${kubeconfig} (context ${cluster.context})`);
    if (this.o.link) this.link(kubeconfig);

    let address: string | undefined;
    if (this.o.vscode) address = await this.startCodeServer(tmp, vsix!, kubeconfig, stepLine);
    if (this.stopping) return;

    this.banner(cluster, kubeconfig, address);

    this.timeline = new FaultTimeline(cluster, {
      scheduled: this.o.faults,
      firstAfterMs: this.o.firstFaultMs,
      gapMs: this.o.faultGapMs,
      watchedResources: workspaceResources(path.join(WORKSPACE, '.vscode', 'settings.json')),
      announce: (kind, line) => {
        if (kind === 'fault') say(`${yellow('FAULT')} ${line}`);
        else if (kind === 'done') say(`${green('OK')} ${line}`);
        else say(line);
      },
    });
    this.defer('fault timeline', () => this.timeline?.stop());
    say(`waiting for a client to watch the cluster${address ? ' (open the address above)' : ''}; the fault timeline starts then`);
    this.timeline.start();
    this.readCommands();
  }

  /** Steps 4 and 5: a fresh profile with the extension, and code-server. Returns the address to open. */
  private async startCodeServer(tmp: string, vsix: string, kubeconfig: string, stepLine: (t: string) => void): Promise<string> {
    const paths = codeServerPaths();
    const userDataDir = path.join(tmp, 'user-data');
    const extensionsDir = path.join(tmp, 'extensions');
    const configFile = path.join(tmp, 'code-server.yaml');
    stepLine('installing the extension into a fresh code-server profile');
    prepareProfile({
      userDataDir,
      extensionsDir,
      settings: {
        ...SHOWCASE_SETTINGS,
        'files.exclude': { '**/.vscode': true },
        'remote.autoForwardPorts': false,
        // The workspace folder lives in this repository: no "open the parent repository?" prompt.
        'git.openRepositoryInParentFolders': 'never',
      },
    });
    installExtension(paths, { vsix, extensionsDir, userDataDir, configFile });
    installUnpacked(OPENER, extensionsDir);

    const port = await choosePort(this.o.port);
    stepLine(`starting code-server on 127.0.0.1:${port === 0 ? '(any free port)' : port} with KUBECONFIG=${kubeconfig}`);
    const lastLines: string[] = [];
    const { child, listening } = startCodeServer(paths, {
      userDataDir,
      extensionsDir,
      configFile,
      bindAddr: `127.0.0.1:${port}`,
      env: { KUBECONFIG: kubeconfig },
      onOutput: (line) => {
        lastLines.push(line);
        if (lastLines.length > 40) lastLines.shift();
        if (this.o.verbose) say(dim(`code-server: ${line}`));
      },
    });
    this.defer('code-server', async () => {
      await stopProcessGroup(child, 'code-server', (m) => say(m));
      // Its extension host, pty host and file watcher leave a moment after code-server itself.
      if (child.pid !== undefined && !(await groupGone(child.pid, 5000))) {
        say('code-server\'s helper processes are still running 5 s after it exited; sending SIGKILL');
        signalGroup(child.pid, 'SIGKILL');
        await groupGone(child.pid, 2000);
      }
    });
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      say(`code-server exited unexpectedly (${code ?? signal}); its last output:\n${lastLines.join('\n')}`);
      void this.stop(1);
    });
    let timer: NodeJS.Timeout | undefined;
    const baseUrl = await Promise.race([
      listening as Promise<string>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`code-server did not listen within 120 s; its last output:\n${lastLines.join('\n')}`)), 120_000);
      }),
    ]).finally(() => clearTimeout(timer));
    say(`code-server started (pid ${child.pid}, in its own process group) on ${baseUrl}`);
    return `${baseUrl}/?folder=${encodeURIComponent(WORKSPACE)}`;
  }

  /** Links the kubeconfig at the known path .vscode/launch.json uses; removed on stop if still ours. */
  private link(kubeconfig: string): void {
    try {
      fs.mkdirSync(path.dirname(LINKED_KUBECONFIG), { recursive: true });
      fs.rmSync(LINKED_KUBECONFIG, { force: true });
      fs.symlinkSync(kubeconfig, LINKED_KUBECONFIG);
      this.defer('kubeconfig link', () => {
        try {
          if (fs.readlinkSync(LINKED_KUBECONFIG) === kubeconfig) fs.rmSync(LINKED_KUBECONFIG, { force: true });
        } catch {
          // gone already
        }
      });
    } catch (err) {
      say(`could not link ${LINKED_KUBECONFIG}: ${(err as Error).message}`);
    }
  }

  private banner(cluster: SimulatedCluster, kubeconfig: string, address: string | undefined): void {
    const rule = '─'.repeat(78);
    const lines = [rule];
    if (address) {
      lines.push(bold('Kube Watch is running on a simulated cluster. Open in a browser:'), '', `    ${bold(address)}`, '');
      lines.push('The Kube Watch view and its log open by themselves; hover a resource node for its watch statistics.');
    } else {
      lines.push(bold('The simulated cluster is running (no VS Code: --no-vscode).'), '');
    }
    lines.push(`API server:  ${cluster.url}`);
    lines.push(`KUBECONFIG=${kubeconfig}`);
    if (this.o.link) lines.push(`             (also at ${path.relative(process.cwd(), LINKED_KUBECONFIG) || LINKED_KUBECONFIG} while this runs: F5 "Run Extension" in .vscode/launch.json uses it)`);
    if (!address) {
      lines.push('', 'Use it from:');
      lines.push('  a desktop VS Code: open this repository, Run and Debug › "Run Extension" (F5)');
      lines.push(`  the CLI:  npm run build && KUBECONFIG=${kubeconfig} node_modules/.bin/node dist/cli.js watch pods -A`);
    }
    lines.push('', `Faults: ${this.o.faults ? 'on a timer once a client watches, each announced below' : 'off (--no-faults)'}; type ${FAULT_NAMES.join(' / ')} + Enter to run one now; while a log terminal follows a pod: ${LOG_FAULT_NAMES.join(' / ')}; while a port-forward or a shell runs: ${STREAM_FAULT_NAMES.join(' / ')}.`);
    lines.push('Ctrl-C stops everything.', rule);
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  /** Fault names typed in the terminal run at once. */
  private readCommands(): void {
    if (process.stdin.destroyed) return;
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    rl.on('line', (raw) => {
      const name = raw.trim().toLowerCase();
      if (!name || this.stopping) return;
      if (name === 'help' || name === '?') {
        say(`faults: ${FAULT_NAMES.join(', ')}; log faults (while Follow Logs runs): ${LOG_FAULT_NAMES.join(', ')}; port-forward and shell faults: ${STREAM_FAULT_NAMES.join(', ')}; access: read-only, read-write; Ctrl-C stops everything`);
        return;
      }
      if ((name === 'read-only' || name === 'read-write') && this.switchAccess) {
        say(this.switchAccess(name));
        return;
      }
      void this.timeline?.trigger(name);
    });
    rl.on('error', () => {});
    this.defer('terminal input', () => {
      rl.close();
      process.stdin.destroy();
    });
  }

  private defer(name: string, run: () => Promise<void> | void): void {
    this.cleanups.push({ name, run });
  }

  /** Undoes everything in reverse order; then exits with `code`. A second request after 3 s forces it. */
  stop(code: number, why?: string): Promise<void> {
    if (this.stopping) {
      if (Date.now() - this.stopRequestedAt > 3000) {
        say('stopping takes long; forcing it');
        process.exit(code || 130);
      }
      return this.stopping;
    }
    this.stopRequestedAt = Date.now();
    if (why) say(why);
    this.stopping = (async () => {
      if (this.step && this.step.exitCode === null) this.step.kill('SIGTERM');
      for (const c of this.cleanups.splice(0).reverse()) {
        try {
          await c.run();
        } catch (err) {
          say(`stopping the ${c.name}: ${(err as Error).message}`);
        }
      }
      say(code === 0 ? 'stopped everything the sandbox started' : 'stopped');
      process.exit(code);
    })();
    return this.stopping;
  }
}

async function main(): Promise<void> {
  let options: SandboxOptions | 'help';
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`sandbox: ${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sandbox = new Sandbox(options);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void sandbox.stop(0, `${signal}: stopping`));
  }
  try {
    await sandbox.start();
  } catch (err) {
    say(`failed: ${(err as Error).message}`);
    await sandbox.stop(1);
  }
}

void main();
